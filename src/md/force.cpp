#include "md/force.hpp"

#include <algorithm>

namespace mdremap::md {

template <class C, class A>
template <class Access>
ForceResult LJForce<C, A>::run(const Access& acc, Kokkos::View<const Vec4<C>*> x, bool half,
                               const neighbor::GhostAtoms& ghosts, Kokkos::View<A* [3]> f,
                               bool ev) {
  ForceResult r;
  const std::int64_t n = f.extent(0);
  Kokkos::RangePolicy<ExecSpace> policy(0, n);
  if (!half) {
    LJFullKernel<C, A, Access> k{acc, x, f, lj_};
    if (ev)
      Kokkos::parallel_reduce("ForceLJ::full_ev", policy, k, r.e_pair, r.virial);
    else
      Kokkos::parallel_for("ForceLJ::full", policy, k);
    return r;
  }
  if (scatter_target_ != f.data() || scatter_.subview().extent(0) != f.extent(0)) {
    scatter_ = ScatterF(f);
    scatter_target_ = f.data();
  }
  Kokkos::deep_copy(f, A(0));
  scatter_.reset_except(f);
  LJHalfKernel<C, A, Access, ScatterF> k{acc, x, scatter_, lj_, ghosts.owner, ghosts.nlocal};
  if (ev)
    Kokkos::parallel_reduce("ForceLJ::half_ev", policy, k, r.e_pair, r.virial);
  else
    Kokkos::parallel_for("ForceLJ::half", policy, k);
  Kokkos::Experimental::contribute(f, scatter_);
  return r;
}

template <class C, class A>
ForceResult LJForce<C, A>::run_half_host(
    const remap::GatherAccess<Vec4<C>, remap::GatherPath::ReadOnly>& acc,
    const neighbor::GhostAtoms& ghosts, Kokkos::View<A* [3]> f, bool ev) {
  ForceResult r;
#ifdef KOKKOS_ENABLE_OPENMP
  if constexpr (std::is_same_v<ExecSpace, Kokkos::OpenMP>) {
    const std::int64_t n = f.extent(0), ntotal = n + ghosts.nghost;
    const int nthreads = Kokkos::OpenMP::impl_max_hardware_threads();
    const std::int64_t stride = 3 * ntotal;
    if (fcopies_.extent(0) < static_cast<size_t>(nthreads * stride))
      fcopies_ = Kokkos::View<A*, Kokkos::HostSpace>(
          Kokkos::view_alloc("force_copies", Kokkos::WithoutInitializing),
          nthreads * (stride + stride / 8));
    A* fc = fcopies_.data();
    const C* xd = reinterpret_cast<const C*>(acc.data.data());
    const int* index = acc.index.data();
    const int* len = acc.len.data();
    const std::int64_t sj = acc.stride_j, si = acc.stride_t;
    const LJTable<C> lj = lj_;
    // Each thread adds into its own copy (the thread id, as Kokkos::ScatterView's duplicated
    // mode uses it); the static schedule makes the split, and so the sums, reproducible.
    Kokkos::parallel_for("ForceLJ::half_host_clear",
                         Kokkos::RangePolicy<Kokkos::OpenMP>(0, nthreads * stride),
                         [=](const std::int64_t k) { fc[k] = A(0); });
    auto body = [=](const std::int64_t i, double& e, double& w, auto ev_tag) {
      A* ft = fc + Kokkos::OpenMP::impl_hardware_thread_id() * stride;
      lj_half_atom_host<decltype(ev_tag)::value, C, A>(xd, index + i * si, sj, len[i], lj, i, ft, e,
                                                       w);
    };
    using Static = Kokkos::RangePolicy<Kokkos::OpenMP, Kokkos::Schedule<Kokkos::Static>>;
    if (ev)
      Kokkos::parallel_reduce(
          "ForceLJ::half_host_ev", Static(0, n),
          [=](const std::int64_t i, double& e, double& w) { body(i, e, w, std::true_type{}); },
          r.e_pair, r.virial);
    else
      Kokkos::parallel_for("ForceLJ::half_host", Static(0, n), [=](const std::int64_t i) {
        double e = 0, w = 0;
        body(i, e, w, std::false_type{});
      });
    // Sum the copies: the local slot, then each ghost image of the atom in ghost order.
    const int* goff = ghosts.offset.data();
    Kokkos::parallel_for("ForceLJ::half_host_fold", Static(0, n), [=](const std::int64_t i) {
      for (int d = 0; d < 3; ++d) {
        A s = 0;
        for (int u = 0; u < nthreads; ++u) s += fc[u * stride + 3 * i + d];
        for (int g = goff[i]; g < goff[i + 1]; ++g)
          for (int u = 0; u < nthreads; ++u) s += fc[u * stride + 3 * (n + g) + d];
        f(i, d) = s;
      }
    });
  }
#endif
  return r;
}

template <class C, class A>
ForceResult LJForce<C, A>::compute(Kokkos::View<const Vec4<C>*> x,
                                   const neighbor::NeighborList& list,
                                   const neighbor::GhostAtoms& ghosts, Kokkos::View<A* [3]> f,
                                   bool ev, remap::GatherPath path) {
  if (path == remap::GatherPath::Texture) {
    remap::TextureGatherAccess<Vec4<C>> acc{tex_.bind(x.data(), x.extent(0)),
                                            list.neighbors,
                                            list.counts,
                                            list.stride_j,
                                            list.stride_i,
                                            tex_.shift()};
    return run(acc, x, list.half, ghosts, f, ev);
  }
  if (path == remap::GatherPath::Global) {
    remap::GatherAccess<Vec4<C>, remap::GatherPath::Global> acc{x, list.neighbors, list.counts,
                                                                list.stride_j, list.stride_i};
    return run(acc, x, list.half, ghosts, f, ev);
  }
  remap::GatherAccess<Vec4<C>, remap::GatherPath::ReadOnly> acc{x, list.neighbors, list.counts,
                                                                list.stride_j, list.stride_i};
#ifdef KOKKOS_ENABLE_OPENMP
  if (std::is_same_v<ExecSpace, Kokkos::OpenMP> && list.half)
    return run_half_host(acc, ghosts, f, ev);
#endif
  return run(acc, x, list.half, ghosts, f, ev);
}

template class LJForce<double, double>;
template class LJForce<float, double>;
template class LJForce<float, float>;

}  // namespace mdremap::md

#include "md/force.hpp"

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
  return run(acc, x, list.half, ghosts, f, ev);
}

template class LJForce<double, double>;
template class LJForce<float, double>;
template class LJForce<float, float>;

}  // namespace mdremap::md

#pragma once
// The force engine over a cluster-pair list (neighbor.list: cluster; neighbor/cluster_list.hpp)
// for any evaluator P. Each step packs the positions into cluster order (GROMACS keeps the same
// copy, its nbnxm atom data), then runs the cluster loop for the list's cluster size. The remap
// strategies serve the plain lists only: this engine reads its own contiguous j-cluster
// positions, which is the sharing they would otherwise build (seed 001 §3.4).
#include <memory>
#include <string>
#include <type_traits>

#include "md/compute/pe_atom.hpp"
#include "md/force.hpp"
#include "md/pair/cluster_half.hpp"
#include "md/pair/cluster_portable.hpp"
#include "md/pair/virial_tensor.hpp"
#ifdef __CUDACC__
#include "md/pair/cluster_cuda.hpp"
#else
#include "md/pair/cluster_host.hpp"
#endif
#include "mdremap/error.hpp"
#include "neighbor/cluster_grid.hpp"

namespace mdremap::md {

// The backend's cluster loop: CUDA's warp loop (clusters of 8), the host's SIMD rows on
// OpenMP, else the portable walk.
#if defined(__CUDACC__)
using ClusterLoop = CudaClusterLoop;
#else
using ClusterLoop =
    RowsClusterLoop<std::conditional_t<std::is_same_v<ExecSpace, Kokkos::DefaultHostExecutionSpace>,
                                       HostClusterRows, PortableClusterRows>>;
#endif

template <class P, class C, class A>
class ClusterPairDriver final : public PairForce<C, A> {
 public:
  using T = Vec4<C>;
  // newton: each pair once, its force added to both atoms (cluster_half.hpp)
  ClusterPairDriver(P pot, bool newton) : pot_(std::move(pot)), newton_(newton) {}

  std::string name() const override {
    return newton_ ? "gather (cluster pairs, each once)" : "gather (cluster pairs)";
  }
  void release_pattern() override {}
  void plan(const neighbor::NeighborList&, const neighbor::GhostAtoms&) override {
    throw Error("the cluster-pair force engine was given a plain neighbour list");
  }
  void plan_clusters(const neighbor::ClusterList& list,
                     const neighbor::GhostAtoms& ghosts) override {
    list_ = list;
    const std::int64_t slots = std::int64_t(list.n_clusters) * list.m;
    if (xc_.extent(0) < static_cast<size_t>(slots))
      xc_ = Kokkos::View<T*>(Kokkos::view_alloc("cluster_x", Kokkos::WithoutInitializing),
                             slots + slots / 8);
    if (!newton_) return;
    fit(owner_, slots, "cluster_owner");
    if (list.packed) {  // the loop reads one form of the rows (plan_half)
      fit(half_entry_, list.entry.extent(0), "cluster_half_entry");
      fit(half_entries_, list.entries.extent(0), "cluster_half_entries");
    } else {
      fit(half_mask_, list.mask.extent(0), "cluster_half_mask");
    }
    slot_owners(list, ghosts, owner_);
    plan_half(list, Kokkos::View<const int*>(owner_), half_mask_, half_entry_, half_entries_);
  }

  ForceResult compute(Kokkos::View<const T*> xall, Kokkos::View<A* [3]> f, bool ev) override {
    x_ = xall;
    f_ = f;
    pack();
    const remap::Sums2 s = run(ev);
    ForceResult r;
    r.e_pair = s.s0;
    r.virial = s.s1;
    return r;
  }

  // Over the masks (both directions) on the positions packed by the last compute().
  VirialTensor virial_tensor() override {
    return cluster_virial_tensor(pot_, Kokkos::View<const T*>(xc_), list_);
  }

  void atom_energies(Kokkos::View<double*> e) override {
    cluster_atom_energies(pot_, Kokkos::View<const T*>(xc_), list_, e);
  }

  RemapStats stats(bool) const override {
    RemapStats st;
    st.report.strategy = name();
    st.report.extra_bytes = static_cast<std::int64_t>(xc_.span() * sizeof(T));
    return st;
  }
  // compare's phases: the pack is this engine's remap, the cluster loop its compute.
  void probe_remap() override { pack(); }
  void probe_compute() override { run(false); }
  void probe_execute() override { compute(x_, f_, false); }
  void set_pipeline_timing(bool) override {}
  remap::PipelineTimeline pipeline_timeline() const override { return {}; }
  bool pipeline_streams_distinct() const override { return false; }
  ForcePattern force_pattern() const override {
    throw Error(
        "neighbor.list=cluster has no per-atom neighbour pattern (compare's "
        "gather-reduce needs neighbor.list=full)");
  }

 private:
  void pack() {
    const std::int64_t slots = std::int64_t(list_.n_clusters) * list_.m;
    const auto range = std::make_pair(std::int64_t(0), slots);
    neighbor::pack_cluster_positions<C>(x_, Kokkos::subview(list_.atom, range),
                                        Kokkos::subview(xc_, range));
  }

  remap::Sums2 run(bool ev) {
    ClusterArgs<C> a;
    a.xc = xc_;
    a.atom = list_.atom;
    a.count = list_.count;
    a.cj = list_.cj;
    a.mask = list_.mask;
    a.cap = list_.max_pairs;
    a.packed = list_.packed;
    a.entry = list_.entry;
    a.entries = list_.entries;
    a.n_iclusters = list_.n_iclusters;
    if (newton_) {
      a.mask = half_mask_;
      a.entry = half_entry_;
      a.entries = half_entries_;
    }
    remap::Sums2 s;
    switch (list_.m) {
      case 4:
        dispatch<4>(a, ev, s);
        break;
      case 8:
        dispatch<8>(a, ev, s);
        break;
      case 16:
        dispatch<16>(a, ev, s);
        break;
      default:
        throw Error("cluster force: no loop for clusters of " + std::to_string(list_.m));
    }
    return s;
  }

  template <int M>
  void dispatch(const ClusterArgs<C>& a, bool ev, remap::Sums2& s) const {
    const bool one = pot_.ntypes == 1;
    if (newton_) {
      const Kokkos::View<const int*> owner = owner_;
      if (ev) {
        if (one)
          run_half_cluster_loop<M, true, true>(a, owner, f_, pot_, s);
        else
          run_half_cluster_loop<M, true, false>(a, owner, f_, pot_, s);
      } else {
        if (one)
          run_half_cluster_loop<M, false, true>(a, owner, f_, pot_, s);
        else
          run_half_cluster_loop<M, false, false>(a, owner, f_, pot_, s);
      }
      return;
    }
    if (ev) {
      if (one)
        ClusterLoop::run<M, true, true>(a, f_, pot_, s);
      else
        ClusterLoop::run<M, true, false>(a, f_, pot_, s);
    } else {
      if (one)
        ClusterLoop::run<M, false, true>(a, f_, pot_, s);
      else
        ClusterLoop::run<M, false, false>(a, f_, pot_, s);
    }
  }

  // A kept array of at least n entries (an allocation is a device-wide wait).
  template <class V>
  static void fit(V& v, std::size_t n, const char* label) {
    if (v.extent(0) < n)
      v = V(Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing), n + n / 8);
  }

  P pot_;
  bool newton_ = false;
  neighbor::ClusterList list_;
  // newton: the atom each slot's force goes to, and the list with each pair once (plan_half)
  Kokkos::View<int*> owner_, half_entries_;
  Kokkos::View<std::uint32_t*> half_mask_, half_entry_;
  Kokkos::View<T*> xc_;
  Kokkos::View<const T*> x_;
  Kokkos::View<A* [3]> f_;
};

// A cluster-pair force engine for evaluator P (declared in md/force.hpp; instantiated with the
// plain engines by MDREMAP_PAIR_DRIVERS).
template <class P, class C, class A>
std::unique_ptr<PairForce<C, A>> make_cluster_driver(const PairSetup& s) {
  return std::make_unique<ClusterPairDriver<P, C, A>>(P::make(s.coeffs, s.shift), s.cluster_newton);
}

}  // namespace mdremap::md

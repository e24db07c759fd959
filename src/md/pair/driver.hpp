#pragma once
// The pair driver: one force engine (PairForce, md/force.hpp) for any evaluator P
// (evaluator.hpp). It chooses the backend's loops once, here, and runs them as remap compute
// bodies through the strategy of remap.mode: full list, one thread per atom, f[i] written once
// (FullBody over the backend's FullLoop); half list through a ScatterView (HalfBody), or on the
// OpenMP host through per-thread force copies (HalfHostBody).
#include <Kokkos_ScatterView.hpp>
#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>

#include "md/compute/pe_atom.hpp"
#include "md/force.hpp"
#include "md/memory_paths.hpp"
#include "md/pair/cluster_driver.hpp"
#include "md/pair/full_cuda.hpp"
#include "md/pair/full_portable.hpp"
#include "md/pair/half_host.hpp"
#include "md/pair/half_portable.hpp"
#include "md/pair/virial_tensor.hpp"
#include "mdremap/error.hpp"
#ifndef __CUDACC__
#include "md/pair/full_host.hpp"
#endif
#include "mdremap/remap/registry.hpp"

namespace mdremap::md {

// The backend's full-list loop: CUDA's pipelined walk, the host's vector loops, else portable.
#if defined(__CUDACC__)
using FullLoop = CudaFullLoop;
#else
using FullLoop = std::conditional_t<std::is_same_v<ExecSpace, Kokkos::DefaultHostExecutionSpace>,
                                    HostFullLoop, PortableFullLoop>;
#endif

// Full list, one thread per atom, no write conflicts: f[i] is written once. A remap compute body
// (include/mdremap/remap/strategy.hpp): the strategy launches the kernels (gather's range kernel,
// dup's chunked ones, sharing's team kernel staging shared memory) and hands in its accessor.
template <class P, class C, class A, class Loop = FullLoop>
struct FullBody {
  static constexpr remap::PatternLayout kLayout = remap::PatternLayout::Strided;
  static constexpr int kReferencePatterns = kForceReferencePatterns;
  // Each atom's neighbours are summed in list order (the gather's 16-bit index can serve it).
  static constexpr bool kWalksRowsInOrder = true;
  // Single-precision arithmetic: at most 48 registers (5 blocks of 256 threads per SM), the
  // occupancy the force kernel had before it ran through the layer (uncapped, the layer's
  // accessor costs registers and one block an SM).
  static constexpr unsigned kMinBlocksPerSm = std::is_same_v<C, float> ? 5 : 0;
  // Its lanes kernels (remap.lanes > 1, the smaller systems): as one lane in single precision;
  // in double at most 64 registers (4 blocks of 256 resident, 3 uncapped), with the shorter index
  // prefetch of CudaPipelinedRows' lanes walk. A small system's positions stay in the L2, so the
  // extra warps pay there, while the one-lane kernel of the larger systems measured slower capped
  // (the extra warps' misses saturate the L2).
  static constexpr unsigned kLanesMinBlocksPerSm = std::is_same_v<C, float> ? 5 : 4;
  Kokkos::View<const Vec4<C>*> x;
  Kokkos::View<A* [3]> f;
  P pot;
  template <bool EV, class Access>
  KOKKOS_INLINE_FUNCTION void thread(const std::int64_t i, const Access& nb,
                                     remap::Sums2& s) const {
    Loop::template atom<EV>(nb, x, f, pot, i, s.s0, s.s1);
  }
  // remap.lanes > 1: atom i on `lane` of L lanes (remap/lanes.hpp).
  static constexpr bool kSplitsOverLanes = true;
  template <bool EV, int L, class Access>
  KOKKOS_INLINE_FUNCTION void thread_lanes(const std::int64_t i, const int lane, const Access& nb,
                                           remap::Sums2& s) const {
    full_atom_lanes<typename Loop::Rows, EV, L>(nb, x, f, pot, i, lane, s.s0, s.s1);
  }
};

// Kokkos launches a CUDA functor of 512 bytes or more through constant memory, which serialises
// launches across streams (dup's pipeline, seed 000 §5.1): the force functors stay below.
template <class P, class C, class A>
constexpr bool kFunctorsSmall =
    sizeof(remap::RangeCompute<FullBody<P, C, A>,
                               remap::GatherAccess<Vec4<C>, remap::GatherPath::ReadOnly>>) < 512 &&
    sizeof(remap::RangeCompute<FullBody<P, C, A>,
                               remap::DupDataAccess<Vec4<C>, remap::PatternLayout::Strided>>) < 512;

template <class P, class C, class A>
class PairDriver final : public PairForce<C, A> {
  static_assert(kFunctorsSmall<P, C, A>, "force functor of 512 bytes or more (constant memory)");

 public:
  using T = Vec4<C>;
  explicit PairDriver(const PairSetup& s, P pot)
      : pot_(std::move(pot)),
        half_(s.half),
        opt_(s.remap),
        mode_(s.mode),
        auto_path_(s.auto_path),
        auto_lanes_(s.auto_lanes && !s.half && s.remap.index_bits == 32 &&
                    (s.mode.is_gather() || s.mode.chooses())) {
    // The half list scatters partner forces through the list: a write through the pattern.
    opt_.writes_through_pattern = half_;
    s_ = remap::make_strategy<T>(mode_.name(), opt_);
  }

  std::string name() const override { return s_->name(); }

  void release_pattern() override { s_->release_pattern(); }
  void plan_clusters(const neighbor::ClusterList&, const neighbor::GhostAtoms&) override {
    throw Error("the plain-list force engine was given a cluster list");
  }
  void plan(const neighbor::NeighborList& list, const neighbor::GhostAtoms& ghosts) override {
    ghosts_ = ghosts;
    pv_ = remap::PatternView{};
    pv_.layout = remap::PatternLayout::Strided;
    pv_.index = list.neighbors;
    pv_.len = list.counts;
    pv_.threads = list.n;
    pv_.rows = list.max_count;
    pv_.stride_j = list.stride_j;
    pv_.stride_t = list.stride_i;
    pv_.data_count = ghosts.nlocal + ghosts.nghost;
    bool remake = false;
    if (auto_lanes_) {
      // remap.lanes = auto on the first list: enough lanes an atom to fill the GPU (a host
      // backend runs one); then it stays for the run.
      auto_lanes_ = false;
      const int l = remap::kLanesOnDevice
                        ? remap::lanes_for(list.n, ExecSpace().concurrency(), kAutoMaxLanes)
                        : 1;
      remake = l != opt_.lanes;
      opt_.lanes = l;
    }
    if (auto_path_) {
      // seed 003 Algorithm 3 on the first list: the path then stays for the run.
      const remap::IrregularPattern host = remap::host_pattern(pv_, sizeof(T));
      const GatherPathChoice c = choose_gather_path(
          host, sizeof(A), opt_.block_threads,
          opt_.smem_bytes > 0 ? opt_.smem_bytes : Kokkos::TeamPolicy<>::scratch_size_max(0));
      opt_.path = c.path;
      memory_text_ = c.text;
      remake = true;
      auto_path_ = false;
    }
    if (remake) s_ = remap::make_strategy<T>(mode_.name(), opt_);
    if (s_->needs_host_pattern()) {
      const remap::IrregularPattern host = remap::host_pattern(pv_, sizeof(T));
      s_->plan(pv_, &host);
    } else {
      s_->plan(pv_, nullptr);
    }
  }

  ForceResult compute(Kokkos::View<const T*> xall, Kokkos::View<A* [3]> f, bool ev) override {
    bind(xall, f);
    remap::Sums2 sums;
    if (!half_) {
      remap::execute(*s_, FullBody<P, C, A>{xall, f, pot_}, ev, sums);
    } else {
#ifdef KOKKOS_ENABLE_OPENMP
      if constexpr (std::is_same_v<ExecSpace, Kokkos::OpenMP>) return compute_half_host(ev);
#endif
      if (scatter_target_ != f.data() || scatter_.subview().extent(0) != f.extent(0)) {
        scatter_ = ScatterF(f);
        scatter_target_ = f.data();
      }
      Kokkos::deep_copy(f, A(0));
      scatter_.reset_except(f);
      remap::execute(
          *s_, HalfBody<P, C, A, ScatterF>{xall, scatter_, pot_, ghosts_.owner, ghosts_.nlocal}, ev,
          sums);
      Kokkos::Experimental::contribute(f, scatter_);
    }
    return result(sums);
  }

  // A full list holds each pair twice, a half list once.
  VirialTensor virial_tensor() override {
    return list_virial_tensor(pot_, x_, pv_, half_ ? 1.0 : 0.5);
  }

  void atom_energies(Kokkos::View<double*> e) override {
    list_atom_energies(pot_, x_, pv_, half_, Kokkos::View<const int*>(ghosts_.owner),
                       ghosts_.nlocal, e);
  }

  bool runs_parts() override {
    return !half_ && remap::runs_selections(*s_);
  }
  ForceResult compute_part(Kokkos::View<const T*> xall, Kokkos::View<A* [3]> f, bool ev,
                           const remap::ThreadSelection& sel, bool last) override {
    if (half_) throw Error("a half list's forces run over all atoms at once");
    bind(xall, f);
    remap::Sums2 sums;
    remap::execute_selected(*s_, FullBody<P, C, A>{xall, f, pot_}, ev, sums, sel, last);
    return result(sums);
  }

  RemapStats stats(bool with_transactions) const override {
    RemapStats st;
    st.report = s_->report();
    st.memory_selection = memory_text_;
    if (with_transactions && pv_.threads > 0) {
      const remap::IrregularPattern host = remap::host_pattern(pv_, sizeof(T));
      st.tx = s_->model_transactions(host);
      st.all = s_->model_breakdown(host);
      st.have_tx = true;
    }
    return st;
  }

  void probe_remap() override {
    s_->set_data(x_, true);
    s_->remap_now();
  }
  void probe_compute() override {
    remap::Sums2 sums;
    if (half_) {
      compute(x_, f_, false);
      return;
    }
    remap::compute_only(*s_, FullBody<P, C, A>{x_, f_, pot_}, false, sums);
  }
  void probe_execute() override {
    compute(x_, f_, false);
  }
  void set_pipeline_timing(bool on) override {
    on_pipeline(*s_, [&](remap::ChunkPipeline& p) { p.set_timing(on); });
  }
  remap::PipelineTimeline pipeline_timeline() const override {
    remap::PipelineTimeline tl;
    on_pipeline(*s_, [&](remap::ChunkPipeline& p) { tl = p.timeline(); });
    return tl;
  }
  bool pipeline_streams_distinct() const override {
    bool d = false;
    on_pipeline(*s_, [&](remap::ChunkPipeline& p) { d = p.distinct_streams(); });
    return d;
  }
  ForcePattern force_pattern() const override {
    ForcePattern fp;
    fp.pattern = pv_;
    if constexpr (std::is_same_v<C, float>)
      fp.xf = x_;
    else
      fp.xd = x_;
    return fp;
  }

 private:
  // The arrays of the evaluation about to run. Positions move every step: the remap cache is
  // invalidated (seed 000 §5.2).
  void bind(Kokkos::View<const T*> xall, Kokkos::View<A* [3]> f) {
    x_ = xall;
    f_ = f;
    s_->set_data(xall, true);
  }
  static ForceResult result(const remap::Sums2& s) {
    ForceResult r;
    r.e_pair = s.s0;
    r.virial = s.s1;
    return r;
  }
  // Calls f(dup's stream pipeline) when dup serves the force (chosen by auto or not).
  template <class F>
  static void on_pipeline(remap::RemapStrategy<T>& st, F&& f) {
    remap::visit(st, [&](auto& s) {
      using S = std::decay_t<decltype(s)>;
      if constexpr (std::is_same_v<S, remap::DuplicationStrategy<T>>)
        f(s.pipeline());
      else if constexpr (std::is_same_v<S, remap::AutoStrategy<T>>)
        if (s.chosen()) on_pipeline(*s.chosen(), f);
    });
  }

  // Host (OpenMP) half list, LAMMPS OPENMP-package style (half_host.hpp): each thread adds into
  // its own force copy covering local and ghost slots; a second pass sums the copies and folds
  // each ghost slot into its owner in a fixed order. The strategy's range kernel uses the static
  // schedule, so the split, and the sums, are reproducible.
  ForceResult compute_half_host(bool ev) {
    ForceResult r;
#ifdef KOKKOS_ENABLE_OPENMP
    if constexpr (std::is_same_v<ExecSpace, Kokkos::OpenMP>) {
      const std::int64_t n = f_.extent(0), ntotal = n + ghosts_.nghost;
      const int nthreads = Kokkos::OpenMP::impl_max_hardware_threads();
      const std::int64_t stride = 3 * ntotal;
      if (fcopies_.extent(0) < static_cast<size_t>(nthreads * stride))
        fcopies_ = Kokkos::View<A*, Kokkos::HostSpace>(
            Kokkos::view_alloc("force_copies", Kokkos::WithoutInitializing),
            nthreads * (stride + stride / 8));
      A* fc = fcopies_.data();
      Kokkos::parallel_for("ForceLJ::half_host_clear",
                           Kokkos::RangePolicy<Kokkos::OpenMP>(0, nthreads * stride),
                           [=](const std::int64_t k) { fc[k] = A(0); });
      remap::Sums2 sums;
      remap::execute(*s_, HalfHostBody<P, C, A>{fc, stride, pot_}, ev, sums);
      r.e_pair = sums.s0;
      r.virial = sums.s1;
      // Sum the copies: the local slot, then each ghost image of the atom in ghost order.
      const int* goff = ghosts_.offset.data();
      auto f = f_;
      using Static = Kokkos::RangePolicy<Kokkos::OpenMP, Kokkos::Schedule<Kokkos::Static>>;
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
#else
    (void)ev;
#endif
    return r;
  }

  using ScatterF =
      Kokkos::Experimental::ScatterView<A* [3], typename Kokkos::View<A* [3]>::array_layout,
                                        ExecSpace>;
  P pot_;
  bool half_;
  remap::RemapOptions opt_;
  remap::StrategyChoice mode_;
  bool auto_path_ = false;
  bool auto_lanes_ = false;
  std::string memory_text_;
  std::unique_ptr<remap::RemapStrategy<T>> s_;
  remap::PatternView pv_;
  neighbor::GhostAtoms ghosts_;
  Kokkos::View<const T*> x_;
  Kokkos::View<A* [3]> f_;
  Kokkos::View<A*, Kokkos::HostSpace> fcopies_;  // host half list: threads x 3 (local + ghost)
  ScatterF scatter_;
  A* scatter_target_ = nullptr;
};

// A force engine for evaluator P (declared in md/force.hpp; instantiated once per potential in
// its own translation unit, pair/*_force.cpp, by MDREMAP_PAIR_DRIVERS).
template <class P, class C, class A>
std::unique_ptr<PairForce<C, A>> make_pair_driver(const PairSetup& s) {
  return std::make_unique<PairDriver<P, C, A>>(s, P::make(s.coeffs, s.shift));
}

// The three precisions (double, mixed, single) of a potential's drivers, plain and cluster lists.
#define MDREMAP_PAIR_DRIVERS(Potential)                                     \
  template std::unique_ptr<PairForce<double, double>>                       \
  make_pair_driver<Potential<double>, double, double>(const PairSetup&);    \
  template std::unique_ptr<PairForce<float, double>>                        \
  make_pair_driver<Potential<float>, float, double>(const PairSetup&);      \
  template std::unique_ptr<PairForce<float, float>>                         \
  make_pair_driver<Potential<float>, float, float>(const PairSetup&);       \
  template std::unique_ptr<PairForce<double, double>>                       \
  make_cluster_driver<Potential<double>, double, double>(const PairSetup&); \
  template std::unique_ptr<PairForce<float, double>>                        \
  make_cluster_driver<Potential<float>, float, double>(const PairSetup&);   \
  template std::unique_ptr<PairForce<float, float>>                         \
  make_cluster_driver<Potential<float>, float, float>(const PairSetup&);

}  // namespace mdremap::md

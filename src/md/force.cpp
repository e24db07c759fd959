#include "md/force.hpp"

#include <algorithm>

#include "md/memory_paths.hpp"
#include "mdremap/remap/registry.hpp"

namespace mdremap::md {

// Kokkos launches a CUDA functor of 512 bytes or more through constant memory, which serialises
// launches across streams (dup's pipeline, seed 000 §5.1): the force functors stay below.
template <class C, class A, class Access>
constexpr std::size_t functor_bytes = sizeof(remap::RangeCompute<LJFullBody<C, A>, Access>);
static_assert(
    functor_bytes<float, float, remap::GatherAccess<Vec4<float>, remap::GatherPath::ReadOnly>> <
    512);
static_assert(
    functor_bytes<double, double, remap::GatherAccess<Vec4<double>, remap::GatherPath::ReadOnly>> <
    512);
static_assert(
    functor_bytes<float, float, remap::DupDataAccess<Vec4<float>, remap::PatternLayout::Strided>> <
    512);
static_assert(functor_bytes<double, double,
                            remap::DupDataAccess<Vec4<double>, remap::PatternLayout::Strided>> <
              512);

template <class C, class A>
PairForce<C, A>::PairForce(const PairCoeffs& pc, bool shift, bool half,
                           const remap::RemapOptions& o, const std::string& mode, bool auto_path)
    : lj_(make_lj_table<C>(pc, shift)), half_(half), opt_(o), mode_(mode), auto_path_(auto_path) {
  // The half list scatters partner forces through the list: a write through the pattern.
  opt_.writes_through_pattern = half;
  s_ = remap::make_strategy<T>(mode_, opt_);
}

template <class C, class A>
PairForce<C, A>::~PairForce() = default;

template <class C, class A>
std::string PairForce<C, A>::name() const {
  return s_->name();
}

template <class C, class A>
void PairForce<C, A>::plan(const neighbor::NeighborList& list, const neighbor::GhostAtoms& ghosts) {
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
  if (auto_path_) {
    // seed 003 Algorithm 3 on the first list: the path then stays for the run.
    const remap::IrregularPattern host = remap::host_pattern(pv_, sizeof(T));
    const GatherPathChoice c = choose_gather_path(
        host, sizeof(A), opt_.block_threads,
        opt_.smem_bytes > 0 ? opt_.smem_bytes : Kokkos::TeamPolicy<>::scratch_size_max(0));
    opt_.path = c.path;
    memory_text_ = c.text;
    s_ = remap::make_strategy<T>(mode_, opt_);
    auto_path_ = false;
  }
  if (s_->needs_host_pattern()) {
    const remap::IrregularPattern host = remap::host_pattern(pv_, sizeof(T));
    s_->plan(pv_, &host);
  } else {
    s_->plan(pv_, nullptr);
  }
}

template <class C, class A>
ForceResult PairForce<C, A>::compute(Kokkos::View<const T*> xall, Kokkos::View<A* [3]> f, bool ev) {
  x_ = xall;
  f_ = f;
  // Positions move every step: the remap cache is invalidated (seed 000 §5.2).
  s_->set_data(xall, true);
  remap::Sums2 sums;
  if (!half_) {
    remap::execute(*s_, LJFullBody<C, A>{xall, f, lj_}, ev, sums);
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
    remap::execute(*s_,
                   LJHalfBody<C, A, ScatterF>{xall, scatter_, lj_, ghosts_.owner, ghosts_.nlocal},
                   ev, sums);
    Kokkos::Experimental::contribute(f, scatter_);
  }
  ForceResult r;
  r.e_pair = sums.s0;
  r.virial = sums.s1;
  return r;
}

// Host (OpenMP) half list, LAMMPS OPENMP-package style: each thread adds into its own force copy
// covering local and ghost slots, so the partner update needs neither atomics nor an owner lookup.
// A second pass sums the copies and folds each ghost slot into its owner in a fixed order. The
// strategy's range kernel uses the static schedule, so the split, and the sums, are reproducible.
template <class C, class A>
ForceResult PairForce<C, A>::compute_half_host(bool ev) {
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
    remap::execute(*s_, LJHalfHostBody<C, A>{fc, stride, lj_}, ev, sums);
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

template <class C, class A>
RemapStats PairForce<C, A>::stats(bool with_transactions) const {
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

template <class C, class A>
void PairForce<C, A>::probe_remap() {
  s_->set_data(x_, true);
  s_->remap_now();
}
template <class C, class A>
void PairForce<C, A>::probe_compute() {
  remap::Sums2 sums;
  if (half_) {
    compute(x_, f_, false);
    return;
  }
  remap::compute_only(*s_, LJFullBody<C, A>{x_, f_, lj_}, false, sums);
}
template <class C, class A>
void PairForce<C, A>::probe_execute() {
  compute(x_, f_, false);
}

// Calls f(dup's stream pipeline) when dup serves the force (chosen by auto or not).
template <class T, class F>
void on_pipeline(remap::RemapStrategy<T>& st, F&& f) {
  remap::visit(st, [&](auto& s) {
    using S = std::decay_t<decltype(s)>;
    if constexpr (std::is_same_v<S, remap::DuplicationStrategy<T>>)
      f(s.pipeline());
    else if constexpr (std::is_same_v<S, remap::AutoStrategy<T>>)
      if (s.chosen()) on_pipeline(*s.chosen(), f);
  });
}

template <class C, class A>
void PairForce<C, A>::set_pipeline_timing(bool on) {
  on_pipeline(*s_, [&](remap::ChunkPipeline& p) { p.set_timing(on); });
}
template <class C, class A>
remap::PipelineTimeline PairForce<C, A>::pipeline_timeline() const {
  remap::PipelineTimeline tl;
  on_pipeline(*s_, [&](remap::ChunkPipeline& p) { tl = p.timeline(); });
  return tl;
}
template <class C, class A>
bool PairForce<C, A>::pipeline_streams_distinct() const {
  bool d = false;
  on_pipeline(*s_, [&](remap::ChunkPipeline& p) { d = p.distinct_streams(); });
  return d;
}

template <class C, class A>
ForcePattern PairForce<C, A>::force_pattern() const {
  ForcePattern fp;
  fp.pattern = pv_;
  if constexpr (std::is_same_v<C, float>)
    fp.xf = x_;
  else
    fp.xd = x_;
  return fp;
}

template class PairForce<double, double>;
template class PairForce<float, double>;
template class PairForce<float, float>;

}  // namespace mdremap::md

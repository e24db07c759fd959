#pragma once
// `padding` (seed 001 §3.3, Fig. 3): data sorted by access frequency, threads regrouped into warps
// in that order, each warp's unique elements packed into segment-aligned slots (planned on the
// host by make_padding_plan); the kernel's new thread nt does old thread perm[nt]'s work and reads
// slot Q[j][nt]. Because threads are regrouped, every other thread-indexed reference of the kernel
// (its own element, its output) would become irregular: padding applies only to kernels whose
// every reference follows the one pattern (seed 001 §3.3 "Limitation", §4 "Applicability"), and
// refuses otherwise. Outputs are produced in the new thread order (thread_perm() maps back).
#include <chrono>

#include "mdremap/remap/impl/cached_strategy.hpp"
#include "mdremap/remap/impl/padding.hpp"

namespace mdremap::remap {

// Q (and the weights with it) is laid out like the thread-permuted pattern: rows-by-threads
// Q[j*T + nt], or CSR Q[qstart[nt] + j] with the permuted lengths' prefix sums.
template <PatternLayout L>
struct PaddedPos {
  Kokkos::View<const std::int64_t*> qstart;  // Offsets only
  std::int64_t threads = 0;
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(const int j, const std::int64_t nt) const {
    if constexpr (L == PatternLayout::Strided)
      return j * threads + nt;
    else
      return qstart(nt) + j;
  }
};

template <class T, PatternLayout L>
struct PaddedAccess {
  Kokkos::View<const T*> newdata;
  Kokkos::View<const int*> q;
  Kokkos::View<const int*> len;         // len of the old thread, in the new order
  Kokkos::View<const double*> weights;  // W laid out like Q (empty without weights)
  PaddedPos<L> qpos;
  KOKKOS_INLINE_FUNCTION int count(const std::int64_t nt) const { return len(nt); }
  KOKKOS_INLINE_FUNCTION T operator()(const int j, const std::int64_t nt) const {
    return newdata(q(qpos(j, nt)));
  }
  KOKKOS_INLINE_FUNCTION double weight(const int j, const std::int64_t nt) const {
    return weights(qpos(j, nt));
  }
};

// W'[qpos(j, nt)] = W[pos(j, perm[nt])]: the weights follow their references into the new order.
template <PatternLayout L>
struct PaddedWeightKernel {
  Kokkos::View<double*> out;
  Kokkos::View<const double*> w;
  Kokkos::View<const int*> len;
  Kokkos::View<const std::int64_t*> perm;
  PatternPos<L> pos;
  PaddedPos<L> qpos;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t nt) const {
    const std::int64_t t = perm(nt);
    for (int j = 0; j < len(t); ++j) out(qpos(j, nt)) = w(pos(j, t));
  }
};

template <class T>
class PaddingStrategy final : public CachedRemapStrategy<T> {
  using CachedRemapStrategy<T>::data_;
  using CachedRemapStrategy<T>::cache_;

 public:
  static constexpr const char* kName = "padding";
  // Reads A in place (no copy): serves kernels that also write through the pattern.
  static constexpr bool kReadsInPlace = false;
  static constexpr const char* kHelp =
      "threads regrouped by access frequency, warps' sets packed in aligned segments (seed 001 "
      "§3.3); single-pattern kernels only";
  static std::vector<RemapKey> keys() { return {cache_key()}; }
  static Applicability applies(const RemapOptions& o) {
    if (o.reference_patterns != 1)
      return {false, o.kernel + " has " + std::to_string(o.reference_patterns) +
                         " reference patterns, and padding regroups threads, which needs every "
                         "reference of the kernel to follow one pattern (seed 001 §3.3, §4)"};
    if (o.writes_through_pattern)
      return {false, o.kernel + " writes through the pattern; padding copies reads only"};
    return {};
  }

  explicit PaddingStrategy(const RemapOptions& o) : CachedRemapStrategy<T>(o) {
    if (const auto a = applies(o); !a.ok)
      throw Error("padding does not apply: " + a.why + "; use dup or sharing");
  }
  const char* key() const override { return kName; }
  std::string name() const override { return kName; }
  bool needs_host_pattern() const override { return true; }

  void plan(const PatternView& pv, const IrregularPattern* host) override {
    if (!host) throw Error("padding: plan needs the host copy of the pattern");
    Kokkos::Timer timer;
    pv_ = pv;
    plan_ = make_padding_plan(*host, options());
    const std::int64_t nthreads = host->threads;
    std::vector<int> lenp(nthreads);
    for (std::int64_t nt = 0; nt < nthreads; ++nt) lenp[nt] = host->len[plan_.thread_perm[nt]];
    if (host->csr()) {
      std::vector<std::int64_t> qstart(nthreads + 1, 0);
      for (std::int64_t nt = 0; nt < nthreads; ++nt) qstart[nt + 1] = qstart[nt] + lenp[nt];
      qstart_ = upload("Remap::padding_qstart", qstart);
    } else {
      qstart_ = {};
    }
    q_ = upload("Remap::padding_q", plan_.q);
    src_ = upload("Remap::padding_src", plan_.newdata_src);
    lenp_ = upload("Remap::padding_len", lenp);
    perm_ = upload("Remap::padding_perm", plan_.thread_perm);
    newdata_ = Kokkos::View<T*>("Remap::padding_data", plan_.newdata_src.size());
    q_elems_ = static_cast<std::int64_t>(plan_.q.size());
    weights_ = {};
    if (pv.has_weight()) {
      Kokkos::View<double*> w("Remap::padding_weights", q_elems_);
      const auto policy =
          Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::IndexType<std::int64_t>>(
              0, nthreads);
      if (pv.layout == PatternLayout::Offsets)
        Kokkos::parallel_for(
            "Remap::padding_weights", policy,
            PaddedWeightKernel<PatternLayout::Offsets>{
                w, pv.weight, pv.len, perm_, PatternPos<PatternLayout::Offsets>::of(pv),
                PaddedPos<PatternLayout::Offsets>{qstart_, nthreads}});
      else
        Kokkos::parallel_for(
            "Remap::padding_weights", policy,
            PaddedWeightKernel<PatternLayout::Strided>{
                w, pv.weight, pv.len, perm_, PatternPos<PatternLayout::Strided>::of(pv),
                PaddedPos<PatternLayout::Strided>{qstart_, nthreads}});
      weights_ = w;
    }
    plan_.q.clear();
    plan_.q.shrink_to_fit();
    this->finish_plan(timer);
  }
  void remap_now() override {
    fill();
    Kokkos::fence();
  }
  template <class Body, class Sums>
  void execute(const Body& body, bool ev, Sums& sums) {
    fill();
    compute_only(body, ev, sums);
  }
  template <class Body, class Sums>
  void compute_only(const Body& body, bool ev, Sums& sums) {
    check_layout<Body>(pv_, kName);
    ++this->executions_;
    constexpr PatternLayout L = body_layout_v<Body>;
    launch_range(
        "Remap::padding_compute", Kokkos::DefaultExecutionSpace(), body,
        PaddedAccess<T, L>{newdata_, q_, lenp_, weights_, PaddedPos<L>{qstart_, pv_.threads}}, 0,
        pv_.threads, ev, sums);
  }
  TransactionCount model_transactions(const IrregularPattern& host) const override {
    PaddingPlan plan = plan_;  // Q lives on the device only
    auto hq = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q_);
    plan.q.assign(hq.data(), hq.data() + hq.extent(0));
    return count_transactions(padded_pattern(host, plan));
  }
  TransactionBreakdown model_breakdown(const IrregularPattern& host) const override {
    PaddingPlan plan = plan_;
    auto hq = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q_);
    plan.q.assign(hq.data(), hq.data() + hq.extent(0));
    return count_breakdown_padded(host, plan, transaction_model(pv_));
  }
  RemapReport report() const override {
    RemapReport r = this->cached_report();
    r.extra_bytes = static_cast<std::int64_t>(plan_.newdata_src.size() * sizeof(T)) +
                    q_elems_ * static_cast<std::int64_t>(sizeof(int)) +
                    static_cast<std::int64_t>(weights_.extent(0) * sizeof(double));
    r.remapped_chunks = remapped_;
    r.rows = pv_.rows;
    r.holes = plan_.holes;
    r.duplicates = plan_.duplicates;
    return r;
  }
  // The host planner is linear in the references: time it on a slice of the threads and scale.
  double estimate_plan_ms(const PatternView& pv, const IrregularPattern* host) const override {
    if (!host || pv.threads < 4096) return -1;
    return time_on_slice_ms(*host, pv.threads, 2048, [&](const IrregularPattern& s) {
      (void)make_padding_plan(s, options());
    });
  }
  const ThreadPermutation& thread_perm() const override { return plan_.thread_perm; }
  Kokkos::View<const std::int64_t*> thread_perm_device() const override { return perm_; }
  const PaddingPlan& padding_plan() const { return plan_; }

 private:
  static PaddingOptions options() {
    PaddingOptions po;
    po.segment_bytes = std::max<int>(128, static_cast<int>(sizeof(T)));
    return po;
  }
  void fill() {
    if (this->opt_.cache && cache_.lookup(data_.data(), 0) != nullptr) return;
    Kokkos::parallel_for(
        "Remap::padding_fill",
        Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::IndexType<std::int64_t>>(
            0, newdata_.extent(0)),
        PackKernel<T>{newdata_, data_, src_});
    cache_.insert(data_.data(), 0, newdata_.data());
    ++remapped_;
  }

  PatternView pv_;
  PaddingPlan plan_;
  Kokkos::View<T*> newdata_;
  Kokkos::View<const int*> q_, src_, lenp_;
  Kokkos::View<const std::int64_t*> perm_, qstart_;
  Kokkos::View<const double*> weights_;
  std::int64_t q_elems_ = 0;
  std::int64_t remapped_ = 0;
};

}  // namespace mdremap::remap

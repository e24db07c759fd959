#pragma once
// `padding` (seed 001 §3.3, Fig. 3): data sorted by access frequency, threads regrouped into warps
// in that order, each warp's unique elements packed into segment-aligned slots (planned on the
// host by make_padding_plan); the kernel's new thread nt does old thread perm[nt]'s work and reads
// slot Q[j][nt]. Because threads are regrouped, every other thread-indexed reference of the kernel
// (its own element, its output) would become irregular: padding applies only to kernels whose
// every reference follows the one pattern (seed 001 §3.3 "Limitation", §4 "Applicability"), and
// refuses otherwise. Outputs are produced in the new thread order (thread_perm() maps back).
#include "mdremap/remap/padding.hpp"
#include "remap/cached_strategy.hpp"

namespace mdremap::remap {

template <class T>
struct PaddedAccess {
  Kokkos::View<const T*> newdata;
  Kokkos::View<const int*> q;    // Q[j*T + nt]
  Kokkos::View<const int*> len;  // len of the old thread, in the new order
  std::int64_t threads = 0;
  KOKKOS_INLINE_FUNCTION int count(const std::int64_t nt) const { return len(nt); }
  KOKKOS_INLINE_FUNCTION T operator()(const int j, const std::int64_t nt) const {
    return newdata(q(j * threads + nt));
  }
};

template <class T>
class PaddingStrategy final : public CachedRemapStrategy<T> {
  using CachedRemapStrategy<T>::data_;
  using CachedRemapStrategy<T>::cache_;

 public:
  explicit PaddingStrategy(const RemapOptions& o) : CachedRemapStrategy<T>(o) {
    if (o.reference_patterns != 1)
      throw Error("padding does not apply to " + o.kernel + ": it has " +
                  std::to_string(o.reference_patterns) +
                  " reference patterns, and padding regroups threads, which needs every "
                  "reference of the kernel to follow one pattern (seed 001 §3.3, §4); use dup "
                  "or sharing");
  }
  std::string name() const override { return "padding"; }
  bool needs_host_pattern() const override { return true; }

  void plan(const PatternView& pv, const IrregularPattern* host) override {
    if (!host) throw Error("padding: plan needs the host copy of the pattern");
    Kokkos::Timer timer;
    pv_ = pv;
    PaddingOptions po;
    po.segment_bytes = std::max<int>(128, static_cast<int>(sizeof(T)));
    plan_ = make_padding_plan(*host, po);
    std::vector<int> lenp(host->threads);
    for (std::int64_t nt = 0; nt < host->threads; ++nt) lenp[nt] = host->len[plan_.thread_perm[nt]];
    q_ = upload("Remap::padding_q", plan_.q);
    src_ = upload("Remap::padding_src", plan_.newdata_src);
    lenp_ = upload("Remap::padding_len", lenp);
    newdata_ = Kokkos::View<T*>("Remap::padding_data", plan_.newdata_src.size());
    q_elems_ = static_cast<std::int64_t>(plan_.q.size());
    plan_.q.clear();
    plan_.q.shrink_to_fit();
    this->finish_plan(timer);
  }
  void remap_now() override {
    fill();
    Kokkos::fence();
  }
  template <class Body>
  void execute(const Body& body, bool ev, Sums2& sums) {
    fill();
    compute_only(body, ev, sums);
  }
  template <class Body>
  void compute_only(const Body& body, bool ev, Sums2& sums) {
    PaddedAccess<T> a{newdata_, q_, lenp_, pv_.threads};
    launch_range("Remap::padding_compute", Kokkos::DefaultExecutionSpace(), body, a, 0, pv_.threads,
                 ev, sums);
  }
  TransactionCount model_transactions(const IrregularPattern& host) const override {
    IrregularPattern q = apply_thread_permutation(host, plan_.thread_perm);
    auto hq = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q_);
    q.index.assign(hq.data(), hq.data() + hq.extent(0));
    q.data_count = static_cast<std::int64_t>(plan_.newdata_src.size());
    return count_transactions(q);
  }
  RemapReport report() const override {
    RemapReport r = this->cached_report();
    r.extra_bytes = static_cast<std::int64_t>(plan_.newdata_src.size() * sizeof(T)) +
                    q_elems_ * static_cast<std::int64_t>(sizeof(int));
    r.remapped_chunks = remapped_;
    r.rows = pv_.rows;
    r.holes = plan_.holes;
    r.duplicates = plan_.duplicates;
    return r;
  }
  // new -> old thread order of the outputs.
  const ThreadPermutation& thread_perm() const { return plan_.thread_perm; }
  const PaddingPlan& padding_plan() const { return plan_; }

 private:
  template <class V>
  static Kokkos::View<const V*> upload(const char* label, const std::vector<V>& h) {
    Kokkos::View<V*> d(Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing),
                       h.size());
    Kokkos::deep_copy(d, Kokkos::View<const V*, Kokkos::HostSpace>(h.data(), h.size()));
    return d;
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
  std::int64_t q_elems_ = 0;
  std::int64_t remapped_ = 0;
};

}  // namespace mdremap::remap

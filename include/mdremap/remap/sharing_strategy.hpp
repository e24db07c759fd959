#pragma once
// `sharing` (seed 001 §3.4, Fig. 5): threads in blocks of B; each block's unique working set is
// packed contiguously in global memory (blockPos, blockSizes), loaded coalesced into shared memory
// (Kokkos team scratch level 0) and read there through local indices. Blocks whose set exceeds
// the shared memory are halved until they fit (seed 001 §3.4 "Notes"); the halvings are counted.
// Thread clustering (Fig. 5's first step) is a thread reordering, applied by the app (--reorder
// labelprop). The packing is planned on the host (make_sharing_plan) at every pattern change;
// re-packing the data (the remap) runs on the device whenever the data changed.
#include <chrono>

#include "mdremap/remap/cached_strategy.hpp"
#include "mdremap/remap/sharing.hpp"

namespace mdremap::remap {

// A block's view of its staged set: a(j, t) = scratch[local[lpos(j, t)]], where the local
// indices are laid out like the host pattern (rows-by-threads, or CSR by prefix sums of len);
// weights are read where the pattern keeps them.
template <class T, PatternLayout L>
struct SharedLocalAccess {
  const T* scratch;
  Kokkos::View<const int*> local;
  Kokkos::View<const std::int64_t*> local_start;  // CSR host layout (Offsets patterns)
  Kokkos::View<const int*> len;
  std::int64_t threads;
  Kokkos::View<const double*> weights;
  PatternPos<L> wpos;
  KOKKOS_INLINE_FUNCTION int count(const std::int64_t t) const { return len(t); }
  KOKKOS_INLINE_FUNCTION T operator()(const int j, const std::int64_t t) const {
    if constexpr (L == PatternLayout::Strided)
      return scratch[local(j * threads + t)];
    else
      return scratch[local(local_start(t) + j)];
  }
  KOKKOS_INLINE_FUNCTION double weight(const int j, const std::int64_t t) const {
    return weights(wpos(j, t));
  }
};

// One team per (sub-)block: stage the set coalesced, barrier, compute from shared memory.
template <class T, class Body>
struct SharingTeamKernel {
  static constexpr PatternLayout L = body_layout_v<Body>;
  using Sums = body_sums_t<Body>;
  using Policy = Kokkos::TeamPolicy<Kokkos::DefaultExecutionSpace>;
  using Member = Policy::member_type;
  Body body;
  Kokkos::View<const T*> packed;
  Kokkos::View<const std::int64_t*> block_begin, block_pos;
  Kokkos::View<const int*> block_sizes, local, len;
  Kokkos::View<const std::int64_t*> local_start;
  std::int64_t threads = 0;
  Kokkos::View<const double*> weights;
  PatternPos<L> wpos;

  template <bool EV>
  KOKKOS_INLINE_FUNCTION void run(const Member& m, Sums& total) const {
    const int b = m.league_rank();
    const int n = block_sizes(b);
    const std::int64_t pos = block_pos(b);
    T* s = static_cast<T*>(m.team_scratch(0).get_shmem(sizeof(T) * n));
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n),
                         [&](const int k) { s[k] = packed(pos + k); });
    m.team_barrier();
    const SharedLocalAccess<T, L> acc{s, local, local_start, len, threads, weights, wpos};
    const std::int64_t t0 = block_begin(b);
    const int nt = static_cast<int>(block_begin(b + 1) - t0);
    if constexpr (EV) {
      Sums part;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(m, nt),
          [&](const int i, Sums& v) { body.template thread<true>(t0 + i, acc, v); },
          Kokkos::Sum<Sums>(part));
      Kokkos::single(Kokkos::PerTeam(m), [&]() { total += part; });
    } else {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nt), [&](const int i) {
        Sums v;
        body.template thread<false>(t0 + i, acc, v);
      });
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
    Sums unused;
    run<false>(m, unused);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& m, Sums& total) const {
    run<true>(m, total);
  }
};

template <class T>
class SharingStrategy final : public CachedRemapStrategy<T> {
  using CachedRemapStrategy<T>::data_;
  using CachedRemapStrategy<T>::cache_;

 public:
  static constexpr const char* kName = "sharing";
  // Reads A in place (no copy): serves kernels that also write through the pattern.
  static constexpr bool kReadsInPlace = false;
  static constexpr const char* kHelp =
      "per-block working sets packed and staged in shared memory (seed 001 §3.4)";
  static Applicability applies(const RemapOptions& o) {
    if (o.writes_through_pattern)
      return {false, o.kernel + " writes through the pattern; sharing stages reads only"};
    return {};
  }
  using Policy = Kokkos::TeamPolicy<Kokkos::DefaultExecutionSpace>;
  explicit SharingStrategy(const RemapOptions& o) : CachedRemapStrategy<T>(o) {
    if (o.block_threads < 1) throw Error("sharing: block threads must be at least 1");
    if (const auto a = applies(o); !a.ok) throw Error("sharing does not apply: " + a.why);
  }
  const char* key() const override { return kName; }
  std::string name() const override { return kName; }
  bool needs_host_pattern() const override { return true; }

  // Shared memory one block may stage: the option, else the backend's level-0 team scratch.
  std::int64_t capacity_bytes() const {
    const std::int64_t max = Policy::scratch_size_max(0);
    return this->opt_.smem_bytes > 0 ? std::min<std::int64_t>(this->opt_.smem_bytes, max) : max;
  }

  void plan(const PatternView& pv, const IrregularPattern* host) override {
    if (!host) throw Error("sharing: plan needs the host copy of the pattern");
    Kokkos::Timer timer;
    pv_ = pv;
    plan_ = make_sharing_plan(*host, options());
    block_begin_ = upload("Remap::sharing_block_begin", plan_.block_begin);
    block_pos_ = upload("Remap::sharing_block_pos", plan_.block_pos);
    block_sizes_ = upload("Remap::sharing_block_sizes", plan_.block_sizes);
    packed_src_ = upload("Remap::sharing_packed_src", plan_.packed_src);
    local_ = upload("Remap::sharing_local", plan_.local);
    local_start_ = host->csr() ? upload("Remap::sharing_local_start", host->offset)
                               : Kokkos::View<const std::int64_t*>();
    packed_ = Kokkos::View<T*>("Remap::sharing_packed", plan_.packed_elems);
    plan_.local.clear();  // on the device now; the host copy of R*T ints is not needed
    plan_.local.shrink_to_fit();
    this->finish_plan(timer);
  }

  void remap_now() override {
    pack();
    Kokkos::fence();
  }

  template <class Body, class Sums>
  void execute(const Body& body, bool ev, Sums& sums) {
    pack();
    compute_only(body, ev, sums);
  }
  template <class Body, class Sums>
  void compute_only(const Body& body, bool ev, Sums& sums) {
    check_layout<Body>(pv_, kName);
    ++this->executions_;
    constexpr PatternLayout L = body_layout_v<Body>;
    const std::int64_t nb = plan_.blocks();
    if (nb == 0) return;
    const std::size_t bytes = sizeof(T) * plan_.max_block_set;
    Policy policy = team_policy(nb).set_scratch_size(0, Kokkos::PerTeam(bytes));
    SharingTeamKernel<T, Body> k{
        body,    packed_,      block_begin_, block_pos_, block_sizes_,          local_,
        pv_.len, local_start_, pv_.threads,  pv_.weight, PatternPos<L>::of(pv_)};
    if (ev) {
      Sums s;
      Kokkos::parallel_reduce("Remap::sharing_compute", policy, k, Kokkos::Sum<Sums>(s));
      sums += s;
    } else {
      Kokkos::parallel_for("Remap::sharing_compute", policy, k);
    }
  }

  TransactionCount model_transactions(const IrregularPattern&) const override {
    return count_sharing_transactions(plan_, sizeof(T));
  }
  // The local indices live on the device only; the count needs their layout, not their values.
  TransactionBreakdown model_breakdown(const IrregularPattern& host) const override {
    SharingPlan plan = plan_;
    plan.local.assign(host.index.size(), 0);
    return count_breakdown_sharing(host, plan, transaction_model(pv_));
  }
  RemapReport report() const override {
    RemapReport r = this->cached_report();
    // The packed copy and the local index array (the original index stays allocated).
    r.extra_bytes = plan_.packed_elems * static_cast<std::int64_t>(sizeof(T)) +
                    static_cast<std::int64_t>(local_.extent(0) * sizeof(int));
    r.remapped_chunks = remapped_;
    r.rows = pv_.rows;
    r.blocks = plan_.blocks();
    r.splits = plan_.splits;
    r.max_block_set = plan_.max_block_set;
    r.packed_elems = plan_.packed_elems;
    r.dup_elems = plan_.dup_elems;
    return r;
  }
  // The host planner is linear in the references: time it on a slice of the threads and scale.
  double estimate_plan_ms(const PatternView&, const IrregularPattern* host) const override {
    if (!host || host->threads < 4096) return -1;
    const std::int64_t bt = this->opt_.block_threads;
    const std::int64_t part = std::max<std::int64_t>(16 * bt, host->threads / 32) / bt * bt;
    const IrregularPattern slice = thread_slice(*host, 0, std::min(part, host->threads));
    const auto t0 = std::chrono::steady_clock::now();
    (void)make_sharing_plan(slice, options());
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return ms * static_cast<double>(host->threads) / static_cast<double>(slice.threads);
  }
  const SharingPlan& sharing_plan() const { return plan_; }

 private:
  SharingOptions options() const {
    SharingOptions so;
    so.block_threads = this->opt_.block_threads;
    so.capacity_elems = std::max<std::int64_t>(1, capacity_bytes() / sizeof(T));
    so.align_elems = std::max<int>(1, 128 / static_cast<int>(sizeof(T)));  // 128-byte segments
    return so;
  }
  Policy team_policy(std::int64_t nb) const {
    if constexpr (std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::DefaultHostExecutionSpace>)
      return Policy(nb, Kokkos::AUTO);
    else
      return Policy(nb, std::min(this->opt_.block_threads, 1024));
  }
  void pack() {
    if (this->opt_.cache && cache_.lookup(data_.data(), 0) != nullptr) return;
    Kokkos::parallel_for(
        "Remap::sharing_pack",
        Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::IndexType<std::int64_t>>(
            0, plan_.packed_elems),
        PackKernel<T>{packed_, data_, packed_src_});
    cache_.insert(data_.data(), 0, packed_.data());
    ++remapped_;
  }

  PatternView pv_;
  SharingPlan plan_;
  Kokkos::View<T*> packed_;
  Kokkos::View<const std::int64_t*> block_begin_, block_pos_, local_start_;
  Kokkos::View<const int*> block_sizes_, packed_src_, local_;
  std::int64_t remapped_ = 0;
};

}  // namespace mdremap::remap

#pragma once
// `sharing` (seed 001 §3.4, Fig. 5): threads in blocks of B; each block's unique working set is
// packed contiguously in global memory (blockPos, blockSizes), loaded coalesced into shared memory
// (Kokkos team scratch level 0) and read there through local indices. Blocks whose set exceeds
// the shared memory are halved until they fit (seed 001 §3.4 "Notes"); the halvings are counted.
// Thread clustering (Fig. 5's first step) is a thread reordering, applied by the app (--reorder
// labelprop).
//
// The plan is built on the device at every pattern change (sharing_device_plan.hpp): no host copy
// of the pattern, no host pass over the references (seed 001 §4: the plan is a cost of the run).
// The compute is one launch per launch class (team size, staged bytes): a split sub-block of 32
// threads runs in a team of 32, a block staging 6 KB asks for 8 KB, not for the largest block's
// set. On CUDA, a class staging more than a Kokkos team may have runs as a plain CUDA kernel opted
// in to the device's larger per-block shared memory (sharing_optin_kernel.hpp). Re-packing the
// data (the remap) runs on the device whenever the data changed.
//
// With plan_overlap (seed 001 §4: planning can be taken off the critical path) plan() only starts
// the plan, on an execution-space instance and a host thread of its own, and returns; the next
// overlap_executions executions read through the index as the gather does (the same body), and
// the one after them waits for the plan if it is not ready yet and runs staged. The count is
// fixed, so the results do not depend on how fast the plan was (a host loop may sum a gathered
// and a staged neighbour row in different orders: round-off differs, timing never decides it).
// release_pattern() (the app is about to overwrite the index) waits for a plan still running.
#include <algorithm>
#include <chrono>
#include <future>
#include <string>
#include <type_traits>
#include <utility>

#include "mdremap/remap/impl/cached_strategy.hpp"
#include "mdremap/remap/gather_strategy.hpp"
#include "mdremap/remap/impl/shared_memory.hpp"
#include "mdremap/remap/impl/sharing.hpp"
#include "mdremap/remap/impl/sharing_device_plan.hpp"
#include "mdremap/remap/impl/sharing_optin_kernel.hpp"

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

// One team per (sub-)block of one launch class (league rank r runs sub-block order(first + r)):
// stage the set coalesced, barrier, compute from shared memory.
template <class T, class Body>
struct SharingTeamKernel {
  static constexpr PatternLayout L = body_layout_v<Body>;
  using Sums = body_sums_t<Body>;
  using value_type = T;
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
  Kokkos::View<const int*> order;
  std::int64_t first = 0;

  KOKKOS_INLINE_FUNCTION SharedLocalAccess<T, L> access(const T* s) const {
    return {s, local, local_start, len, threads, weights, wpos};
  }

  template <bool EV>
  KOKKOS_INLINE_FUNCTION void run(const Member& m, Sums& total) const {
    const int b = order(first + m.league_rank());
    const int n = block_sizes(b);
    const std::int64_t pos = block_pos(b);
    T* s = static_cast<T*>(m.team_scratch(0).get_shmem(sizeof(T) * n));
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n),
                         [&](const int k) { s[k] = packed(pos + k); });
    m.team_barrier();
    const SharedLocalAccess<T, L> acc = access(s);
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
  static std::vector<RemapKey> keys() {
    return {cache_key(), block_key(),
            RemapKey::integer64(
                "smem_bytes", "sharing: shared memory a block may stage; 0: the device maximum",
                [](const RemapSettings& s) { return s.options.smem_bytes; },
                [](RemapSettings& s, long long v) { s.options.smem_bytes = v; })
                .at_least(0, "must not be negative (0 = device maximum)"),
            RemapKey::choice(
                "plan_overlap",
                "sharing: plan on an instance of its own while the executions read through the "
                "index (seed 001 §4); auto: on for a GPU backend",
                {"auto", "on", "off"},
                [](const RemapSettings& s) { return std::string(to_string(s.plan_overlap)); },
                [](RemapSettings& s, const std::string& v) {
                  s.plan_overlap = v == "on" ? Toggle::On : v == "off" ? Toggle::Off : Toggle::Auto;
                  s.options.plan_overlap = s.plan_overlap == Toggle::On ||
                                           (s.plan_overlap == Toggle::Auto &&
                                            !std::is_same_v<Kokkos::DefaultExecutionSpace,
                                                            Kokkos::DefaultHostExecutionSpace>);
                }),
            RemapKey::integer(
                "plan_overlap_steps",
                "sharing: executions through the index after each overlapped plan",
                [](const RemapSettings& s) { return s.options.overlap_executions; },
                [](RemapSettings& s, long long v) {
                  s.options.overlap_executions = static_cast<int>(v);
                })
                .within(0, 1000000, "")};
  }
  static Applicability applies(const RemapOptions& o) {
    if (o.writes_through_pattern)
      return {false, o.kernel + " writes through the pattern; sharing stages reads only"};
    return {};
  }
  using Exec = Kokkos::DefaultExecutionSpace;
  using Policy = Kokkos::TeamPolicy<Exec>;
  static constexpr bool kHostBackend = std::is_same_v<Exec, Kokkos::DefaultHostExecutionSpace>;
  explicit SharingStrategy(const RemapOptions& o)
      : CachedRemapStrategy<T>(o), bridge_(bridge_options(o)) {
    if (o.block_threads < 1) throw Error("sharing: block threads must be at least 1");
    if (const auto a = applies(o); !a.ok) throw Error("sharing does not apply: " + a.why);
  }
  ~SharingStrategy() override {
    if (!plan_pending_) return;
    try {
      (void)pending_.get();  // the background plan reads this object's planner: let it end
    } catch (...) {
    }
  }
  const char* key() const override { return kName; }
  std::string name() const override { return kName; }
  // Planned on the device from the pattern itself.
  bool needs_host_pattern() const override { return false; }

  // The most shared memory one block may stage: a Kokkos team's level-0 scratch, and on CUDA
  // the device's opt-in maximum per block (served by the plain CUDA kernel).
  static std::int64_t max_block_bytes() {
    std::int64_t m = Policy::scratch_size_max(0);
#ifdef MDREMAP_SHARING_OPTIN
    m = std::max(m, device_optin_shared_bytes());
#endif
    return m;
  }
  // Shared memory one block may stage: the option, else max_block_bytes().
  std::int64_t capacity_bytes() const {
    const std::int64_t max = max_block_bytes();
    return this->opt_.smem_bytes > 0 ? std::min<std::int64_t>(this->opt_.smem_bytes, max) : max;
  }

  // `host` is not needed (planned on the device) and not read.
  void plan(const PatternView& pv, const IrregularPattern*) override {
    release_pattern();  // a plan still running for the previous pattern ends first
    Kokkos::Timer timer;
    plan_ = DeviceSharingPlan{};  // a failed plan leaves none (execute then refuses)
    pv_ = pv;
    if (this->opt_.plan_overlap) {
      start_background_plan();
      this->record_plan(ms_since(timer));  // what the run waited for: the launch
      return;
    }
    plan_ = planner_.plan(pv, options());
    size_packed();
    this->finish_plan(timer);
  }
  void release_pattern() override {
    if (!plan_pending_) return;
    Kokkos::Timer timer;
    adopt();
    this->add_plan_wait(ms_since(timer));  // a plan not ready by the next pattern change
  }
  void set_data(Kokkos::View<const T*> data, bool changed) override {
    CachedRemapStrategy<T>::set_data(data, changed);
    bridge_.set_data(data, changed);
  }

  void remap_now() override {
    adopt();
    pack();
    Kokkos::fence();
  }

  template <class Body, class Sums>
  void execute(const Body& body, bool ev, Sums& sums) {
    if (bridge_left_ > 0) {
      --bridge_left_;
      return bridge(body, ev, sums);
    }
    adopt();
    pack();  // refuses when there is no plan (a failed one)
    run_staged(body, ev, sums);
  }
  // The staged compute alone (the remap done): waits for an overlapped plan.
  template <class Body, class Sums>
  void compute_only(const Body& body, bool ev, Sums& sums) {
    adopt();
    run_staged(body, ev, sums);
  }

  // Tests: an overlapped plan waits for `gate` before it starts (so that executions are
  // deterministically served by the bridge until the test opens it).
  void hold_plans_for_test(std::shared_future<void> gate) {
    gate_ = std::move(gate);
  }
  std::int64_t bridged_executions() const {
    return bridged_;
  }
  bool plan_ready() const {
    return !plan_pending_ && plan_.planned;
  }

 private:
  template <class Body, class Sums>
  void run_staged(const Body& body, bool ev, Sums& sums) {
    check_layout<Body>(pv_, kName);
    if (!plan_.planned) throw Error("sharing: executed without a plan for the pattern");
    ++this->executions_;
    constexpr PatternLayout L = body_layout_v<Body>;
    SharingTeamKernel<T, Body> k{body,
                                 packed_,
                                 plan_.block_begin,
                                 plan_.block_pos,
                                 plan_.block_sizes,
                                 plan_.local,
                                 pv_.len,
                                 plan_.local_start,
                                 pv_.threads,
                                 pv_.weight,
                                 PatternPos<L>::of(pv_),
                                 plan_.order,
                                 0};
    const std::int64_t team_max = Policy::scratch_size_max(0);
    for (const SharingLaunchClass& c : plan_.classes) {
      k.first = c.first;
      if (c.scratch_bytes <= team_max) {
        Policy policy = team_policy(c).set_scratch_size(0, Kokkos::PerTeam(c.scratch_bytes));
        if (ev) {
          Sums s;
          Kokkos::parallel_reduce("Remap::sharing_compute", policy, k, Kokkos::Sum<Sums>(s));
          sums += s;
        } else {
          Kokkos::parallel_for("Remap::sharing_compute", policy, k);
        }
        continue;
      }
#ifdef MDREMAP_SHARING_OPTIN
      optin::launch(k, c, ev, sums, partial_);
#else
      throw Error("sharing: a block stages " + std::to_string(c.scratch_bytes) +
                  " bytes but a team may have only " + std::to_string(team_max));
#endif
    }
  }

 public:
  TransactionCount model_transactions(const IrregularPattern&) const override {
    settle();
    if (!plan_.planned) return {};
    return count_sharing_transactions(to_host(plan_, false), sizeof(T));
  }
  // The local indices live on the device only; the count needs their layout, not their values.
  TransactionBreakdown model_breakdown(const IrregularPattern& host) const override {
    settle();
    SharingPlan plan = to_host(plan_, false);
    plan.local.assign(host.index.size(), 0);
    return count_breakdown_sharing(host, plan, transaction_model(pv_));
  }
  RemapReport report() const override {
    settle();
    RemapReport r = this->cached_report();
    r.overlapped_plan_ms = overlapped_ms_;
    r.bridged_executions = bridged_;
    // The packed copy and what the planner keeps on the device (local indices, packed sources,
    // block arrays and its work arrays); the original index stays allocated.
    r.extra_bytes = static_cast<std::int64_t>(packed_store_.span() * sizeof(T)) + planner_.bytes();
    r.remapped_chunks = remapped_;
    r.rows = pv_.rows;
    r.blocks = plan_.blocks;
    r.splits = plan_.splits;
    r.max_block_set = plan_.max_block_set;
    r.packed_elems = plan_.packed_elems;
    r.dup_elems = plan_.dup_elems;
    return r;
  }
  // The device planner is linear in the references: time it on a slice of the threads (after
  // one untimed run that allocates its arrays) and scale.
  double estimate_plan_ms(const PatternView& pv, const IrregularPattern*) const override {
    if (pv.threads < 4096) return -1;
    const std::int64_t bt = this->opt_.block_threads;
    PatternView slice = pv;
    slice.threads =
        std::min(pv.threads, std::max<std::int64_t>(16 * bt, pv.threads / 32) / bt * bt);
    SharingDevicePlanner planner;
    (void)planner.plan(slice, options());
    Kokkos::fence();
    const auto t0 = std::chrono::steady_clock::now();
    (void)planner.plan(slice, options());
    Kokkos::fence();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return ms * static_cast<double>(pv.threads) / static_cast<double>(slice.threads);
  }
  const DeviceSharingPlan& device_plan() const {
    settle();
    return plan_;
  }

 private:
  struct Background {
    DeviceSharingPlan plan;
    double ms = 0;  // wall time of the plan on its own instance
  };
  static RemapOptions bridge_options(RemapOptions o) {
    o.path = GatherPath::ReadOnly;
    return o;
  }
  // The planning instance: a stream of its own on a GPU; the host backends' instance is shared
  // (Kokkos serialises its launches), so a host plan overlaps nothing but stays correct.
  static Exec plan_instance() {
    if constexpr (kHostBackend)
      return Exec();
    else
      return Kokkos::Experimental::partition_space(Exec(), 1)[0];
  }
  void start_background_plan() {
    bridge_.plan(pv_, nullptr);
    if (!have_plan_exec_) {
      plan_exec_ = plan_instance();
      have_plan_exec_ = true;
    }
    const Exec exec = plan_exec_;
    // The plan must not see this object's later changes: the pattern and options by value.
    pending_ =
        std::async(std::launch::async, [this, pv = pv_, o = options(), exec, gate = gate_]() {
          if (gate.valid()) gate.wait();
          Kokkos::Timer t;
          Background b;
          b.plan = planner_.plan(pv, o, exec);
          exec.fence("Remap::sharing_background_plan");
          b.ms = ms_since(t);
          return b;
        });
    plan_pending_ = true;
    bridge_left_ = std::max(0, this->opt_.overlap_executions);
  }
  // Takes over the background plan, waiting for it. A planning error is rethrown here, on the
  // app's thread.
  void adopt() {
    if (!plan_pending_) return;
    plan_pending_ = false;
    bridge_left_ = 0;
    Background b = pending_.get();
    plan_ = std::move(b.plan);
    overlapped_ms_ += b.ms;
    size_packed();
    cache_.invalidate_all();
  }
  // const readers (report, transaction models) see the plan the executions will use.
  void settle() const {
    if (plan_pending_) const_cast<SharingStrategy*>(this)->adopt();
  }
  template <class Body, class Sums>
  void bridge(const Body& body, bool ev, Sums& sums) {
    ++this->executions_;
    ++bridged_;
    bridge_.execute(body, ev, sums);
  }
  void size_packed() {
    if (static_cast<std::int64_t>(packed_store_.extent(0)) < plan_.packed_elems)
      packed_store_ =
          Kokkos::View<T*>(Kokkos::view_alloc("Remap::sharing_packed", Kokkos::WithoutInitializing),
                           plan_.packed_elems + plan_.packed_elems / 8);
    packed_ = Kokkos::subview(packed_store_, std::make_pair(std::int64_t{0}, plan_.packed_elems));
  }

  SharingDevicePlanOptions options() const {
    SharingDevicePlanOptions o;
    o.sharing.block_threads = this->opt_.block_threads;
    o.sharing.capacity_elems = std::max<std::int64_t>(1, capacity_bytes() / sizeof(T));
    o.sharing.align_elems =
        std::max<int>(1, 128 / static_cast<int>(sizeof(T)));  // 128-byte segments
    o.elem_bytes = sizeof(T);
    // A GPU runs a team in whole warps: a sub-block's team is its thread count rounded up to one.
    o.team_granule = kHostBackend ? 0 : 32;
    o.max_team = 1024;
    o.scratch_break = Policy::scratch_size_max(0);
    return o;
  }
  static Policy team_policy(const SharingLaunchClass& c) {
    if constexpr (kHostBackend)
      return Policy(c.count, Kokkos::AUTO);
    else
      return Policy(c.count, c.team);
  }
  void pack() {
    if (!plan_.planned) throw Error("sharing: executed without a plan for the pattern");
    if (this->opt_.cache && cache_.lookup(data_.data(), 0) != nullptr) return;
    Kokkos::parallel_for(
        "Remap::sharing_pack",
        Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(0, plan_.packed_elems),
        PackKernel<T>{packed_, data_, plan_.packed_src});
    cache_.insert(data_.data(), 0, packed_.data());
    ++remapped_;
  }

  PatternView pv_;
  GatherStrategy<T> bridge_;  // serves executions while an overlapped plan runs
  std::future<Background> pending_;
  bool plan_pending_ = false;
  Exec plan_exec_;
  bool have_plan_exec_ = false;
  std::shared_future<void> gate_;
  std::int64_t bridged_ = 0;
  int bridge_left_ = 0;  // executions still served through the index after the last plan
  double overlapped_ms_ = 0;
  SharingDevicePlanner planner_;
  DeviceSharingPlan plan_;
  Kokkos::View<T*> packed_store_;  // grows, never shrinks: no reallocation at every re-plan
  Kokkos::View<T*> packed_;
  Kokkos::View<unsigned char*> partial_;  // opt-in kernel: per-block partial sums
  std::int64_t remapped_ = 0;
};

}  // namespace mdremap::remap

#pragma once
// `throttle` (seed 002 §3): locality-aware software throttling. The threads are cut into
// cache-fit parts (Algorithm 1, threads granularity; throttle.hpp), A is packed per part
// (Algorithm 5: x'[old_to_new[e]] = x[e], remade whenever the data change, served by the remap
// cache while they do not), and the parts are scheduled so a part's working set is used while
// it is in the cache:
//  - CF (§3.1): one kernel per part, one after another (strict barriers);
//  - CF-Q (§3.2, Algorithm 2): one kernel; each team (warp or block) takes the next chunk of a
//    FIFO queue (an atomic counter) whose chunks come part by part (relaxed barriers);
//  - SJ (§3.3, Algorithm 3): the first executions profile every node of the bisection tree
//    standalone, one tree level per execution (a level plus the shallower leaves covers every
//    thread once, so each execution is complete); then split_join_cover() picks the nodes that
//    cover the parts in the least total time, a kernel each;
//  - SJ-Q (§3.4): SJ's cover, each chosen node a queue kernel over its own chunks.
// The body is called with the thread's own id (outputs stay in place: no thread_perm); only its
// references are read through the packed copy, or (throttle.pack false) through the pattern's own
// index, in place: the parts' order alone then makes their working sets cache-resident. With ev the
// launches reduce into device slots (no synchronisation between them) that are read once at the
// end.
#include <algorithm>
#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "mdremap/remap/impl/cached_strategy.hpp"
#include "mdremap/remap/impl/partitioned_pattern.hpp"
#include "mdremap/remap/impl/throttle.hpp"

namespace mdremap::remap {

// Thread t's references from the packed copy: entry j at index[start[t] + j] of x'.
template <class T>
struct ThrottleAccess {
  Kokkos::View<const T*, Kokkos::MemoryTraits<Kokkos::RandomAccess>> packed;  // x'
  Kokkos::View<const int*> index;           // packed numbering, threads in the parts' order
  Kokkos::View<const double*> weights;      // laid out like index (empty without weights)
  Kokkos::View<const std::int64_t*> start;  // old thread -> first entry
  Kokkos::View<const int*> len;
  KOKKOS_INLINE_FUNCTION int count(const std::int64_t t) const { return len(t); }
  KOKKOS_INLINE_FUNCTION T operator()(const int j, const std::int64_t t) const {
    return packed(index(start(t) + j));
  }
  KOKKOS_INLINE_FUNCTION double weight(const int j, const std::int64_t t) const {
    return weights(start(t) + j);
  }
};

// Threads [i0, i0 + n) of the parts' order.
template <class Body, class Access>
struct ThrottleRange {
  using Sums = body_sums_t<Body>;
  Body body;
  Access acc;
  Kokkos::View<const std::int64_t*> order;
  std::int64_t i0 = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    Sums s;
    body.template thread<false>(order(i0 + i), acc, s);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, Sums& s) const {
    body.template thread<true>(order(i0 + i), acc, s);
  }
};

// seed 002 Algorithm 2: teams take chunks c0, c0+1, ... < c1 from a counter, in queue order.
template <class Body, class Access>
struct ThrottleQueue {
  using Sums = body_sums_t<Body>;
  using Member = Kokkos::TeamPolicy<>::member_type;
  Body body;
  Access acc;
  Kokkos::View<const std::int64_t*> order;
  Kokkos::View<const std::int64_t*> chunk_begin;
  Kokkos::View<unsigned long long*> counters;
  int slot = 0;
  std::int64_t c0 = 0, c1 = 0;

  template <bool EV>
  KOKKOS_INLINE_FUNCTION void run(const Member& m, Sums& s) const {
    for (;;) {
      std::int64_t c = 0;
      Kokkos::single(
          Kokkos::PerTeam(m),
          [&](std::int64_t& cc) {
            cc = c0 + static_cast<std::int64_t>(Kokkos::atomic_fetch_add(&counters(slot), 1ull));
          },
          c);
      if (c >= c1) break;
      Kokkos::parallel_for(
          Kokkos::TeamThreadRange(m, chunk_begin(c), chunk_begin(c + 1)),
          [&](const std::int64_t i) { body.template thread<EV>(order(i), acc, s); });
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
    Sums s;
    run<false>(m, s);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& m, Sums& s) const { run<true>(m, s); }
};

// The same with a warp per queue unit: Kokkos team threads are warps (vector_length 32), each
// taking its own chunks; lane 0 takes the chunk id and the lanes share it without a block barrier.
template <class Body, class Access>
struct ThrottleWarpQueue {
  using Sums = body_sums_t<Body>;
  using Member = Kokkos::TeamPolicy<>::member_type;
  Body body;
  Access acc;
  Kokkos::View<const std::int64_t*> order;
  Kokkos::View<const std::int64_t*> chunk_begin;
  Kokkos::View<unsigned long long*> counters;
  int slot = 0;
  std::int64_t c0 = 0, c1 = 0;

  template <bool EV>
  KOKKOS_INLINE_FUNCTION void run(const Member& m, Sums& s) const {
    for (;;) {
      std::int64_t c = 0;
      Kokkos::single(
          Kokkos::PerThread(m),
          [&](std::int64_t& cc) {
            cc = c0 + static_cast<std::int64_t>(Kokkos::atomic_fetch_add(&counters(slot), 1ull));
          },
          c);
      if (c >= c1) break;
      if constexpr (EV) {
        Sums part;
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(m, chunk_begin(c), chunk_begin(c + 1)),
            [&](const std::int64_t i, Sums& acc_s) {
              body.template thread<true>(order(i), acc, acc_s);
            },
            Kokkos::Sum<Sums>(part));
        Kokkos::single(Kokkos::PerThread(m), [&]() { s += part; });
      } else {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, chunk_begin(c), chunk_begin(c + 1)),
                             [&](const std::int64_t i) {
                               Sums unused;
                               body.template thread<false>(order(i), acc, unused);
                             });
      }
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
    Sums s;
    run<false>(m, s);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& m, Sums& s) const { run<true>(m, s); }
};

// The weights follow their references into the packed copy's layout.
template <PatternLayout L>
struct ThrottleWeightKernel {
  Kokkos::View<double*> out;
  Kokkos::View<const double*> w;
  Kokkos::View<const int*> len;
  Kokkos::View<const std::int64_t*> start;
  PatternPos<L> pos;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t) const {
    for (int j = 0; j < len(t); ++j) out(start(t) + j) = w(pos(j, t));
  }
};

// Algorithm 5 on the data: x'[old_to_new[e]] = x[e].
template <class T>
struct ThrottlePackKernel {
  Kokkos::View<T*> out;
  Kokkos::View<const T*> data;
  Kokkos::View<const int*> old_to_new;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t e) const {
    out(old_to_new(e)) = data(e);
  }
};

template <class T>
class ThrottleStrategy final : public CachedRemapStrategy<T> {
  using CachedRemapStrategy<T>::data_;
  using CachedRemapStrategy<T>::cache_;
  using ExecSpace = Kokkos::DefaultExecutionSpace;
  using MemSpace = ExecSpace::memory_space;

 public:
  static constexpr const char* kName = "throttle";
  static constexpr bool kReadsInPlace = false;
  static constexpr const char* kHelp =
      "cache-fit parts (Algorithm 1) with packed data (Algorithm 5), scheduled CF, CF-Q, SJ or "
      "SJ-Q (seed 002 §3)";
  static std::vector<RemapKey> keys() {
    using U = ThrottleOptions::QueueUnit;
    return {
        partition_bytes_key(),
        RemapKey::choice(
            "schedule", "throttle: how its cache-fit parts run (seed 002 §3)",
            {"cf", "cf-q", "sj", "sj-q"},
            [](const RemapSettings& s) {
              return std::string(throttle_schedule_name(s.options.throttle.schedule));
            },
            [](RemapSettings& s, const std::string& v) {
              for (auto k : {ThrottleSchedule::CF, ThrottleSchedule::CFQ, ThrottleSchedule::SJ,
                             ThrottleSchedule::SJQ})
                if (v == throttle_schedule_name(k)) s.options.throttle.schedule = k;
            })
            .with_flag("--schedule"),
        RemapKey::choice(
            "bisector",
            "throttle: Algorithm 1's bisector; auto: coarsened for offsets patterns, k-d tiling "
            "for strided ones",
            {"auto", "coarsened", "kd"},
            [](const RemapSettings& s) -> std::string {
              if (!s.options.throttle.bisector_set) return "auto";
              return s.options.throttle.bisector == Bisector::kd_tiling ? "kd" : "coarsened";
            },
            [](RemapSettings& s, const std::string& v) {
              s.options.throttle.bisector_set = v != "auto";
              s.options.throttle.bisector = v == "kd" ? Bisector::kd_tiling : Bisector::coarsened;
            }),
        RemapKey::boolean(
            "pack",
            "throttle: A packed per part before each execution (Algorithm 5), "
            "or read in place in the parts' order",
            [](const RemapSettings& s) { return s.options.throttle.pack; },
            [](RemapSettings& s, bool v) { s.options.throttle.pack = v; }),
        RemapKey::integer64(
            "chunk_threads", "throttle cf-q, sj-q: threads per queue chunk",
            [](const RemapSettings& s) { return s.options.throttle.chunk_threads; },
            [](RemapSettings& s, long long v) { s.options.throttle.chunk_threads = v; })
            .at_least(1, "must be at least 1"),
        RemapKey::choice(
            "queue_unit", "throttle cf-q, sj-q on a GPU: what takes the queue's chunks",
            {"dispatch", "warp", "block"},
            [](const RemapSettings& s) -> std::string {
              const U u = s.options.throttle.queue_unit;
              return u == U::Warp ? "warp" : u == U::Block ? "block" : "dispatch";
            },
            [](RemapSettings& s, const std::string& v) {
              s.options.throttle.queue_unit = v == "warp"    ? U::Warp
                                              : v == "block" ? U::Block
                                                             : U::Dispatch;
            })};
  }
  static Applicability applies(const RemapOptions& o) {
    if (o.writes_through_pattern)
      return {false, o.kernel + " writes through the pattern; throttle packs reads only"};
    return {};
  }

  explicit ThrottleStrategy(const RemapOptions& o) : CachedRemapStrategy<T>(o) {
    if (o.throttle.chunk_threads < 1) throw Error("throttle: chunk_threads must be at least 1");
    if (o.throttle.cache_bytes < 0) throw Error("throttle: cache_bytes must not be negative");
    if (const auto a = applies(o); !a.ok) throw Error("throttle does not apply: " + a.why);
  }
  const char* key() const override { return kName; }
  std::string name() const override {
    return std::string(kName) + "(" + throttle_schedule_name(sched()) +
           (this->opt_.throttle.pack ? "" : ",in-place") + ")";
  }
  bool needs_host_pattern() const override { return true; }

  void plan(const PatternView& pv, const IrregularPattern* host) override {
    if (!host) throw Error("throttle: plan needs the host copy of the pattern");
    Kokkos::Timer timer;
    pv_ = pv;
    plan_ = make_throttle_plan(*host, this->opt_.throttle);
    order_ = upload("Remap::throttle_order", plan_.order);
    // In place the pattern's own index and weights serve the reads: no renumbered copy.
    const bool pack = this->opt_.throttle.pack;
    start_ =
        pack ? upload("Remap::throttle_start", plan_.start) : Kokkos::View<const std::int64_t*>();
    index_ =
        pack ? upload("Remap::throttle_index", plan_.packed_index) : Kokkos::View<const int*>();
    chunk_begin_ = upload("Remap::throttle_chunks", plan_.chunk_begin);
    old_to_new_ = pack ? upload("Remap::throttle_old_to_new", plan_.data_old_to_new)
                       : Kokkos::View<const int*>();
    packed_ = this->opt_.throttle.pack ? Kokkos::View<T*>("Remap::throttle_packed", pv.data_count)
                                       : Kokkos::View<T*>();
    weights_ = {};
    if (pack && pv.has_weight()) {
      Kokkos::View<double*> w(
          Kokkos::view_alloc("Remap::throttle_weights", Kokkos::WithoutInitializing),
          plan_.packed_index.size());
      const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>> policy(0, pv.threads);
      if (pv.layout == PatternLayout::Offsets)
        Kokkos::parallel_for(
            "Remap::throttle_weights", policy,
            ThrottleWeightKernel<PatternLayout::Offsets>{
                w, pv.weight, pv.len, start_, PatternPos<PatternLayout::Offsets>::of(pv)});
      else
        Kokkos::parallel_for(
            "Remap::throttle_weights", policy,
            ThrottleWeightKernel<PatternLayout::Strided>{
                w, pv.weight, pv.len, start_, PatternPos<PatternLayout::Strided>::of(pv)});
      weights_ = w;
    }
    refs_ = pack ? static_cast<std::int64_t>(plan_.packed_index.size()) : 0;
    plan_.packed_index.clear();  // on the device now (throttled_pattern rebuilds it for models)
    plan_.packed_index.shrink_to_fit();
    plan_.start.clear();
    plan_.start.shrink_to_fit();
    counters_ = Kokkos::View<unsigned long long*>("Remap::throttle_counters",
                                                  std::max<std::size_t>(plan_.tree.size(), 1));
    // SJ / SJ-Q: profiling starts again for the new tree.
    stime_.assign(plan_.tree.size(), -1.0);
    cover_.clear();
    pass_ = 0;
    max_depth_ = 0;
    for (const auto& n : plan_.tree) max_depth_ = std::max(max_depth_, static_cast<int>(n.depth));
    this->finish_plan(timer);
  }

  void remap_now() override {
    if (this->opt_.throttle.pack) pack();
    Kokkos::fence();
  }
  template <class Body, class Sums>
  void execute(const Body& body, bool ev, Sums& sums) {
    if (this->opt_.throttle.pack) pack();
    compute_only(body, ev, sums);
  }
  template <class Body, class Sums>
  void compute_only(const Body& body, bool ev, Sums& sums) {
    check_layout<Body>(pv_, kName);
    ++this->executions_;
    if (this->opt_.throttle.pack) {
      const ThrottleAccess<T> acc{packed_, index_, weights_, start_, pv_.len};
      schedule(Launches<Body, ThrottleAccess<T>>{this, body, acc, ev}, ev, sums);
    } else {
      const auto acc =
          GatherAccess<T, GatherPath::ReadOnly, body_layout_v<Body>>::of(pv_, this->data_);
      schedule(Launches<Body, std::decay_t<decltype(acc)>>{this, body, acc, ev}, ev, sums);
    }
  }

 private:
  // The parts in the schedule's order (one execution).
  template <class L, class Sums>
  void schedule(L l, bool ev, Sums& sums) {
    switch (sched()) {
      case ThrottleSchedule::CF:
        for (std::int64_t q = 0; q < plan_.parts(); ++q)
          l.range(plan_.part_begin[q], plan_.part_begin[q + 1]);
        break;
      case ThrottleSchedule::CFQ:
        l.queue(0, 0, plan_.chunks());
        break;
      case ThrottleSchedule::SJ:
      case ThrottleSchedule::SJQ:
        if (profiling()) {
          profile_pass(l);
        } else {
          for (const std::int32_t n : cover_) {
            const PartitionNode& x = plan_.tree[n];
            if (sched() == ThrottleSchedule::SJ)
              l.range(x.thread_begin, x.thread_end);
            else
              l.queue(n, plan_.node_chunk_begin(x), plan_.node_chunk_end(x));
          }
        }
        break;
    }
    if (ev) sums += l.collect();
  }

 public:
  // Warps of consecutive threads in the parts' order, reading the packed copy through the
  // renumbered index (CSR in that order); the bounds are len[t] and start[t] of each thread.
  TransactionCount model_transactions(const IrregularPattern& host) const override {
    return model_breakdown(host).data;
  }
  // In place (pack false): the pattern's own references, modelled in thread order; the warps
  // run the parts' order, whose index, length and weight loads are scattered, so this is a
  // lower bound there.
  TransactionBreakdown model_breakdown(const IrregularPattern& host) const override {
    if (!this->opt_.throttle.pack) return count_breakdown_gather(host, transaction_model(pv_));
    const ThrottlePlan p = make_throttle_plan(host, this->opt_.throttle);
    return count_breakdown_gather(throttled_pattern(host, p), transaction_model(pv_));
  }
  // Data that change every execution are packed every time (Algorithm 5): read A, the
  // permutation, and write A'.
  double min_exec_bytes(const PatternView& pv) const override {
    if (!this->opt_.data_changes || !this->opt_.throttle.pack) return 0;
    return static_cast<double>(pv.data_count) * (2.0 * sizeof(T) + sizeof(int));
  }
  RemapReport report() const override {
    RemapReport r = this->cached_report();
    r.rows = pv_.rows;
    r.remapped_chunks = packs_;
    // x', its index and weights, the thread order and starts, A's renumbering, the chunks.
    r.extra_bytes = static_cast<std::int64_t>(packed_.extent(0) * sizeof(T)) + refs_ * 4 +
                    static_cast<std::int64_t>(weights_.extent(0)) * 8 +
                    static_cast<std::int64_t>(order_.extent(0)) * 8 +
                    static_cast<std::int64_t>(start_.extent(0)) * 8 +
                    static_cast<std::int64_t>(old_to_new_.extent(0)) * 4 +
                    static_cast<std::int64_t>(chunk_begin_.extent(0)) * 8;
    r.decision = describe();
    return r;
  }
  // The partition is O(references) per bisection level: time it on a slice and scale.
  double estimate_plan_ms(const PatternView& pv, const IrregularPattern* host) const override {
    if (!host || pv.threads < 8192) return -1;
    return time_on_slice_ms(*host, pv.threads, 4096, [&](const IrregularPattern& s) {
      (void)make_throttle_plan(s, this->opt_.throttle);
    });
  }
  const ThrottlePlan& throttle_plan() const { return plan_; }
  // SJ / SJ-Q: the chosen nodes once profiled (empty before).
  const std::vector<std::int32_t>& cover() const { return cover_; }
  bool profiling() const {
    return (sched() == ThrottleSchedule::SJ || sched() == ThrottleSchedule::SJQ) && cover_.empty();
  }

 private:
  ThrottleSchedule sched() const { return this->opt_.throttle.schedule; }

  // The kernels of one execution; with ev, every launch reduces into its own device slot.
  template <class Body, class Access>
  struct Launches {
    using Sums = body_sums_t<Body>;
    ThrottleStrategy* s;
    Body body;
    Access acc;
    bool ev;
    int used = 0;
    Kokkos::View<Sums*, MemSpace> slots() {
      const std::size_t need = (s->plan_.tree.size() + 1) * sizeof(Sums);
      if (s->slot_bytes_.extent(0) < need)
        s->slot_bytes_ = Kokkos::View<char*, MemSpace>("Remap::throttle_sums", need);
      return Kokkos::View<Sums*, MemSpace>(reinterpret_cast<Sums*>(s->slot_bytes_.data()),
                                           s->plan_.tree.size() + 1);
    }
    void range(std::int64_t i0, std::int64_t i1) {
      if (i1 <= i0) return;
      const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>> policy(0, i1 - i0);
      const ThrottleRange<Body, Access> k{body, acc, s->order_, i0};
      if (!ev) return Kokkos::parallel_for("Remap::throttle_part", policy, k);
      Kokkos::View<Sums, MemSpace> r(slots().data() + used++);
      Kokkos::parallel_reduce("Remap::throttle_part", policy, k, Kokkos::Sum<Sums, MemSpace>(r));
    }
    void queue(int slot, std::int64_t c0, std::int64_t c1) {
      if (c1 <= c0) return;
      constexpr bool on_host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
      if constexpr (!on_host) {
        using U = ThrottleOptions::QueueUnit;
        if (s->opt_.throttle.queue_unit == U::Dispatch)
          return range(s->plan_.chunk_begin[c0], s->plan_.chunk_begin[c1]);
        if (s->opt_.throttle.queue_unit == U::Warp) return warp_queue(slot, c0, c1);
      }
      Kokkos::deep_copy(ExecSpace(), Kokkos::subview(s->counters_, slot), 0ull);
      const ThrottleQueue<Body, Access> k{body,         acc,  s->order_, s->chunk_begin_,
                                          s->counters_, slot, c0,        c1};
      // Enough teams to fill the device; each keeps taking chunks until the queue is empty.
      const int team = on_host ? 1 : 128;
      const std::int64_t resident = std::max<std::int64_t>(1, ExecSpace().concurrency() / team);
      const int league = static_cast<int>(std::min<std::int64_t>(c1 - c0, resident));
      const Kokkos::TeamPolicy<ExecSpace> policy(league, team);
      if (!ev) return Kokkos::parallel_for("Remap::throttle_queue", policy, k);
      Kokkos::View<Sums, MemSpace> r(slots().data() + used++);
      Kokkos::parallel_reduce("Remap::throttle_queue", policy, k, Kokkos::Sum<Sums, MemSpace>(r));
    }
    // Warps of 32 lanes, 4 to a block, enough to fill the device.
    void warp_queue(int slot, std::int64_t c0, std::int64_t c1) {
      Kokkos::deep_copy(ExecSpace(), Kokkos::subview(s->counters_, slot), 0ull);
      const ThrottleWarpQueue<Body, Access> k{body,         acc,  s->order_, s->chunk_begin_,
                                              s->counters_, slot, c0,        c1};
      constexpr int warps = 4, lanes = 32;
      const std::int64_t resident =
          std::max<std::int64_t>(1, ExecSpace().concurrency() / (warps * lanes));
      const std::int64_t need = (c1 - c0 + warps - 1) / warps;
      const int league = static_cast<int>(std::min<std::int64_t>(need, resident));
      const Kokkos::TeamPolicy<ExecSpace> policy(league, warps, lanes);
      if (!ev) return Kokkos::parallel_for("Remap::throttle_warp_queue", policy, k);
      Kokkos::View<Sums, MemSpace> r(slots().data() + used++);
      Kokkos::parallel_reduce("Remap::throttle_warp_queue", policy, k,
                              Kokkos::Sum<Sums, MemSpace>(r));
    }
    // The launches' sums, read once (the execution's only synchronisation).
    Sums collect() {
      Sums total{};
      if (used == 0) return total;
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                   Kokkos::subview(slots(), std::pair(0, used)));
      for (int k = 0; k < used; ++k) total += h(k);
      return total;
    }
  };

  // One profiling pass (SJ, SJ-Q): the nodes of tree level pass_ and the leaves above it, each a
  // fenced kernel of its own, timed; after the deepest level the cover is chosen (Algorithm 3).
  template <class L>
  void profile_pass(L& l) {
    for (std::size_t n = 0; n < plan_.tree.size(); ++n) {
      const PartitionNode& x = plan_.tree[n];
      if (!(x.depth == pass_ || (x.leaf() && x.depth < pass_))) continue;
      Kokkos::fence();
      Kokkos::Timer t;
      if (sched() == ThrottleSchedule::SJ)
        l.range(x.thread_begin, x.thread_end);
      else
        l.queue(static_cast<int>(n), plan_.node_chunk_begin(x), plan_.node_chunk_end(x));
      Kokkos::fence();
      if (x.depth == pass_) stime_[n] = 1e3 * t.seconds();
    }
    if (++pass_ > max_depth_) {
      cover_ = split_join_cover(plan_.tree, stime_).nodes;
      cover_time_ms_ = 0;
      for (const std::int32_t n : cover_) cover_time_ms_ += stime_[n];
    }
  }

  void pack() {
    if (this->opt_.cache && cache_.lookup(data_.data(), 0) != nullptr) return;
    Kokkos::parallel_for(
        "Remap::throttle_pack",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(0, pv_.data_count),
        ThrottlePackKernel<T>{packed_, data_, old_to_new_});
    cache_.insert(data_.data(), 0, packed_.data());
    ++packs_;
  }

  std::string describe() const {
    std::string d = fmt::format(
        "{}: {} cache-fit parts of <= {:.3g} MB ({} bisection), {} queue chunks, {} boundary "
        "elements",
        name(), plan_.parts(), plan_.cache_bytes / 1e6,
        plan_.bisector == Bisector::coarsened ? "coarsened" : "k-d tiling", plan_.chunks(),
        plan_.boundary_elems);
    if (sched() == ThrottleSchedule::CFQ || sched() == ThrottleSchedule::SJQ) {
      constexpr bool on_host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
      using U = ThrottleOptions::QueueUnit;
      const U u = this->opt_.throttle.queue_unit;
      d += on_host            ? "; queue taken by host threads (atomic counter)"
           : u == U::Dispatch ? "; queue taken in order by the block dispatcher (one launch)"
           : u == U::Warp     ? "; queue taken by warps (atomic counter)"
                              : "; queue taken by blocks of 128 (atomic counter)";
    }
    if (sched() == ThrottleSchedule::SJ || sched() == ThrottleSchedule::SJQ) {
      if (cover_.empty())
        d += fmt::format("; profiling tree level {} of {}", pass_, max_depth_);
      else
        d += fmt::format("; Split-Join cover: {} of {} tree nodes ({:.3g} ms profiled)",
                         cover_.size(), plan_.tree.size(), cover_time_ms_);
    }
    return d;
  }

  PatternView pv_;
  ThrottlePlan plan_;
  Kokkos::View<const std::int64_t*> order_, start_, chunk_begin_;
  Kokkos::View<const int*> index_, old_to_new_;
  Kokkos::View<const double*> weights_;
  Kokkos::View<T*> packed_;
  Kokkos::View<unsigned long long*> counters_;
  Kokkos::View<char*, MemSpace> slot_bytes_;
  std::int64_t refs_ = 0, packs_ = 0;
  std::vector<double> stime_;
  std::vector<std::int32_t> cover_;
  double cover_time_ms_ = 0;
  int pass_ = 0, max_depth_ = 0;
};

}  // namespace mdremap::remap

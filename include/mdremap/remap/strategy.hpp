#pragma once
// The strategy contract of the remap layer (BRIEF section 5). An app describes its irregular
// reference (PatternView + data array A) and writes its kernel once as a compute body; a strategy
// plans from the pattern, remaps when the data changed, and runs the body through its accessor.
//
// The compute body is a device functor with
//   static constexpr PatternLayout kLayout;            // the layout of its patterns (Strided)
//   template <bool EV, class Access>
//   KOKKOS_FUNCTION void thread(std::int64_t t, const Access& a, Sums& sums) const;
// which does thread t's work reading A[P[j][t]] as a(j, t) for j < a.count(t) (and the
// per-reference weight as a.weight(j, t)). Sums is Sums2 unless the body names its own
// (Body::Sums). Strategies launch the kernels (range, chunked on streams, or team-parallel with
// shared memory), so the body is written once.
//
// What an app calls, for every strategy alike (registry.hpp makes them by name):
//   make_strategy<T>(name, options)                     by registry name (registry.hpp)
//   plan(pattern, host copy if needs_host_pattern())   when the index arrays change
//   set_data(A, changed)                                before an execution
//   execute(strategy, body, ev, sums)                   remap (where needed) + compute
//   compute_only(strategy, body, ev, sums)              the compute alone on remapped data
//   remap_now()                                         the remap alone, fenced
//   thread_perm()                                       new -> old thread order of the outputs
//   report(), model_transactions(host)
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "mdremap/error.hpp"
#include "mdremap/remap/accessors.hpp"
#include "mdremap/remap/device_pattern.hpp"
#include "mdremap/remap/options.hpp"
#include "mdremap/remap/pattern_ops.hpp"
#include "mdremap/remap/report.hpp"
#include "mdremap/remap/settings.hpp"
#include "mdremap/remap/transaction_breakdown.hpp"
#include "mdremap/remap/transactions.hpp"

namespace mdremap::remap {

template <class T>
class RemapStrategy {
 public:
  explicit RemapStrategy(const RemapOptions& o) : opt_(o) {}
  virtual ~RemapStrategy() = default;
  RemapStrategy(const RemapStrategy&) = delete;
  RemapStrategy& operator=(const RemapStrategy&) = delete;

  virtual std::string name() const = 0;
  // The concrete class's registry name (its kName): the compute dispatch (registry.hpp) walks the
  // registry's type list with it, no chain of dynamic_casts.
  virtual const char* key() const = 0;
  // Whether plan() needs the host copy of the pattern (planners run on the host).
  virtual bool needs_host_pattern() const { return false; }
  // Called whenever the index arrays change (MD: every neighbour-list build).
  virtual void plan(const PatternView& pv, const IrregularPattern* host) = 0;
  // The app is about to overwrite the index arrays it gave plan() (MD: before the next list
  // build): a strategy still reading them in the background (sharing's overlapped plan) finishes.
  virtual void release_pattern() {}
  // The data array the next execution reads; `changed`: its values differ from the last call
  // (invalidates the remap cache).
  virtual void set_data(Kokkos::View<const T*> data, bool changed) = 0;
  // Brings the remapped copy up to date now and fences (to time the remap on its own).
  virtual void remap_now() {}
  // Modelled memory transactions of one execution (seed 001 §2.1), from the real index arrays:
  // the data loads alone, and every load of the reference as the papers' profilers counted them
  // (index, weights, lengths: transaction_breakdown.hpp).
  virtual TransactionCount model_transactions(const IrregularPattern& host) const = 0;
  virtual TransactionBreakdown model_breakdown(const IrregularPattern& host) const = 0;
  virtual RemapReport report() const = 0;
  // New -> old thread order the outputs are written in (padding regroups threads); empty: the
  // identity. The device copy is for apps that map outputs back in a kernel.
  virtual const ThreadPermutation& thread_perm() const { return identity_; }
  virtual Kokkos::View<const std::int64_t*> thread_perm_device() const { return {}; }
  // A cheap estimate of one plan's time (ms) on this pattern, or < 0 when the strategy cannot
  // tell without planning (auto skips a candidate whose plans alone exceed the best run). `host`,
  // where given, is the pattern on the host or only its first host->threads threads (a sample,
  // host_pattern_head); a host planner times itself on (a slice of) it and scales to pv.threads.
  virtual double estimate_plan_ms(const PatternView&, const IrregularPattern*) const { return -1; }
  // Bytes one execution must move at least through device memory beyond the gather's (0: no
  // bound known); auto turns it into a lower bound on the run with the device's copy bandwidth.
  virtual double min_exec_bytes(const PatternView&) const { return 0; }
  const RemapOptions& options() const { return opt_; }

 protected:
  RemapOptions opt_;

 private:
  ThreadPermutation identity_;
};

// Thread range [t0, t1) of a range kernel: body.thread(t0 + i, access).
// The launch index is 32-bit (launch_range refuses more threads): the range loop does
// 32-bit index arithmetic, as the MD force kernels had before they ran through the layer.
template <class Body, class Access>
struct RangeCompute {
  using Sums = body_sums_t<Body>;
  Body body;
  Access acc;
  std::int64_t t0 = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    Sums s;
    body.template thread<false>(t0 + i, acc, s);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int i, Sums& s) const {
    body.template thread<true>(t0 + i, acc, s);
  }
};

// Launches body over threads [t0, t1) on `exec`; with ev, reduces (blocking) into `sums`.
template <class Exec, class Body, class Access, class Sums>
void launch_range(const char* label, const Exec& exec, const Body& body, const Access& acc,
                  std::int64_t t0, std::int64_t t1, bool ev, Sums& sums) {
  if (t1 <= t0) return;
  if (t1 - t0 > std::numeric_limits<int>::max())
    throw Error(std::string(label) + ": more than 2^31 - 1 threads in one launch");
  Kokkos::RangePolicy<Exec, Kokkos::IndexType<int>> policy(exec, 0, static_cast<int>(t1 - t0));
  RangeCompute<Body, Access> k{body, acc, t0};
  if (ev) {
    Sums s;
    Kokkos::parallel_reduce(label, policy, k, Kokkos::Sum<Sums>(s));
    sums += s;
  } else {
    Kokkos::parallel_for(label, BodyForPolicy<Body, Exec>(exec, 0, static_cast<int>(t1 - t0)), k);
  }
}

// A range of a kernel's threads, [first, first + count), for an app that runs some of them now
// and the rest once more of its data is ready (MD: the atoms away from the sub-domain faces
// while the ghosts' positions travel, then the atoms near them), on instance `space` (a stream of
// its own lets a part run beside another). Only strategies that read the data in place run
// selections (runs_selections() in registry.hpp): a copying strategy would copy data not yet
// written.
struct ThreadSelection {
  std::int64_t first = 0;
  std::int64_t count = 0;
  Kokkos::DefaultExecutionSpace space{};
};

// out[k] = A[src[k]], or the trivial value T{} where src[k] < 0 (alignment / padding holes).
template <class T>
struct PackKernel {
  Kokkos::View<T*> out;
  Kokkos::View<const T*, Kokkos::MemoryTraits<Kokkos::RandomAccess>> data;
  Kokkos::View<const int*> src;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k) const {
    const int s = src(k);
    out(k) = s >= 0 ? data(s) : T{};
  }
};

// A host vector on the device (planner outputs).
template <class V>
Kokkos::View<const V*> upload(const char* label, const std::vector<V>& h) {
  Kokkos::View<V*> d(Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing), h.size());
  Kokkos::deep_copy(d, Kokkos::View<const V*, Kokkos::HostSpace>(h.data(), h.size()));
  return d;
}

inline double ms_since(const Kokkos::Timer& t) {
  return 1e3 * t.seconds();
}

// The transaction model of a pattern: 4-byte indices and lengths, 8-byte weights where it has them.
inline TransactionModel transaction_model(const PatternView& pv) {
  TransactionModel m;
  m.weight_bytes = pv.has_weight() ? static_cast<int>(sizeof(double)) : 0;
  return m;
}

// A body that walks each thread's references in order through acc.for_each(t, f) declares
// kWalksRowsInOrder = true: only such a body can read the 16-bit index (delta_index.hpp), whose
// references are known only in order.
template <class Body, class = void>
struct BodyWalksInOrder : std::false_type {};
template <class Body>
struct BodyWalksInOrder<Body, std::void_t<decltype(Body::kWalksRowsInOrder)>>
    : std::bool_constant<Body::kWalksRowsInOrder> {};

// A body run over a pattern of another layout would read the index wrongly: refuse.
template <class Body>
void check_layout(const PatternView& pv, const char* strategy) {
  if (pv.layout != body_layout_v<Body>)
    throw Error(std::string(strategy) + ": the compute body is written for the " +
                (body_layout_v<Body> == PatternLayout::Strided ? "strided" : "offsets") +
                " pattern layout but the pattern is " +
                (pv.layout == PatternLayout::Strided ? "strided" : "offsets"));
}

}  // namespace mdremap::remap

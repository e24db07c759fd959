#pragma once
// The strategy interface of the remap layer (BRIEF section 5): an app describes its irregular
// reference (PatternView + data array A) and a compute body; a strategy plans from the pattern,
// remaps when the data changed, and runs the compute through its own accessor.
//
// The compute body is a device functor with
//   template <bool EV, class Access>
//   KOKKOS_FUNCTION void thread(std::int64_t t, const Access& a, Sums2& sums) const;
// which does thread t's work reading A[P[j][t]] as a(j, t) for j < a.count(t). Strategies launch
// the kernels (range, chunked on streams, or team-parallel with shared memory), so the body is
// written once. Kernels with more than one reference pattern declare it (RemapOptions::
// reference_patterns); padding needs exactly one (seed 001 §3.3).
#include <cstdint>
#include <string>
#include <vector>

#include "mdremap/remap/transactions.hpp"
#include "remap/device_pattern.hpp"
#include "remap/gather.hpp"

namespace mdremap::remap {

struct RemapOptions {
  int chunks = 4;   // dup: thread ranges remapped and computed one by one (seed 000 §5.1)
  int streams = 4;  // dup: execution-space instances the remap kernels rotate over
  double dup_fraction =
      1.0;            // dup: rows j < fraction * R duplicated, the rest gathered (seed 001 §3.2)
  bool cache = true;  // dup/sharing/padding: the remap cache (seed 000 §5.2)
  GatherPath path = GatherPath::ReadOnly;  // gather: memory path (seed 003 Algorithm 3)
  int block_threads = 128;                 // sharing: threads per block (team)
  std::int64_t smem_bytes = 0;  // sharing: shared memory a block may stage; 0 = device maximum
  int profile_steps = 3;  // auto: timed executions per candidate (seed 001 §4 online profiling)
  int reference_patterns = 1;  // distinct reference patterns of the app's kernel (padding needs 1)
  std::string kernel = "the kernel";  // the app's kernel, for messages
};

// What a strategy reports (BRIEF section 5, "every strategy reports").
struct RemapReport {
  std::string strategy;          // what runs ("auto" names its choice: "auto:dup")
  std::int64_t extra_bytes = 0;  // device memory allocated beyond the baseline gather
  std::int64_t remapped_chunks = 0, cache_hits = 0, cache_misses = 0, invalidations = 0;
  int chunks = 1, streams = 1;
  int rows = 0, dup_rows = 0;                              // dup: rows of P and rows duplicated
  std::int64_t blocks = 0, splits = 0, max_block_set = 0;  // sharing
  std::int64_t packed_elems = 0, dup_elems = 0;            // sharing vs plain duplication
  std::int64_t holes = 0, duplicates = 0;                  // padding
  double plan_ms = 0;  // host + device planning, summed over plans
  int plans = 0;
  std::string decision;  // auto: the choice, why, and the measured times
};

template <class T>
class RemapStrategy {
 public:
  explicit RemapStrategy(const RemapOptions& o) : opt_(o) {}
  virtual ~RemapStrategy() = default;
  virtual std::string name() const = 0;
  // Whether plan() needs the host copy of the pattern (planners run on the host).
  virtual bool needs_host_pattern() const { return false; }
  // Called whenever the index arrays change (MD: every neighbour-list build).
  virtual void plan(const PatternView& pv, const IrregularPattern* host) = 0;
  // The data array the next execution reads; `changed`: its values differ from the last call
  // (invalidates the remap cache).
  virtual void set_data(Kokkos::View<const T*> data, bool changed) = 0;
  // Brings the remapped copy up to date now and fences (to time the remap on its own).
  virtual void remap_now() {}
  // Modelled memory transactions of one execution (seed 001 §2.1), from the real index arrays.
  virtual TransactionCount model_transactions(const IrregularPattern& host) const = 0;
  virtual RemapReport report() const = 0;
  const RemapOptions& options() const { return opt_; }

 protected:
  RemapOptions opt_;
};

// Thread range [t0, t1) of a range kernel: body.thread(t0 + i, access).
template <class Body, class Access>
struct RangeCompute {
  Body body;
  Access acc;
  std::int64_t t0 = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    Sums2 s;
    body.template thread<false>(t0 + i, acc, s);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, Sums2& s) const {
    body.template thread<true>(t0 + i, acc, s);
  }
};

// Launches body over threads [t0, t1) on `exec`; with ev, reduces (blocking) into `sums`.
template <class Exec, class Body, class Access>
void launch_range(const char* label, const Exec& exec, const Body& body, const Access& acc,
                  std::int64_t t0, std::int64_t t1, bool ev, Sums2& sums) {
  if (t1 <= t0) return;
  Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>> policy(exec, 0, t1 - t0);
  RangeCompute<Body, Access> k{body, acc, t0};
  if (ev) {
    Sums2 s;
    Kokkos::parallel_reduce(label, policy, k, Kokkos::Sum<Sums2>(s));
    sums += s;
  } else {
    Kokkos::parallel_for(label, policy, k);
  }
}

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

inline double ms_since(const Kokkos::Timer& t) {
  return 1e3 * t.seconds();
}

}  // namespace mdremap::remap

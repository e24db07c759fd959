#pragma once
// What an app tells the remap layer about its kernel and its run (BRIEF section 5): the strategy
// knobs of the papers, the kernel's reference patterns (padding's applicability), and the run
// horizon `auto` predicts over (seed 001 §4: the selector must count every cost of a run).
#include <cstdint>
#include <map>
#include <string>

#include "mdremap/remap/impl/gather_path.hpp"
#include "mdremap/remap/impl/partition.hpp"

namespace mdremap::remap {

inline const char* to_string(GatherPath p) {
  return gather_path_name(p);
}

// The executions of one run of the app's kernel, as `auto` predicts them (seed 001 §4): MD runs
// `executions` force evaluations and re-plans at every neighbour-list build (`plan_every` steps);
// CG and SP plan once (`plan_every` = 0) and execute many times.
struct RunHorizon {
  std::int64_t executions = 0;  // 0: unknown (auto then compares per-execution time only)
  std::int64_t plan_every = 0;  // executions between re-plans; 0: planned once
  // Plans over the run: the first one, and one every plan_every executions after it.
  std::int64_t plans() const {
    if (plan_every <= 0 || executions <= 0) return 1;
    return 1 + (executions - 1) / plan_every;
  }
};

// `throttle` (seed 002 §3): how its cache-fit parts are scheduled.
enum class ThrottleSchedule {
  CF,   // §3.1: one kernel per part (strict barriers)
  CFQ,  // §3.2, Algorithm 2: one kernel, warps take chunks from a queue in part order
  SJ,   // §3.3, Algorithm 3: tree nodes profiled standalone, the cheapest cover, a kernel each
  SJQ,  // §3.4: SJ's cover, each chosen node a queue kernel of its own
};
inline const char* throttle_schedule_name(ThrottleSchedule s) {
  switch (s) {
    case ThrottleSchedule::CF:
      return "cf";
    case ThrottleSchedule::CFQ:
      return "cf-q";
    case ThrottleSchedule::SJ:
      return "sj";
    case ThrottleSchedule::SJQ:
      return "sj-q";
  }
  return "?";
}

struct ThrottleOptions {
  ThrottleSchedule schedule = ThrottleSchedule::CFQ;
  std::int64_t cache_bytes = 0;  // a part's data footprint at most; 0: default_partition_bytes()
  // Bisector of Algorithm 1: coarsened bisection (follows the pattern's connectivity) for Offsets
  // patterns, k-d tiling on (thread, mean element) for Strided ones, unless set here.
  bool bisector_set = false;
  Bisector bisector = Bisector::coarsened;
  std::int64_t chunk_threads = 256;  // CF-Q / SJ-Q: threads per queue chunk (whole threads)
  // CF-Q / SJ-Q on a GPU: what takes the queue's chunks in order.
  //  - Dispatch: the hardware's block dispatcher. One launch over the chunks in queue order; blocks
  //    start in index order, so a part's chunks are taken in consecutive time, the next part's
  //    after them, and no barrier separates parts (the relaxed barrier of seed 002 §3.2);
  //  - Warp: an atomic counter taken by warps (Algorithm 2 literally, the chunk id broadcast by a
  //    shuffle); Block: the same taken by blocks of 128 (a team barrier per chunk).
  // Host backends run the atomic queue with one thread per chunk whatever this says.
  enum class QueueUnit { Dispatch, Warp, Block };
  QueueUnit queue_unit = QueueUnit::Dispatch;
  // Algorithm 5: A packed per part before every execution whose data changed (true), or read in
  // place through the pattern's own index in the parts' order (false): the parts' scheduling
  // alone keeps their working sets in the cache, and no execution pays a pass over A.
  bool pack = true;
};

struct RemapOptions {
  int chunks = 4;   // dup: thread ranges remapped and computed one by one (seed 000 §5.1)
  int streams = 4;  // dup: execution-space instances the remap kernels rotate over
  double dup_fraction =
      1.0;            // dup: rows j < fraction * R duplicated, the rest gathered (seed 001 §3.2)
  bool cache = true;  // dup/sharing/padding: the remap cache (seed 000 §5.2)
  GatherPath path = GatherPath::ReadOnly;  // gather: memory path (seed 003 Algorithm 3)
  // gather: bits per stored index. 16: the index delta-encoded at every plan
  // (delta_index.hpp; strided patterns, bodies that walk their rows in order); 32: as given.
  int index_bits = 32;
  // gather: lanes a thread's references are split over (lanes.hpp; 1, 2, 4, ..., 32). More than
  // one needs a GPU, a body that declares kSplitsOverLanes, and the 32-bit index.
  int lanes = 1;
  int block_threads = 128;  // sharing: threads per block (team)
  // sharing: plan on an instance and a thread of its own (seed 001 §4: planning off the critical
  // path); the first overlap_executions executions after each plan read through the index (the
  // gather) meanwhile, the next one waits for the plan if it is not ready. A fixed count, not
  // "until ready": the results never depend on how fast the plan was.
  bool plan_overlap = false;
  int overlap_executions = 4;
  std::int64_t smem_bytes = 0;  // sharing: shared memory a block may stage; 0 = device maximum
  int profile_steps = 3;  // auto: timed executions per candidate (seed 001 §4 online profiling)
  // auto: time executions with reductions too (they block: the app's executions all reduce and
  // its other measurements include that), instead of profiling plain executions only.
  bool profile_reductions = false;
  // auto: once what it has spent exploring (screening, plans and profiled executions of every
  // candidate but the first) exceeds this fraction of the best predicted run, it stops exploring
  // and decides among those profiled; 0: no limit.
  double explore_budget = 0;
  int reference_patterns = 1;  // distinct reference patterns of the app's kernel (padding needs 1)
  // The kernel writes through the pattern (an MD half list scatters to its partners): only the
  // gather applies, the other strategies duplicate reads (seed 000 eq. 2, seed 001 §3).
  bool writes_through_pattern = false;
  // The data changes between executions (MD positions: every step); false: static (the cache
  // serves every execution after the first remap).
  bool data_changes = true;
  RunHorizon horizon;
  ThrottleOptions throttle;
  // Knobs a strategy keeps by its keys' names (settings.hpp) rather than in a field here.
  std::map<std::string, double> named;
  std::string kernel = "the kernel";  // the app's kernel, for messages
};

}  // namespace mdremap::remap

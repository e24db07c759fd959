#pragma once
// What an app tells the remap layer about its kernel and its run (BRIEF section 5): the strategy
// knobs of the papers, the kernel's reference patterns (padding's applicability), and the run
// horizon `auto` predicts over (seed 001 §4: the selector must count every cost of a run).
#include <cstdint>
#include <string>

#include "mdremap/remap/gather_path.hpp"

namespace mdremap::remap {

inline const char* to_string(GatherPath p) { return gather_path_name(p); }

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
  // The kernel writes through the pattern (an MD half list scatters to its partners): only the
  // gather applies, the other strategies duplicate reads (seed 000 eq. 2, seed 001 §3).
  bool writes_through_pattern = false;
  // The data changes between executions (MD positions: every step); false: static (the cache
  // serves every execution after the first remap).
  bool data_changes = true;
  RunHorizon horizon;
  std::string kernel = "the kernel";  // the app's kernel, for messages
};

}  // namespace mdremap::remap

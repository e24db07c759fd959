#pragma once
// What every strategy reports (BRIEF section 5, "every strategy reports"), and `auto`'s
// prediction per candidate (seed 001 §4).
#include <cstdint>
#include <string>
#include <vector>

namespace mdremap::remap {

// One candidate's measured costs and its predicted whole-run time (cost_model.hpp).
struct CandidatePrediction {
  std::string name;
  double plan_ms = 0;         // one plan: host copy of the pattern + host and device planning
  double first_extra_ms = 0;  // the first execution after a plan beyond the others (static data
                              // remapped once, then served by the cache)
  double exec_ms = 0;         // one execution: remap (where the cache misses) + compute
  double run_ms = 0;          // predicted whole run (cost_model.hpp)
  bool profiled = false;      // executions timed; false: skipped (the reason in `note`)
  std::string note;
};

struct RemapReport {
  std::string strategy;          // what runs ("auto" names its choice: "auto:dup")
  std::int64_t extra_bytes = 0;  // device memory allocated beyond the baseline gather
  std::int64_t remapped_chunks = 0, cache_hits = 0, cache_misses = 0, invalidations = 0;
  int chunks = 1, streams = 1;
  int rows = 0, dup_rows = 0;                              // dup: rows of P and rows duplicated
  std::string dup_target;                                  // dup: "data" or "references"
  std::int64_t blocks = 0, splits = 0, max_block_set = 0;  // sharing
  std::int64_t packed_elems = 0, dup_elems = 0;            // sharing vs plain duplication
  std::int64_t holes = 0, duplicates = 0;                  // padding
  // gather with the 16-bit index: references of the last plan, and those stored whole (escapes)
  std::int64_t index_references = 0, index_escapes = 0;
  double plan_ms = 0;       // host + device planning, summed over plans
  double last_plan_ms = 0;  // the most recent plan
  int plans = 0;
  std::int64_t executions = 0;  // execute() calls
  // sharing with plan_overlap: the plans' own time on their instance (off the critical path;
  // plan_ms is what the run waited for), and the executions served by the gather meanwhile.
  double overlapped_plan_ms = 0;
  std::int64_t bridged_executions = 0;
  // auto: the choice, why, every candidate's prediction, and the time auto itself spent on
  // candidates it did not keep (their plans and profiled executions).
  std::string decision;
  std::vector<CandidatePrediction> predictions;
  double predicted_run_ms = 0;
  double selection_ms = 0;       // plans + executions of candidates not kept
  double selection_exec_ms = 0;  // of which their profiled executions
};

}  // namespace mdremap::remap

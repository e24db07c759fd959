#pragma once
// Measurements `mdremap compare` makes on an engine's force kernel, outside the engine: the
// strategy's phases timed on their own (fenced medians), the stream pipeline's overlap from
// device timestamps, and the single-pattern gather-reduce over the same neighbour list (where
// padding applies, seed 001 §3.3).
#include <string>

#include "md/force.hpp"
#include "mdremap/remap/options.hpp"

namespace mdremap::compare {

// Measured phases of one force evaluation (medians of repeats, fenced).
struct RemapTiming {
  double remap_ms = 0;      // the remap kernels alone (0 for gather)
  double compute_ms = 0;    // the compute kernel(s) alone on remapped data
  double pipelined_ms = 0;  // remap + compute as the strategy runs them (overlapped)
  // Share of the remap time during which a compute kernel ran, from device timestamps of each
  // chunk (seed 000 Fig. 5); < 0 where it cannot be measured (host backends, no remap).
  double overlap = -1;
  bool streams_distinct = false;  // dup's chunks ran on streams of their own
  remap::PipelineTimeline timeline;
};
RemapTiming measure_phases(md::ForceProbe& probe, int reps);

struct GatherReduceResult {
  md::RemapStats stats;
  RemapTiming timing;
  double checksum = 0;     // sum over threads of out[t]
  double max_rel_err = 0;  // max |out - out_gather| / max |out_gather| (outputs mapped back)
};
// out[t] = sum_j x(A[P[j][t]]) over the force kernel's pattern through `mode`, against the
// plain gather.
GatherReduceResult gather_reduce(const md::ForcePattern& fp, const std::string& mode,
                                 remap::RemapOptions opt, int reps);

}  // namespace mdremap::compare

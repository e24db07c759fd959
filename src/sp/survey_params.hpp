#pragma once
// Parameters of the survey-propagation state and how a variable got its value: kept free of
// Kokkos so host-only code (deck reading, the solver's interface) can include them.
#include <cstdint>
#include <string>

#include "mdremap/remap/reorders.hpp"

namespace mdremap::sp {

// How calc_pi_values' reference is served (BRIEF section 5): the remap layer's section (a
// strategy, an edge reordering, the strategies' knobs; SP's defaults: one chunk and stream, parts
// of 2 MB, a 5% exploration budget), plus when the graph is compacted.
struct RemapSettings : remap::RemapSettings {
  RemapSettings() {
    options.chunks = 1;  // dup: the references are copied once per plan
    options.streams = 1;
    // auto stops exploring candidates once the search has cost this share of the best
    // predicted run: a small formula's whole SP phase is a few tens of milliseconds.
    options.explore_budget = 0.05;
    partition_bytes = 2 << 20;
  }
  // When the live edges fall below this share of the graph's edges, the graph is rebuilt over
  // the live ones (and the strategy re-planned); 0: never (LonestarGPU keeps the whole graph).
  double compact = 0.5;
  std::int64_t expected_sweeps = 0;  // auto's run horizon; 0: unknown
};

struct SurveyParams {
  double epsilon = 0.001;  // convergence: no survey moves by more than this (LonestarGPU)
  double damping = 0.0;    // eta <- damping * eta_old + (1 - damping) * eta_new
  std::uint64_t seed = 1;  // initial surveys: uniform in [0, 1) per edge
  bool pure_literals = true;
  RemapSettings remap;
};

// How a variable got its value (the report counts each).
enum class FixedBy : std::uint8_t {
  Free = 0,
  Sp = 1,             // decimation on the SP biases
  Unit = 2,           // unit propagation
  Pure = 3,           // pure literal
  Walksat = 4,        // WalkSAT on the remaining formula
  Unconstrained = 5,  // in no unsatisfied clause: any value (false is written)
};

}  // namespace mdremap::sp

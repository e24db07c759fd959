#pragma once
// Parameters of the survey-propagation state and how a variable got its value: kept free of
// Kokkos so host-only code (deck reading, the solver's interface) can include them.
#include <cstdint>
#include <string>

namespace mdremap::sp {

// How calc_pi_values' reference is served (BRIEF section 5): a remap strategy by registry name,
// a thread (edge) reordering, and the remap layer's knobs; plus when the graph is compacted.
struct RemapSettings {
  std::string mode = "gather";   // gather | dup | sharing | auto (remap registry names)
  std::string reorder = "none";  // none | variable | labelprop | partition
  std::string gather_path = "readonly";
  int chunks = 1, streams = 1;  // dup: the references are copied once per plan
  double dup_fraction = 1.0;
  bool cache = true;
  int block = 128;  // sharing block / labelprop cluster threads
  std::int64_t smem_bytes = 0;
  int profile_steps = 3;
  // auto stops exploring candidates once the search has cost this share of the best predicted
  // run (0: no limit): a small formula's whole SP phase is a few tens of milliseconds.
  double explore_budget = 0.05;
  std::int64_t partition_bytes = 2 << 20;
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

#pragma once
// `mdremap compare`'s runs: every mode and reorder on the same system, each timed over its whole
// run, setup (first list build and plan) to the last step, plans and auto's profiling included;
// the modes run interleaved in rounds (A B C A B C ...) so machine drift hits all alike, and each
// row keeps the medians over the rounds. Padding refuses the MD force kernel: it is shown on the
// single-pattern gather-reduce instead.
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "compare/measure.hpp"
#include "io/deck.hpp"

namespace mdremap::compare {

// One mode's run in one round.
struct Sample {
  double run_ms = 0;                               // setup + steps, fenced
  double setup_ms = 0;                             // first list build, plan, first force
  double step_ms = 0;                              // MD loop time per step
  double force_ms = 0;                             // force phase over the loop
  double plan_ms = 0;                              // the kept strategy's plans (setup and rebuilds)
  double selection_ms = 0, selection_exec_ms = 0;  // auto: candidates not kept
  double predicted_ms = 0;                         // auto: its whole-run prediction
};

struct Row {
  std::string mode, reorder, strategy, note;
  double e_pair = std::numeric_limits<double>::quiet_NaN();
  std::int64_t tx32 = -1, tx128 = -1, extra = 0;
  std::int64_t all32 = -1, all128 = -1;  // with the index, weight and length loads
  std::vector<Sample> samples;
  Sample med;  // medians over the rounds, field by field
  compare::RemapTiming timing;
  std::int64_t executions = 0;
  std::int64_t hits = 0, misses = 0, splits = 0;
  bool ok = true;
  bool demo = false;  // the single-pattern gather-reduce (not an MD run)
  // The run split for the chart (ms): plan + profiling, exposed remap, compute, the rest.
  double seg_plan = 0, seg_remap = 0, seg_compute = 0, seg_other = 0;
};

struct Plan {
  std::vector<std::string> modes, reorders;
  int steps = 100;  // MD steps of each run
  int rounds = 3;
  int repeats = 5;  // fenced force evaluations for the remap / compute split
  // The deck with the user's overrides; each run sets its mode, reorder and steps on it, and the
  // full column-major list every strategy needs.
  std::function<io::Deck()> deck;
  // Called before each run (round from 1).
  std::function<void(int round, const Row& row)> before_run;
};

struct Results {
  std::vector<Row> rows;  // by reorder, then mode
  std::vector<std::string> notes;
};

// Throws an InputError for a mode or reorder the deck reader refuses, before any run.
Results run(const Plan& plan);

}  // namespace mdremap::compare

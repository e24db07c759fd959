#pragma once
// `auto`'s whole-run prediction (seed 001 §4, with every cost counted): a candidate costs its
// plans (host copy of the pattern, host and device planning), the extra work of the first
// execution after each plan (a static copy remapped once, then served by the remap cache), and
// one execution's remap + compute for every execution of the run. Pure functions, so the choice
// can be tested with injected costs.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "mdremap/remap/options.hpp"
#include "mdremap/remap/report.hpp"

namespace mdremap::remap {

inline double predict_run_ms(const CandidatePrediction& c, const RunHorizon& h) {
  const double plans = static_cast<double>(h.plans());
  const double execs = h.executions > 0 ? static_cast<double>(h.executions) : 1.0;
  return plans * (c.plan_ms + c.first_extra_ms) + execs * c.exec_ms;
}

// Plans alone (no execution): what a candidate costs before it does any work.
inline double predict_plans_ms(double plan_ms, const RunHorizon& h) {
  return static_cast<double>(h.plans()) * plan_ms;
}

// The most a candidate could save over the run against the best one so far: every execution at
// the floor (the bytes any strategy must move, at the copy bandwidth) instead of the best one's
// time. A candidate whose plans cost more than this cannot win, however fast it runs (ski rental:
// a plan is bought only where the run is long enough to pay for it).
inline double max_saving_ms(double best_exec_ms, double floor_exec_ms, const RunHorizon& h) {
  const double execs = h.executions > 0 ? static_cast<double>(h.executions) : 1.0;
  return execs * std::max(0.0, best_exec_ms - floor_exec_ms);
}

// The same, where sunk[k] of candidate k's predicted run is already spent whatever is chosen (the
// first plan and first remap of a candidate profiled and kept alive): the choice minimises what
// is still to come, run_ms - sunk[k].
inline int choose_candidate(std::vector<CandidatePrediction>& c, const RunHorizon& h,
                            const std::vector<double>& sunk) {
  int best = -1;
  double best_ms = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < c.size(); ++k) {
    if (!c[k].profiled) continue;
    c[k].run_ms = predict_run_ms(c[k], h);
    const double to_come = c[k].run_ms - (k < sunk.size() ? sunk[k] : 0.0);
    if (to_come < best_ms) {
      best_ms = to_come;
      best = static_cast<int>(k);
    }
  }
  return best;
}

// Fills run_ms of every profiled candidate and returns the index of the smallest predicted
// whole run (-1 when none was profiled).
inline int choose_candidate(std::vector<CandidatePrediction>& c, const RunHorizon& h) {
  return choose_candidate(c, h, {});
}

}  // namespace mdremap::remap

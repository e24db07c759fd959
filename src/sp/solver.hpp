#pragma once
// Survey-propagation-guided decimation (Braunstein, Mezard, Zecchina 2005; LonestarGPU sp;
// BRIEF section 7): simplify the input (unit propagation, pure literals); then per round iterate
// the surveys to convergence, compute the biases, stop if they are trivial (paramagnetic),
// otherwise fix the most biased fraction of the free variables and simplify again; finally run
// WalkSAT on the remaining formula and check the whole assignment against every clause of the
// input before SAT is claimed.
#include <cstdint>
#include <string>
#include <vector>

#include "mdremap/remap/report.hpp"
#include "mdremap/remap/transaction_breakdown.hpp"
#include "sp/formula.hpp"
#include "sp/survey_params.hpp"
#include "sp/walksat.hpp"

namespace mdremap::sp {

struct SolveParams {
  SurveyParams survey;
  int max_iterations = 100;     // SP sweeps per round (LonestarGPU MAXITERATION)
  double fraction = 0.01;       // decimation: share of the free variables fixed per round
  double paramagnet = 0.01;     // stop when <max(W+, W-)> falls below (LonestarGPU PARAMAGNET)
  std::int64_t max_rounds = 0;  // decimation rounds; 0 = until paramagnetic
  // A round whose sweeps do not converge is retried (surveys kept) with the damping raised to
  // (1 + damping) / 2, at most this often over the solve; 0 stops at the first such round as
  // LonestarGPU does. The synchronous sweep can oscillate where a sequential one would not.
  int retries = 2;
  WalksatParams walksat;
  // The transaction model of calc_pi_values (host, from the real arrays): on, off, or auto (on
  // up to 2.5e8 references).
  std::string transactions = "auto";
};

// SAT: the assignment satisfies every input clause (checked). UNSAT: proven (propagation on the
// input reaches a conflict). UNKNOWN: neither (SP did not converge and WalkSAT gave up, ...).
enum class Outcome { Sat, Unsat, Unknown };
const char* outcome_name(Outcome o);  // "SATISFIABLE", "UNSATISFIABLE", "UNKNOWN"
// Exit codes: 10 SAT and 20 UNSAT as SAT solvers (kissat, CaDiCaL, MiniSat) use them; 30 UNKNOWN
// (the SAT competition's 0 would read as success to scripts).
int exit_code(Outcome o);

struct RoundInfo {
  int round = 0;
  int iterations = 0;
  std::int64_t free_vars = 0, unsat_clauses = 0;
  std::int64_t fixed_sp = 0, fixed_propagation = 0;
  double mean_max_w = 0, seconds = 0;
};

class SolveObserver {
 public:
  virtual ~SolveObserver() = default;
  virtual void round(const RoundInfo&) {}
  virtual void walksat(std::int64_t /*flips*/, std::int64_t /*unsat*/, std::int64_t /*max*/) {}
};

struct SolveStats {
  std::int64_t sp_iterations = 0;
  int decimation_rounds = 0;
  int retries = 0;  // rounds retried with more damping
  double final_damping = 0;
  std::vector<int> round_iterations;  // SP sweeps of each convergence (the last may not decimate)
  std::int64_t fixed_sp = 0, fixed_unit = 0, fixed_pure = 0, fixed_walksat = 0, unconstrained = 0;
  std::int64_t sp_contradictions = 0;  // free variables warned both ways (summed over rounds)
  double calc_pi_ms = 0, update_ms = 0, bias_ms = 0, decimate_ms = 0, simplify_ms = 0;
  double graph_s = 0, sp_s = 0, walksat_s = 0, verify_s = 0, solve_s = 0;
  std::int64_t walksat_flips = 0, residual_vars = 0, residual_clauses = 0;
  bool walksat_full = false;  // WalkSAT ran on the whole formula (after a contradiction)
  double last_mean_max_w = 0;
  std::string stop;  // why decimation stopped
  // How calc_pi_values was served (remap strategy, reordering, plans, cache, compactions).
  std::string remap_strategy, reorder;
  remap::RemapReport remap;
  int plans = 0, compactions = 0;
  double compact_ms = 0, reorder_ms = 0;
  // The transaction model (seed 001 §2.1) of one calc_pi_values execution on the input graph.
  bool model_computed = false;
  double model_s = 0;  // host time of the model (not part of solve_s)
  std::string model_note;
  std::int64_t references = 0;
  remap::TransactionBreakdown model_gather, model_dup;
  remap::TransactionBreakdown model_strategy;
};

struct SolveResult {
  Outcome outcome = Outcome::Unknown;
  std::string reason;
  std::vector<std::int8_t> assignment;  // +1 / -1 per variable (SAT: checked against the input)
  SolveStats stats;
};

SolveResult solve(const Formula& f, const SolveParams& p, SolveObserver* obs = nullptr);

}  // namespace mdremap::sp

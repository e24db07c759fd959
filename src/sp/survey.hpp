#pragma once
// Survey propagation on the device (BRIEF section 7; LonestarGPU sp): the solver state on the
// factor graph and the bulk steps the decimation loop is made of. Every step is a few Kokkos
// kernels over all edges, clauses or variables; the host reads back only scalars (convergence
// counts, the decimation threshold), so a sweep costs no transfers. calc_pi_values' reference is
// served by a remap strategy chosen by name (BRIEF section 5), planned when the graph is built
// and again only when a compaction rebuilds it.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mdremap/remap/device_pattern.hpp"
#include "mdremap/remap/report.hpp"
#include "mdremap/remap/transaction_breakdown.hpp"
#include "sp/factor_graph.hpp"
#include "sp/survey_params.hpp"

namespace mdremap::remap {
template <class T>
class RemapStrategy;
}

namespace mdremap::sp {

struct IterationResult {
  std::int64_t moving = 0;  // live edges whose survey moved by more than epsilon
  double calc_pi_ms = 0, update_ms = 0;
};

struct BiasResult {
  std::int64_t free_vars = 0;
  std::int64_t contradictions = 0;  // free variables warned both ways (all pi's vanish)
  double mean_max_w = 0;  // <max(W+, W-)> over free variables: LonestarGPU's paramagnet test
  double max_bias = 0;    // max |W+ - W-|
  double ms = 0;
};

struct SimplifyResult {
  bool conflict = false;
  std::string conflict_where;  // "clause N ..." (1-based, input order) or "variable N ..."
  std::int64_t fixed_unit = 0, fixed_pure = 0, unconstrained = 0;
  std::int64_t unsat_clauses = 0;  // clauses not yet satisfied
  std::int64_t live_edges = 0;     // edges of unsatisfied clauses to free variables
  int passes = 0;
  double ms = 0;
};

// How calc_pi_values was served over the solve.
struct RemapStats {
  std::string strategy;  // what ran ("auto:dup" once auto decided)
  std::string reorder;
  remap::RemapReport report;  // the strategy's report (plans, cache hits, extra bytes, ...)
  int plans = 0;              // plans of calc_pi_values' pattern: the first + one per compaction
  int compactions = 0;
  double compact_ms = 0, reorder_ms = 0;
  std::int64_t edges = 0;  // edges of the graph now
};

// The papers' transaction model of one calc_pi_values execution on the current graph (seed 001
// §2.1; remap/transaction_breakdown.hpp): the gather through the pattern (data = the surveys,
// index = var_col, lengths = the bounds), the same with seed 000's duplicated references (the
// surveys still gathered, var_col read coalesced from its copy), and the strategy in use (its
// own model_breakdown: auto before deciding models the gather).
struct CalcPiModel {
  std::int64_t references = 0;
  remap::TransactionBreakdown gather, dup;
  remap::TransactionBreakdown strategy;  // RemapStrategy::model_breakdown of the one in use
};

class SurveyPropagation {
 public:
  SurveyPropagation(const Formula& f, const SurveyParams& p);
  ~SurveyPropagation();

  // One synchronous SP sweep: calc_pi_values over all edges (through the remap strategy), then
  // the survey update over all clauses (LonestarGPU's converge() loop body).
  IterationResult iterate();
  // calc_pi_values alone with its contradiction count (EV), then the update: for tests.
  IterationResult iterate_counting(std::int64_t& contradictions);
  // W+, W- per free variable from the current surveys (LonestarGPU update_bias) and the
  // decimation keys.
  BiasResult biases();
  // Fixes the `count` free variables of largest |W+ - W-| (ties: lower variable id first) to the
  // sign of W+ - W-. Call after biases(). Returns how many were fixed.
  std::int64_t decimate(std::int64_t count);
  // Unit propagation and pure literals to a fixed point (satisfiability-preserving), marking
  // satisfied clauses and dead edges. A conflict means no extension of the current assignment
  // satisfies the formula.
  SimplifyResult simplify();
  // Rebuilds the graph over the live edges when they are fewer than remap.compact of its edges
  // (simplify() tells how many), and re-plans the strategy. Surveys carry over exactly.
  bool compact_if_sparse(std::int64_t live_edges);

  // Damping of the following sweeps (the solver raises it when a round does not converge).
  void set_damping(double d) { p_.damping = d; }
  double damping() const { return p_.damping; }

  std::int32_t nvars() const { return g_.nvars; }
  std::vector<std::int8_t> values() const;       // per variable: +1, -1, 0 = free
  std::vector<std::uint8_t> fixed_by() const;    // FixedBy per variable
  std::vector<std::uint8_t> clause_sat() const;  // per clause of the input formula
  std::vector<Real> surveys() const;             // eta per literal of the input (0: dropped)
  RemapStats remap_stats() const;
  CalcPiModel model() const;
  std::int64_t calc_pi_references() const;

 private:
  void build(const Formula& f, std::vector<std::int32_t> lit_orig,
             std::vector<std::int32_t> clause_orig, const std::vector<Real>* sq_per_literal);
  void plan();

  SurveyParams p_;
  std::int64_t input_clauses_ = 0, input_literals_ = 0;
  Formula cur_;                            // the formula of the current graph (host)
  std::vector<std::int32_t> lit_orig_;     // its literals -> input literal index
  std::vector<std::int32_t> clause_orig_;  // its clauses -> input clause index
  FactorGraph g_;
  Kokkos::View<Real*> sq_, ratio_;
  Kokkos::View<std::uint8_t*> edge_dead_, clause_sat_;
  Kokkos::View<std::int8_t*> value_;
  Kokkos::View<std::uint8_t*> how_;
  Kokkos::View<Real*> bias_;
  Kokkos::View<std::int32_t*> forced_;
  Kokkos::View<std::uint64_t*> keys_, sorted_;
  // calc_pi_values' pattern: level 1 of seed 000's two-level reference resolved per thread.
  Kokkos::View<std::int64_t*> start_;
  Kokkos::View<std::int32_t*> len_;
  remap::PatternView pv_, clause_pv_;
  std::unique_ptr<remap::RemapStrategy<Real>> strategy_;
  RemapStats stats_;
};

}  // namespace mdremap::sp

#pragma once
// Survey propagation on the device (BRIEF section 7; LonestarGPU sp): the solver state on the
// factor graph and the bulk steps the decimation loop is made of. Every step is a few Kokkos
// kernels over all edges, clauses or variables; the host reads back only scalars (convergence
// counts, the decimation threshold), so a round costs no per-iteration transfers.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "sp/factor_graph.hpp"
#include "sp/survey_params.hpp"

namespace mdremap::sp {

struct IterationResult {
  std::int64_t moving = 0;          // live edges whose survey moved by more than epsilon
  std::int64_t contradictions = 0;  // edges whose pi's all vanished
  double calc_pi_ms = 0, update_ms = 0;
};

struct BiasResult {
  std::int64_t free_vars = 0;
  double mean_max_w = 0;  // <max(W+, W-)> over free variables: LonestarGPU's paramagnet test
  double max_bias = 0;    // max |W+ - W-|
  double ms = 0;
};

struct SimplifyResult {
  bool conflict = false;
  std::string conflict_where;  // "clause N" (1-based, input order) or "variable N"
  std::int64_t fixed_unit = 0, fixed_pure = 0, unconstrained = 0;
  std::int64_t unsat_clauses = 0;  // clauses not yet satisfied
  int passes = 0;
  double ms = 0;
};

class SurveyPropagation {
 public:
  SurveyPropagation(const FactorGraph& g, const SurveyParams& p);

  // One synchronous SP sweep: calc_pi_values over all edges, then the survey update over all
  // clauses (LonestarGPU's converge() loop body).
  IterationResult iterate();
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

  // Damping of the following sweeps (the solver raises it when a round does not converge).
  void set_damping(double d) { p_.damping = d; }
  double damping() const { return p_.damping; }

  const FactorGraph& graph() const { return g_; }
  std::vector<std::int8_t> values() const;       // per variable: +1, -1, 0 = free
  std::vector<std::uint8_t> fixed_by() const;    // FixedBy per variable
  std::vector<std::uint8_t> clause_sat() const;  // per clause
  std::vector<Real> surveys() const;             // eta per edge
  // Views for tests and the remap layer.
  Kokkos::View<const Real*> eta() const { return eta_; }
  Kokkos::View<const std::uint8_t*> edge_dead() const { return edge_dead_; }

 private:
  FactorGraph g_;
  SurveyParams p_;
  Kokkos::View<Real*> eta_, ratio_;
  Kokkos::View<std::uint8_t*> edge_dead_, clause_sat_;
  Kokkos::View<std::int8_t*> value_;
  Kokkos::View<std::uint8_t*> how_;
  Kokkos::View<Real*> bias_;
  Kokkos::View<std::int32_t*> forced_;
  Kokkos::View<std::uint64_t*> keys_, sorted_;
};

}  // namespace mdremap::sp

#include "sp/solver.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>

#include "mdremap/error.hpp"
#include "sp/survey.hpp"

namespace mdremap::sp {

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Sat:
      return "SATISFIABLE";
    case Outcome::Unsat:
      return "UNSATISFIABLE";
    case Outcome::Unknown:
      return "UNKNOWN";
  }
  return "UNKNOWN";
}

int exit_code(Outcome o) {
  switch (o) {
    case Outcome::Sat:
      return 10;
    case Outcome::Unsat:
      return 20;
    case Outcome::Unknown:
      return 30;
  }
  return 30;
}

namespace {

void add(SolveStats& s, const SimplifyResult& r) {
  s.fixed_unit += r.fixed_unit;
  s.fixed_pure += r.fixed_pure;
  s.unconstrained += r.unconstrained;
  s.simplify_ms += r.ms;
}

// The clauses not yet satisfied, restricted to their free literals (after simplification every
// such clause keeps at least two).
Formula residual(const Formula& f, const std::vector<std::int8_t>& value,
                 const std::vector<std::uint8_t>& clause_sat, std::int64_t& nvars) {
  Formula r;
  r.nvars = f.nvars;
  std::vector<char> seen(static_cast<std::size_t>(f.nvars), 0);
  nvars = 0;
  for (std::int64_t c = 0; c < f.clauses(); ++c) {
    if (clause_sat[c]) continue;
    for (std::int64_t k = f.clause_offset[c]; k < f.clause_offset[c + 1]; ++k) {
      const std::int32_t v = lit_var(f.lits[k]);
      if (value[v] != 0) continue;
      r.lits.push_back(f.lits[k]);
      if (!seen[v]) seen[v] = 1, ++nvars;
    }
    r.clause_offset.push_back(r.literals());
  }
  return r;
}

// auto's run horizon where the deck gives none, a prior: rounds until half the variables are
// fixed, ~40 sweeps each.
SurveyParams with_horizon(const SolveParams& p) {
  SurveyParams sparams = p.survey;
  if (sparams.remap.expected_sweeps <= 0) {
    const double rounds = std::ceil(std::log(0.5) / std::log1p(-std::min(p.fraction, 0.5)));
    sparams.remap.expected_sweeps = static_cast<std::int64_t>(40 * std::max(1.0, rounds));
  }
  return sparams;
}

// report.transactions: calc_pi_values' transaction model on the input graph.
void model_transactions(SurveyPropagation& sp, const SolveParams& p, SolveStats& st) {
  const std::int64_t refs = sp.calc_pi_references();
  st.references = refs;
  if (p.transactions == "on" || (p.transactions == "auto" && refs <= 250000000)) {
    Kokkos::Timer mt;
    const CalcPiModel m = sp.model();
    st.model_s = mt.seconds();
    st.model_computed = true;
    st.model_gather = m.gather;
    st.model_dup = m.dup;
    st.model_strategy = m.strategy;
  } else {
    st.model_note = p.transactions == "off"
                        ? "report.transactions is off"
                        : "skipped: more than 2.5e8 references (report.transactions=on forces it)";
  }
}

void record_remap(const SurveyPropagation& sp, SolveStats& st) {
  const RemapStats rs = sp.remap_stats();
  st.remap_strategy = rs.strategy;
  st.reorder = rs.reorder;
  st.remap = rs.report;
  st.plans = rs.plans;
  st.compactions = rs.compactions;
  st.compact_ms = rs.compact_ms;
  st.reorder_ms = rs.reorder_ms;
}

// One round's SP sweeps until the surveys stop moving; a round that does not converge is
// retried with more damping (SolveParams::retries). False, with the stop reason, when it never
// converges.
bool converge(SurveyPropagation& sp, const SolveParams& p, SolveStats& st, int& round_it) {
  int it = 0;
  round_it = 0;
  IterationResult ir;
  bool converged = false;
  for (;;) {
    while (it < p.max_iterations) {
      ir = sp.iterate();
      ++it;
      st.calc_pi_ms += ir.calc_pi_ms;
      st.update_ms += ir.update_ms;
      if (ir.moving == 0) {
        converged = true;
        break;
      }
    }
    round_it += it;
    if (converged || st.retries >= p.retries) break;
    ++st.retries;
    sp.set_damping(0.5 * (1.0 + sp.damping()));
    it = 0;
  }
  st.sp_iterations += round_it;
  st.round_iterations.push_back(round_it);
  if (!converged)
    st.stop = fmt::format(
        "SP did not converge in round {}: {} surveys still moved by more than {} after {} "
        "sweeps (damping {:.3g})",
        st.decimation_rounds + 1, ir.moving, p.survey.epsilon, it, sp.damping());
  return converged;
}

// SP-guided decimation from `unsat` unsatisfied clauses: rounds of sweeps, then the most biased
// share of the free variables fixed and the formula simplified, until every clause is
// satisfied, the surveys turn paramagnetic, a round does not converge, or a contradiction.
// Returns the clauses left unsatisfied; `contradiction` when decimation reached one.
std::int64_t decimate(SurveyPropagation& sp, const SolveParams& p, std::int64_t unsat,
                      SolveStats& st, SolveObserver* obs, bool& contradiction) {
  contradiction = false;
  for (;;) {
    if (unsat == 0) {
      st.stop = "all clauses satisfied";
      return unsat;
    }
    if (p.max_rounds > 0 && st.decimation_rounds >= p.max_rounds) {
      st.stop = fmt::format("max_rounds ({}) reached", p.max_rounds);
      return unsat;
    }
    Kokkos::Timer round_timer;
    int round_it = 0;
    if (!converge(sp, p, st, round_it)) return unsat;
    const BiasResult b = sp.biases();
    st.bias_ms += b.ms;
    st.sp_contradictions += b.contradictions;
    st.last_mean_max_w = b.mean_max_w;
    if (b.mean_max_w < p.paramagnet) {
      st.stop = fmt::format("paramagnetic state (<max(W+,W-)> = {:.3g} < {})", b.mean_max_w,
                            p.paramagnet);
      return unsat;
    }
    Kokkos::Timer dt;
    const std::int64_t want =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(p.fraction * b.free_vars));
    const std::int64_t fixed = sp.decimate(want);
    st.decimate_ms += 1e3 * dt.seconds();
    st.fixed_sp += fixed;
    const SimplifyResult s = sp.simplify();
    add(st, s);
    ++st.decimation_rounds;
    if (obs) {
      RoundInfo ri;
      ri.round = st.decimation_rounds;
      ri.iterations = round_it;
      ri.free_vars = b.free_vars - fixed - s.fixed_unit - s.fixed_pure - s.unconstrained;
      ri.unsat_clauses = s.unsat_clauses;
      ri.fixed_sp = fixed;
      ri.fixed_propagation = s.fixed_unit + s.fixed_pure;
      ri.mean_max_w = b.mean_max_w;
      ri.seconds = round_timer.seconds();
      obs->round(ri);
    }
    if (s.conflict) {
      contradiction = true;
      st.stop = fmt::format("contradiction after decimation round {}: {}", st.decimation_rounds,
                            s.conflict_where);
      return unsat;
    }
    unsat = s.unsat_clauses;
    sp.compact_if_sparse(s.live_edges);
  }
}

// WalkSAT on what is left: the unsatisfied clauses over the free variables; after a
// contradiction the decimated values cannot all stand, so on the whole input from them.
WalksatResult finish_with_walksat(const Formula& f, const SurveyPropagation& sp,
                                  const SolveParams& p, bool contradiction, std::int64_t unsat,
                                  std::vector<std::int8_t>& value, SolveStats& st,
                                  SolveObserver* obs) {
  WalksatResult wr;
  wr.solved = true;
  auto progress = [&](std::int64_t flips, std::int64_t left) {
    if (obs) obs->walksat(flips, left, p.walksat.max_flips);
  };
  if (contradiction) {
    st.walksat_full = true;
    st.residual_clauses = f.clauses();
    st.residual_vars = f.nvars;
    const auto before = value;
    wr = walksat(f, value, p.walksat, progress);
    for (std::int32_t v = 0; v < f.nvars; ++v)
      if (before[v] == 0) ++st.fixed_walksat;
  } else if (unsat > 0) {
    const Formula r = residual(f, value, sp.clause_sat(), st.residual_vars);
    st.residual_clauses = r.clauses();
    std::vector<std::int8_t> rv = value;
    wr = walksat(r, rv, p.walksat, progress);
    for (std::int32_t v = 0; v < f.nvars; ++v)
      if (value[v] == 0) value[v] = rv[v];
    st.fixed_walksat = st.residual_vars;
  }
  st.walksat_flips = wr.flips;
  st.walksat_s = wr.seconds;
  for (auto& x : value)
    if (x == 0) {
      x = -1;
      ++st.unconstrained;
    }
  return wr;
}

// The assignment checked against every input clause: SAT only if it satisfies them all.
void verdict(const Formula& f, const WalksatResult& wr, SolveResult& res) {
  SolveStats& st = res.stats;
  Kokkos::Timer t;
  std::int64_t first = -1;
  const std::int64_t bad = count_unsatisfied(f, res.assignment, &first);
  st.verify_s = t.seconds();
  if (wr.solved && bad > 0)
    throw Error(fmt::format(
        "internal error: the final assignment leaves {} input clauses unsatisfied (first: clause "
        "{}); SAT is not claimed",
        bad, first + 1));
  if (bad == 0) {
    res.outcome = Outcome::Sat;
    res.reason = "assignment satisfies every input clause (checked)";
  } else {
    res.outcome = Outcome::Unknown;
    res.reason = fmt::format("{}; WalkSAT left {} of {} clauses unsatisfied after {} flips",
                             st.stop, wr.unsat, st.residual_clauses, wr.flips);
  }
}

}  // namespace

SolveResult solve(const Formula& f, const SolveParams& p, SolveObserver* obs) {
  Kokkos::Timer total;
  SolveResult res;
  SolveStats& st = res.stats;

  Kokkos::Timer t;
  SurveyPropagation sp(f, with_horizon(p));
  st.graph_s = t.seconds();
  model_transactions(sp, p, st);

  t.reset();
  const SimplifyResult s0 = sp.simplify();
  add(st, s0);
  if (s0.conflict) {
    record_remap(sp, st);
    res.outcome = Outcome::Unsat;
    res.reason =
        "unit propagation on the input formula reaches a conflict (" + s0.conflict_where + ")";
    st.stop = "conflict on the input";
    st.sp_s = t.seconds();
    st.solve_s = total.seconds() - st.model_s;
    return res;
  }
  sp.compact_if_sparse(s0.live_edges);
  bool contradiction = false;
  const std::int64_t unsat = decimate(sp, p, s0.unsat_clauses, st, obs, contradiction);
  st.sp_s = t.seconds();
  record_remap(sp, st);
  st.final_damping = sp.damping();

  res.assignment = sp.values();
  const WalksatResult wr =
      finish_with_walksat(f, sp, p, contradiction, unsat, res.assignment, st, obs);
  verdict(f, wr, res);
  st.solve_s = total.seconds() - st.model_s;
  return res;
}

}  // namespace mdremap::sp

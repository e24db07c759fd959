// The random k-SAT generator; survey propagation on the device against a serial double-precision
// reference of the same equations, decimation, simplification, WalkSAT, whole solves (tiny
// hand-made formulas and a 10,000-variable random 3-SAT instance) and the transaction model.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <set>
#include <sstream>

#include "mdremap/error.hpp"
#include "mdremap/remap/transactions.hpp"
#include "mdremap/remap/two_level.hpp"
#include "sp/cnf.hpp"
#include "sp/factor_graph.hpp"
#include "sp/generator.hpp"
#include "sp/solver.hpp"
#include "sp/survey.hpp"
#include "sp/walksat.hpp"

namespace sp = mdremap::sp;

namespace {

sp::Formula parse(const std::string& text) {
  std::istringstream in(text);
  return sp::read_cnf(in, "test.cnf");
}

sp::Formula random_formula(const std::string& name, std::uint64_t seed) {
  return sp::generate_random_ksat(*sp::parse_random_spec(name), seed);
}

// One synchronous SP sweep in double precision, straight from the equations (Braunstein,
// Mezard, Zecchina 2005, eqs. 26-27), over the edges whose clause is unsatisfied and whose
// variable is free; edges of satisfied clauses count as eta = 0. Edge e is literal e of f.
struct Reference {
  const sp::Formula& f;
  std::vector<std::int32_t> edge_clause;
  std::vector<std::vector<std::int64_t>> var_edges;
  std::vector<std::uint8_t> sat;
  std::vector<std::int8_t> value;

  Reference(const sp::Formula& formula, std::vector<std::uint8_t> clause_sat,
            std::vector<std::int8_t> values)
      : f(formula), sat(std::move(clause_sat)), value(std::move(values)) {
    edge_clause.resize(f.literals());
    var_edges.resize(f.nvars);
    for (std::int64_t c = 0; c < f.clauses(); ++c)
      for (std::int64_t e = f.clause_offset[c]; e < f.clause_offset[c + 1]; ++e) {
        edge_clause[e] = static_cast<std::int32_t>(c);
        var_edges[sp::lit_var(f.lits[e])].push_back(e);
      }
  }
  bool live(std::int64_t e) const {
    return !sat[edge_clause[e]] && value[sp::lit_var(f.lits[e])] == 0;
  }
  void sweep(std::vector<double>& eta) const {
    const std::int64_t E = f.literals();
    std::vector<double> ratio(E, 1.0);
    for (std::int64_t t = 0; t < E; ++t) {
      if (!live(t)) continue;
      double ps = 1, pu = 1;
      for (std::int64_t b : var_edges[sp::lit_var(f.lits[t])]) {
        if (b == t || sat[edge_clause[b]]) continue;
        (sp::lit_neg(f.lits[b]) == sp::lit_neg(f.lits[t]) ? ps : pu) *= 1.0 - eta[b];
      }
      const double pi_u = (1 - pu) * ps, pi_s = (1 - ps) * pu, pi_0 = ps * pu;
      ratio[t] = pi_u + pi_s + pi_0 > 0 ? pi_u / (pi_u + pi_s + pi_0) : 0.0;
    }
    for (std::int64_t c = 0; c < f.clauses(); ++c) {
      if (sat[c]) continue;
      for (std::int64_t i = f.clause_offset[c]; i < f.clause_offset[c + 1]; ++i) {
        if (!live(i)) continue;
        double p = 1;
        for (std::int64_t j = f.clause_offset[c]; j < f.clause_offset[c + 1]; ++j)
          if (j != i && live(j)) p *= ratio[j];
        eta[i] = p;
      }
    }
  }
  // W+ - W- of a free variable.
  double bias(std::int32_t v, const std::vector<double>& eta) const {
    double pp = 1, pm = 1;
    for (std::int64_t e : var_edges[v]) {
      if (sat[edge_clause[e]]) continue;
      (sp::lit_neg(f.lits[e]) ? pm : pp) *= 1.0 - eta[e];
    }
    const double wp = (1 - pp) * pm, wm = (1 - pm) * pp, s = wp + wm + pp * pm;
    return s > 0 ? (wp - wm) / s : 0.0;
  }
};

double max_live_diff(const Reference& ref, const std::vector<sp::Real>& got,
                     const std::vector<double>& want) {
  double d = 0;
  for (std::size_t e = 0; e < got.size(); ++e)
    if (ref.live(static_cast<std::int64_t>(e)))
      d = std::max(d, std::abs(static_cast<double>(got[e]) - want[e]));
  return d;
}

}  // namespace

TEST(Generator, ParsesLonestarNames) {
  const auto s = sp::parse_random_spec("random-42000-10000-3");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->clauses, 42000);
  EXPECT_EQ(s->vars, 10000);
  EXPECT_EQ(s->k, 3);
  EXPECT_EQ(s->name(), "random-42000-10000-3");
  for (const char* other : {"random-1-2", "random-1-2-3-4", "random-a-2-3", "inputs/x.cnf",
                            "random-1-2-3.cnf", "random--1-2-3"})
    EXPECT_FALSE(sp::parse_random_spec(other).has_value()) << other;
  for (const char* bad : {"random-10-0-3", "random-10-2-3", "random-10-5-0", "random-10-5000-1001",
                          "random-2000000000-100-3"})
    EXPECT_THROW(sp::parse_random_spec(bad), mdremap::Error) << bad;
}

TEST(Generator, ClausesHoldKDistinctVariablesWithBothSigns) {
  const auto f = sp::generate_random_ksat(*sp::parse_random_spec("random-4200-1000-3"), 7);
  EXPECT_EQ(f.nvars, 1000);
  ASSERT_EQ(f.clauses(), 4200);
  EXPECT_EQ(f.literals(), 3 * 4200);
  std::int64_t neg = 0;
  std::vector<int> deg(1000, 0);
  for (std::int64_t c = 0; c < f.clauses(); ++c) {
    ASSERT_EQ(f.clause_size(c), 3);
    std::set<std::int32_t> vars;
    for (std::int32_t l : std::vector<std::int32_t>(f.lits.begin() + f.clause_offset[c],
                                                    f.lits.begin() + f.clause_offset[c + 1])) {
      ASSERT_NE(l, 0);
      ASSERT_LE(std::abs(l), 1000);
      vars.insert(sp::lit_var(l));
      neg += l < 0;
      ++deg[sp::lit_var(l)];
    }
    EXPECT_EQ(vars.size(), 3u);
  }
  // Signs fair and variables spread (binomial: 6300 +- 55 negatives, mean degree 12.6).
  EXPECT_NEAR(static_cast<double>(neg), 6300.0, 300.0);
  int unused = 0;
  for (int d : deg) unused += d == 0;
  EXPECT_LT(unused, 20);  // expected e^-12.6 * 1000 ~ 0
}

TEST(Generator, DeterministicPerSeed) {
  const auto spec = *sp::parse_random_spec("random-500-100-3");
  const auto a = sp::generate_random_ksat(spec, 11), b = sp::generate_random_ksat(spec, 11);
  const auto c = sp::generate_random_ksat(spec, 12);
  EXPECT_EQ(a.lits, b.lits);
  EXPECT_NE(a.lits, c.lits);
}

TEST(Generator, WrittenAndReadBackUnchanged) {
  const auto f = sp::generate_random_ksat(*sp::parse_random_spec("random-300-80-4"), 3);
  std::ostringstream out;
  sp::write_cnf(out, f, {"round trip"});
  sp::CnfNotes notes;
  const auto g = [&] {
    std::istringstream in(out.str());
    return sp::read_cnf(in, "rt.cnf", &notes);
  }();
  EXPECT_TRUE(notes.warnings.empty());
  EXPECT_EQ(g.nvars, f.nvars);
  EXPECT_EQ(g.clause_offset, f.clause_offset);
  EXPECT_EQ(g.lits, f.lits);
}

// Each sweep maps the device's surveys to what the serial double-precision reference computes
// from the same surveys, to single precision (tolerance 1e-5 absolute on eta in [0, 1]). Sweeps
// are compared one at a time: near the threshold the synchronous SP map amplifies differences,
// so float and double trajectories drift apart over many sweeps.
TEST(SurveyPropagation, SweepsMatchTheSerialReference) {
  const auto f = random_formula("random-1680-400-3", 5);
  sp::SurveyPropagation prop(f, sp::SurveyParams{});
  Reference ref(f, std::vector<std::uint8_t>(f.clauses(), 0), std::vector<std::int8_t>(f.nvars, 0));
  for (int s = 0; s < 5; ++s) {
    const auto start = prop.surveys();
    std::vector<double> eta(start.begin(), start.end());
    const auto r = prop.iterate();
    ref.sweep(eta);
    EXPECT_GT(r.moving, 0);
    EXPECT_LT(max_live_diff(ref, prop.surveys(), eta), 1e-5) << "sweep " << s;
  }
}

// The same after simplification and a decimation round, where satisfied clauses and fixed
// variables drop out of the products.
TEST(SurveyPropagation, SweepsMatchTheReferenceAfterDecimation) {
  const auto f = random_formula("random-1600-400-3", 6);
  sp::SurveyParams params;
  params.damping = 0.2;
  sp::SurveyPropagation prop(f, params);
  ASSERT_FALSE(prop.simplify().conflict);
  for (int s = 0; s < 30; ++s) prop.iterate();
  const auto b = prop.biases();
  ASSERT_GT(b.free_vars, 0);
  const std::int64_t want = b.free_vars / 10;
  EXPECT_EQ(prop.decimate(want), want);
  ASSERT_FALSE(prop.simplify().conflict);
  Reference ref(f, prop.clause_sat(), prop.values());
  const auto start = prop.surveys();
  std::vector<double> eta(start.begin(), start.end());
  prop.iterate();
  ref.sweep(eta);
  // damping 0.2: eta = 0.2 old + 0.8 new
  for (std::size_t e = 0; e < eta.size(); ++e) eta[e] = 0.2 * start[e] + 0.8 * eta[e];
  EXPECT_LT(max_live_diff(ref, prop.surveys(), eta), 1e-5);
  // Dead edges hold eta = 0.
  const auto now = prop.surveys();
  for (std::size_t e = 0; e < now.size(); ++e)
    if (!ref.live(static_cast<std::int64_t>(e))) ASSERT_EQ(now[e], 0.0f) << e;
}

// Decimation fixes the most biased free variables (by the reference biases) to their sign.
TEST(SurveyPropagation, DecimationFixesTheMostBiasedVariables) {
  const auto f = random_formula("random-1600-400-3", 8);
  sp::SurveyParams params;
  params.damping = 0.2;
  sp::SurveyPropagation prop(f, params);
  for (int s = 0; s < 40; ++s) prop.iterate();
  const auto surveys = prop.surveys();
  std::vector<double> eta(surveys.begin(), surveys.end());
  Reference ref(f, prop.clause_sat(), prop.values());
  const auto b = prop.biases();
  EXPECT_EQ(b.free_vars, 400);
  EXPECT_EQ(prop.decimate(40), 40);
  const auto values = prop.values();
  const auto how = prop.fixed_by();
  double min_fixed = 1e9, max_free = -1;
  for (std::int32_t v = 0; v < f.nvars; ++v) {
    const double w = ref.bias(v, eta);
    if (values[v] != 0) {
      EXPECT_EQ(how[v], static_cast<std::uint8_t>(sp::FixedBy::Sp));
      if (std::abs(w) > 1e-6) EXPECT_EQ(values[v], w > 0 ? 1 : -1) << v;
      min_fixed = std::min(min_fixed, std::abs(w));
    } else {
      max_free = std::max(max_free, std::abs(w));
    }
  }
  EXPECT_GE(min_fixed, max_free - 1e-5);
  EXPECT_GT(min_fixed, 0.0);
}

TEST(Solve, SatisfiableHandMadeFormula) {
  const auto f =
      parse("p cnf 5 6\n1 2 -3 0\n-1 3 4 0\n2 -4 5 0\n-2 -5 3 0\n1 -3 -5 0\n-1 4 -2 0\n");
  const auto r = sp::solve(f, sp::SolveParams{});
  EXPECT_EQ(r.outcome, sp::Outcome::Sat) << r.reason;
  ASSERT_EQ(r.assignment.size(), 5u);
  EXPECT_EQ(sp::count_unsatisfied(f, r.assignment), 0);
  EXPECT_EQ(sp::exit_code(r.outcome), 10);
}

TEST(Solve, UnsatisfiableByUnitPropagation) {
  const auto f = parse("p cnf 3 4\n1 0\n-1 2 0\n-2 3 0\n-3 -1 0\n");
  const auto r = sp::solve(f, sp::SolveParams{});
  EXPECT_EQ(r.outcome, sp::Outcome::Unsat);
  EXPECT_EQ(sp::exit_code(r.outcome), 20);
  EXPECT_NE(r.reason.find("unit propagation on the input formula reaches a conflict"),
            std::string::npos)
      << r.reason;
  EXPECT_EQ(r.stats.sp_iterations, 0);
}

TEST(Solve, UnsatisfiableByOpposingUnits) {
  const auto r = sp::solve(parse("p cnf 2 3\n1 2 0\n2 0\n-2 0\n"), sp::SolveParams{});
  EXPECT_EQ(r.outcome, sp::Outcome::Unsat);
  EXPECT_NE(r.reason.find("variable 2 is forced true and false"), std::string::npos) << r.reason;
}

TEST(Solve, EmptyClauseIsUnsatisfiable) {
  const auto r = sp::solve(parse("p cnf 2 2\n1 2 0\n0\n"), sp::SolveParams{});
  EXPECT_EQ(r.outcome, sp::Outcome::Unsat);
  EXPECT_NE(r.reason.find("clause 2 has no true or free literal"), std::string::npos) << r.reason;
}

// x1 occurs only positively and x3 only negatively: both pure; then x2 is in no open clause.
TEST(Solve, PureLiterals) {
  const auto f = parse("p cnf 3 3\n1 2 0\n1 -2 0\n-3 2 0\n");
  const auto r = sp::solve(f, sp::SolveParams{});
  ASSERT_EQ(r.outcome, sp::Outcome::Sat) << r.reason;
  EXPECT_EQ(r.stats.fixed_pure, 2);
  EXPECT_EQ(r.stats.unconstrained, 1);
  EXPECT_EQ(r.assignment[0], 1);
  EXPECT_EQ(r.assignment[2], -1);
  EXPECT_EQ(r.stats.sp_iterations, 0);
  // Without the pure-literal rule the same formula goes through SP and WalkSAT.
  sp::SolveParams p;
  p.survey.pure_literals = false;
  const auto q = sp::solve(f, p);
  ASSERT_EQ(q.outcome, sp::Outcome::Sat) << q.reason;
  EXPECT_EQ(q.stats.fixed_pure, 0);
  EXPECT_GT(q.stats.sp_iterations, 0);
  EXPECT_EQ(sp::count_unsatisfied(f, q.assignment), 0);
}

TEST(Solve, NoClausesIsSatisfiable) {
  const auto r = sp::solve(parse("p cnf 4 0\n"), sp::SolveParams{});
  EXPECT_EQ(r.outcome, sp::Outcome::Sat);
  EXPECT_EQ(r.stats.unconstrained, 4);
}

// A formula no assignment satisfies but that propagation cannot refute: SP/WalkSAT cannot
// prove it, so the answer is UNKNOWN, never SAT.
TEST(Solve, UnprovableUnsatisfiableFormulaIsUnknown) {
  std::string text = "p cnf 3 8\n";
  for (int m = 0; m < 8; ++m)
    text += std::to_string(m & 1 ? -1 : 1) + " " + std::to_string(m & 2 ? -2 : 2) + " " +
            std::to_string(m & 4 ? -3 : 3) + " 0\n";
  sp::SolveParams p;
  p.walksat.max_flips = 10000;
  const auto r = sp::solve(parse(text), p);
  EXPECT_EQ(r.outcome, sp::Outcome::Unknown) << r.reason;
  EXPECT_EQ(sp::exit_code(r.outcome), 30);
  EXPECT_EQ(r.stats.walksat_flips, 10000);
}

// The acceptance case: random 3-SAT at clause ratio 4.0 with 10,000 variables, solved by SP
// decimation + WalkSAT with an assignment checked against every clause.
TEST(Solve, Random3SatRatio4With10000Variables) {
  const auto f = random_formula("random-40000-10000-3", 1);
  sp::SolveParams p;
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = sp::solve(f, p);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "random-40000-10000-3: %s in %.1f s: %lld SP sweeps, %d rounds, fixed %lld by SP, "
      "%lld by propagation, %lld by WalkSAT (%lld flips)\n",
      sp::outcome_name(r.outcome), s, static_cast<long long>(r.stats.sp_iterations),
      r.stats.decimation_rounds, static_cast<long long>(r.stats.fixed_sp),
      static_cast<long long>(r.stats.fixed_unit + r.stats.fixed_pure),
      static_cast<long long>(r.stats.fixed_walksat), static_cast<long long>(r.stats.walksat_flips));
  ASSERT_EQ(r.outcome, sp::Outcome::Sat) << r.reason;
  EXPECT_EQ(sp::count_unsatisfied(f, r.assignment), 0);
  EXPECT_GT(r.stats.fixed_sp, 0);  // SP did decimate (the instance was not left to WalkSAT)
  EXPECT_GT(r.stats.decimation_rounds, 1);
}

TEST(Walksat, SolvesAnEasyFormulaAndIsDeterministic) {
  const auto f = random_formula("random-600-200-3", 4);
  sp::WalksatParams p;
  p.seed = 9;
  std::vector<std::int8_t> a, b;
  const auto ra = sp::walksat(f, a, p), rb = sp::walksat(f, b, p);
  ASSERT_TRUE(ra.solved);
  EXPECT_EQ(sp::count_unsatisfied(f, a), 0);
  EXPECT_EQ(a, b);
  EXPECT_EQ(ra.flips, rb.flips);
}

// The packed clause layout (3 literals in one 16-byte entry) is a layout only: the same walk as
// the flat one, flip for flip, on a formula with unit, 2- and 3-literal clauses and variables
// that do not occur (the dense renumbering), from a partial starting assignment.
TEST(Walksat, PackedAndFlatLayoutsWalkAlike) {
  auto f = random_formula("random-4100-1000-3", 11);
  sp::Formula g;
  g.nvars = f.nvars + 50;  // 50 variables in no clause keep their starting values
  for (std::int64_t c = 0; c < f.clauses(); ++c) {
    const int keep = c % 7 == 0 ? 2 : c % 101 == 0 ? 1 : 3;
    for (int k = 0; k < keep; ++k) g.lits.push_back(f.lits[f.clause_offset[c] + k]);
    g.clause_offset.push_back(g.literals());
  }
  std::vector<std::int8_t> start(static_cast<std::size_t>(g.nvars), 0);
  for (std::size_t v = 0; v < start.size(); v += 3) start[v] = v % 2 ? 1 : -1;
  sp::WalksatParams p;
  p.seed = 5;
  p.max_flips = 200000;
  auto a = start, b = start;
  const auto ra = sp::walksat(g, a, p);
  p.packed = false;
  const auto rb = sp::walksat(g, b, p);
  EXPECT_GT(ra.flips, 1000);  // a walk long enough to mean something
  EXPECT_EQ(ra.flips, rb.flips);
  EXPECT_EQ(ra.unsat, rb.unsat);
  EXPECT_EQ(ra.best_unsat, rb.best_unsat);
  EXPECT_EQ(a, b);
  for (std::int32_t v = f.nvars; v < g.nvars; ++v)
    if (start[v] != 0) EXPECT_EQ(a[v], start[v]);
}

TEST(Walksat, GivesUpOnAnUnsatisfiableFormula) {
  std::string text = "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n";
  sp::WalksatParams p;
  p.max_flips = 5000;
  std::vector<std::int8_t> v;
  const auto r = sp::walksat(parse(text), v, p);
  EXPECT_FALSE(r.solved);
  EXPECT_EQ(r.flips, 5000);
  EXPECT_EQ(r.best_unsat, 1);
}

// calc_pi_values' pattern (level 1 resolved on the device, index = var_col) is remap::flatten of
// the two-level pattern {outer = ed_dst, row_offset = var_rowOff, inner = var_col} over the
// surveys: its modelled transactions are count_transactions of the flattened pattern.
TEST(Model, CalcPiPatternIsTheFlattenedTwoLevelReference) {
  const auto f = random_formula("random-2100-500-3", 2);
  const std::int64_t E = f.literals();
  mdremap::remap::TwoLevelPattern p;
  p.threads = E;
  p.data_count = E;
  p.elem_bytes = 4;
  p.row_offset.assign(f.nvars + 1, 0);
  for (std::int32_t l : f.lits) ++p.row_offset[sp::lit_var(l) + 1];
  for (std::int32_t v = 0; v < f.nvars; ++v) p.row_offset[v + 1] += p.row_offset[v];
  for (std::int64_t k : sp::variable_major_order(f))
    p.inner.push_back(static_cast<std::int32_t>(k));
  for (std::int32_t l : f.lits) p.outer.push_back(sp::lit_var(l));
  const auto flat = mdremap::remap::flatten(p);
  const auto want = mdremap::remap::count_transactions(flat);
  const auto dup = mdremap::remap::count_transactions_duplicated(flat);
  sp::SurveyPropagation prop(f, sp::SurveyParams{});
  const auto m = prop.model();
  EXPECT_EQ(m.references, flat.references());
  EXPECT_EQ(prop.calc_pi_references(), flat.references());
  EXPECT_EQ(m.gather.data.loads, want.loads);
  EXPECT_EQ(m.gather.data.seg32, want.seg32);
  EXPECT_EQ(m.gather.data.seg128, want.seg128);
  EXPECT_EQ(m.dup.data.seg32, want.seg32);  // the surveys are gathered either way
  EXPECT_EQ(m.dup.index.seg32, dup.seg32);  // var_col read from its coalesced copy
  EXPECT_EQ(m.dup.index.seg128, dup.seg128);
  // The strategy in use (gather) models itself the same way.
  EXPECT_EQ(m.strategy.total().seg32, m.gather.total().seg32);
  EXPECT_GT(m.gather.index.seg32, 0);
  EXPECT_GT(m.gather.total().seg32, m.gather.data.seg32);
  // Duplicated references make the var_col loads coalesced: fewer transactions in all.
  EXPECT_LT(m.dup.index.seg32, m.gather.index.seg32);
  EXPECT_LT(m.dup.total().seg32, m.gather.total().seg32);
  // The dup strategy's own model of its duplicated references agrees.
  sp::SurveyParams dp;
  dp.remap.mode = "dup";
  const auto md = sp::SurveyPropagation(f, dp).model();
  EXPECT_EQ(md.strategy.data.seg32, m.dup.data.seg32);
  EXPECT_EQ(md.strategy.index.seg32, m.dup.index.seg32);
  EXPECT_EQ(md.strategy.lengths.seg32, m.dup.lengths.seg32);
}

namespace {

// A scripted run through every step that touches the graph: simplify, sweeps, a decimation,
// simplify, a forced compaction (re-plan), sweeps; the surveys after it per input literal.
std::vector<sp::Real> scripted_surveys(const sp::Formula& f, const std::string& mode,
                                       const std::string& reorder, sp::RemapStats* stats) {
  sp::SurveyParams params;
  params.damping = 0.2;
  params.remap.mode = mode;
  params.remap.reorder = mdremap::remap::parse_reorder(reorder);
  params.remap.compact = 0.99;
  params.remap.options.block_threads = 64;
  params.remap.expected_sweeps = 30;
  sp::SurveyPropagation prop(f, params);
  const auto s0 = prop.simplify();
  EXPECT_FALSE(s0.conflict);
  for (int s = 0; s < 12; ++s) prop.iterate();
  const auto b = prop.biases();
  EXPECT_EQ(prop.decimate(b.free_vars / 10), b.free_vars / 10);
  const auto s1 = prop.simplify();
  EXPECT_FALSE(s1.conflict);
  EXPECT_TRUE(prop.compact_if_sparse(s1.live_edges));
  for (int s = 0; s < 6; ++s) prop.iterate();
  if (stats) *stats = prop.remap_stats();
  return prop.surveys();
}

double max_diff(const std::vector<sp::Real>& a, const std::vector<sp::Real>& b) {
  double d = 0;
  for (std::size_t k = 0; k < a.size(); ++k)
    d = std::max(d, std::abs(static_cast<double>(a[k]) - b[k]));
  return d;
}

}  // namespace

// Every remap mode computes the same surveys: the same products in the same order, read through
// another accessor (expected bit-identical; tolerance 1e-6 on eta stated for compilers that
// contract differently per instantiation). dup copies the references once per plan and serves
// the sweeps from its remap cache; the compaction re-plans every mode.
TEST(RemapModes, SameSurveysAfterAFixedNumberOfSweeps) {
  const auto f = random_formula("random-2000-480-3", 3);
  sp::RemapStats ref_stats;
  const auto ref = scripted_surveys(f, "gather", "none", &ref_stats);
  EXPECT_EQ(ref_stats.plans, 2);
  EXPECT_EQ(ref_stats.compactions, 1);
  for (const std::string mode : {"dup", "sharing", "auto"}) {
    sp::RemapStats st;
    const auto got = scripted_surveys(f, mode, "none", &st);
    EXPECT_LE(max_diff(ref, got), 1e-6) << mode;
    EXPECT_EQ(st.plans, 2) << mode;
    if (mode == "dup") {
      EXPECT_EQ(st.report.dup_target, "references");
      EXPECT_EQ(st.report.plans, 2);
      EXPECT_GT(st.report.cache_hits, 10);  // 18 sweeps, one remap per plan
      EXPECT_EQ(st.report.cache_misses, 2);
    }
    if (mode == "auto") EXPECT_FALSE(st.report.decision.empty());
  }
}

// A reordering renumbers edges (threads and surveys alike): the same equations, the products of
// a variable's factors in another order, so single-precision rounding differs.
TEST(RemapModes, ReorderingsGiveTheSameSurveysToRounding) {
  const auto f = random_formula("random-2000-480-3", 3);
  const auto ref = scripted_surveys(f, "gather", "none", nullptr);
  for (const std::string reorder : {"variable", "labelprop", "partition"}) {
    sp::RemapStats st;
    const auto got = scripted_surveys(f, "dup", reorder, &st);
    EXPECT_LE(max_diff(ref, got), 1e-3) << reorder;
    EXPECT_EQ(st.reorder, reorder);
  }
}

// A compaction drops only factors that are exactly 1: the whole solve is unchanged by it.
TEST(Solve, CompactionDoesNotChangeTheSolve) {
  const auto f = random_formula("random-2000-500-3", 4);
  sp::SolveParams a, b;
  a.walksat.max_flips = b.walksat.max_flips = 1000000;
  a.survey.remap.compact = 0;
  b.survey.remap.compact = 0.9;
  const auto ra = sp::solve(f, a), rb = sp::solve(f, b);
  EXPECT_EQ(ra.stats.compactions, 0);
  EXPECT_GT(rb.stats.compactions, 0);
  EXPECT_EQ(rb.stats.plans, rb.stats.compactions + 1);
  EXPECT_EQ(ra.outcome, rb.outcome);
  EXPECT_EQ(ra.stats.sp_iterations, rb.stats.sp_iterations);
  EXPECT_EQ(ra.stats.fixed_sp, rb.stats.fixed_sp);
  EXPECT_EQ(ra.assignment, rb.assignment);
}

#include "sp/survey.hpp"

#include <Kokkos_BitManipulation.hpp>
#include <Kokkos_Sort.hpp>
#include <limits>

#include "mdremap/rng.hpp"
#include "mdremap/remap/strategy.hpp"
#include "sp/kernels.hpp"

namespace mdremap::sp {

namespace {

using Policy = Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>;

// Decimation key of a free variable: |bias| first (a non-negative float orders like its bits),
// then the lower variable id. Fixed variables get 0, below every free one.
KOKKOS_INLINE_FUNCTION std::uint64_t decimation_key(const Real bias, const std::int32_t v) {
  const float mag = static_cast<float>(bias < 0 ? -bias : bias);
  return (static_cast<std::uint64_t>(Kokkos::bit_cast<std::uint32_t>(mag)) << 32) |
         (0xffffffffULL - static_cast<std::uint64_t>(v));
}

// LonestarGPU update_bias: W+ and W- of a free variable from its clauses' surveys.
struct BiasKernel {
  Kokkos::View<const std::int64_t*> var_off;
  Kokkos::View<const std::int32_t*> var_edges;
  Kokkos::View<const Real*, Kokkos::MemoryTraits<Kokkos::RandomAccess>> eta;
  Kokkos::View<const std::int8_t*> value;
  Kokkos::View<Real*> bias;
  Kokkos::View<std::uint64_t*> keys;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t v, std::int64_t& nfree,
                                         double& sum_max_w, double& max_bias) const {
    if (value(v) != 0) {
      keys(v) = 0;
      return;
    }
    Real p_plus = 1, p_minus = 1;  // no warning from the clauses where v appears +, -
    for (std::int64_t k = var_off(v); k < var_off(v + 1); ++k) {
      const std::int32_t tag = var_edges(k);
      const Real q = Real(1) - eta(tag_edge(tag));
      if (tag_neg(tag))
        p_minus *= q;
      else
        p_plus *= q;
    }
    const Real pi_plus = (Real(1) - p_plus) * p_minus;
    const Real pi_minus = (Real(1) - p_minus) * p_plus;
    const Real sum = pi_plus + pi_minus + p_plus * p_minus;
    const Real w_plus = sum > Real(0) ? pi_plus / sum : Real(0);
    const Real w_minus = sum > Real(0) ? pi_minus / sum : Real(0);
    const Real b = w_plus - w_minus;
    bias(v) = b;
    keys(v) = decimation_key(b, static_cast<std::int32_t>(v));
    ++nfree;
    sum_max_w += w_plus > w_minus ? w_plus : w_minus;
    const double mag = b < 0 ? -b : b;
    if (mag > max_bias) max_bias = mag;
  }
};

// Satisfied clauses are marked, edges of satisfied clauses or fixed variables die (eta 0,
// ratio 1), unsatisfied clauses with one free literal propose it (forced: bit 0 true, bit 1
// false), those with none are conflicts.
struct ClausePass {
  Kokkos::View<const std::int64_t*> clause_off;
  Kokkos::View<const std::int32_t*> edge_var;
  Kokkos::View<const std::uint8_t*> edge_neg;
  Kokkos::View<const std::int8_t*> value;
  Kokkos::View<std::uint8_t*> clause_sat, edge_dead;
  Kokkos::View<Real*> eta, ratio;
  Kokkos::View<std::int32_t*> forced;
  KOKKOS_INLINE_FUNCTION void kill(const std::int64_t k) const {
    edge_dead(k) = 1;
    eta(k) = Real(0);
    ratio(k) = Real(1);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t c, std::int64_t& unsat,
                                         std::int64_t& conflicts, std::int64_t& first) const {
    if (clause_sat(c)) return;
    const std::int64_t b = clause_off(c), e = clause_off(c + 1);
    int nfree = 0;
    std::int64_t last = -1;
    bool sat = false;
    for (std::int64_t k = b; k < e && !sat; ++k) {
      const std::int8_t x = value(edge_var(k));
      if (x == 0) {
        ++nfree;
        last = k;
      } else {
        sat = (x > 0) != (edge_neg(k) != 0);
      }
    }
    if (sat) {
      clause_sat(c) = 1;
      for (std::int64_t k = b; k < e; ++k)
        if (!edge_dead(k)) kill(k);
      return;
    }
    for (std::int64_t k = b; k < e; ++k)
      if (!edge_dead(k) && value(edge_var(k)) != 0) kill(k);
    ++unsat;
    if (nfree == 0) {
      ++conflicts;
      if (c < first) first = c;
    } else if (nfree == 1) {
      Kokkos::atomic_or(&forced(edge_var(last)), edge_neg(last) ? 2 : 1);
    }
  }
};

// Applies the unit proposals; a variable proposed both ways is a conflict.
struct UnitPass {
  Kokkos::View<std::int32_t*> forced;
  Kokkos::View<std::int8_t*> value;
  Kokkos::View<std::uint8_t*> how;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t v, std::int64_t& fixed,
                                         std::int64_t& conflicts, std::int64_t& first) const {
    const std::int32_t f = forced(v);
    if (f == 0) return;
    forced(v) = 0;
    if (f == 3) {
      ++conflicts;
      if (v < first) first = v;
      return;
    }
    value(v) = f == 1 ? 1 : -1;
    how(v) = static_cast<std::uint8_t>(FixedBy::Unit);
    ++fixed;
  }
};

// A free variable that occurs in no unsatisfied clause is unconstrained (set false); one that
// occurs with one sign only is a pure literal (set to satisfy those clauses) when enabled.
struct PurePass {
  Kokkos::View<const std::int64_t*> var_off;
  Kokkos::View<const std::int32_t*> var_edges, edge_clause;
  Kokkos::View<const std::uint8_t*> clause_sat;
  Kokkos::View<std::int8_t*> value;
  Kokkos::View<std::uint8_t*> how;
  bool pure = true;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t v, std::int64_t& npure,
                                         std::int64_t& nunc) const {
    if (value(v) != 0) return;
    bool pos = false, neg = false;
    for (std::int64_t k = var_off(v); k < var_off(v + 1) && !(pos && neg); ++k) {
      const std::int32_t tag = var_edges(k);
      if (clause_sat(edge_clause(tag_edge(tag)))) continue;
      if (tag_neg(tag))
        neg = true;
      else
        pos = true;
    }
    if (!pos && !neg) {
      value(v) = -1;
      how(v) = static_cast<std::uint8_t>(FixedBy::Unconstrained);
      ++nunc;
    } else if (pure && pos != neg) {
      value(v) = pos ? 1 : -1;
      how(v) = static_cast<std::uint8_t>(FixedBy::Pure);
      ++npure;
    }
  }
};

// Initial surveys, uniform in [0, 1) per edge (LonestarGPU: rand() / RAND_MAX), a function of
// (seed, edge) only.
struct InitSurveys {
  Kokkos::View<Real*> eta;
  std::uint64_t seed = 1;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t e) const {
    eta(e) = static_cast<Real>(uniform01(hash3(seed, static_cast<std::uint64_t>(e), 0x5eed)));
  }
};

struct DecimateKernel {
  Kokkos::View<const std::uint64_t*> keys;
  Kokkos::View<const Real*> bias;
  Kokkos::View<std::int8_t*> value;
  Kokkos::View<std::uint8_t*> how;
  std::uint64_t threshold = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t v, std::int64_t& fixed) const {
    if (value(v) != 0 || keys(v) < threshold) return;
    value(v) = bias(v) > Real(0) ? 1 : -1;
    how(v) = static_cast<std::uint8_t>(FixedBy::Sp);
    ++fixed;
  }
};

}  // namespace

SurveyPropagation::SurveyPropagation(const FactorGraph& g, const SurveyParams& p) : g_(g), p_(p) {
  const std::int64_t E = g.nedges, C = g.nclauses, V = g.nvars;
  eta_ = Kokkos::View<Real*>("SP::eta", E);
  ratio_ = Kokkos::View<Real*>("SP::ratio", E);
  edge_dead_ = Kokkos::View<std::uint8_t*>("SP::edge_dead", E);
  clause_sat_ = Kokkos::View<std::uint8_t*>("SP::clause_sat", C);
  value_ = Kokkos::View<std::int8_t*>("SP::value", V);
  how_ = Kokkos::View<std::uint8_t*>("SP::fixed_by", V);
  bias_ = Kokkos::View<Real*>("SP::bias", V);
  forced_ = Kokkos::View<std::int32_t*>("SP::forced", V);
  keys_ = Kokkos::View<std::uint64_t*>("SP::keys", V);
  sorted_ = Kokkos::View<std::uint64_t*>("SP::keys_sorted", V);
  Kokkos::parallel_for("SP::init_surveys", Policy(0, E), InitSurveys{eta_, p.seed});
  Kokkos::deep_copy(ratio_, Real(1));
  Kokkos::fence();
}

IterationResult SurveyPropagation::iterate() {
  IterationResult r;
  const Kokkos::DefaultExecutionSpace exec;
  Kokkos::Timer timer;
  {
    CalcPiBody body{eta_, g_.edge_neg, edge_dead_, ratio_};
    TwoLevelGatherAccess acc{g_.edge_var, g_.var_off, g_.var_edges};
    remap::Sums2 s;
    remap::launch_range("SP::calc_pi_values", exec, body, acc, 0, g_.nedges, true, s);
    r.contradictions = static_cast<std::int64_t>(s.s0);
  }
  r.calc_pi_ms = 1e3 * timer.seconds();
  timer.reset();
  {
    UpdateSurveyBody body{g_.clause_off,
                          clause_sat_,
                          edge_dead_,
                          eta_,
                          static_cast<Real>(p_.epsilon),
                          static_cast<Real>(p_.damping)};
    CsrGatherAccess<Real> acc{g_.clause_off, ratio_};
    remap::Sums2 s;
    remap::launch_range("SP::update_surveys", exec, body, acc, 0, g_.nclauses, true, s);
    r.moving = static_cast<std::int64_t>(s.s0);
  }
  r.update_ms = 1e3 * timer.seconds();
  return r;
}

BiasResult SurveyPropagation::biases() {
  Kokkos::Timer timer;
  BiasResult r;
  double sum = 0, mx = 0;
  BiasKernel k{g_.var_off, g_.var_edges, eta_, value_, bias_, keys_};
  Kokkos::parallel_reduce("SP::update_bias", Policy(0, g_.nvars), k,
                          Kokkos::Sum<std::int64_t>(r.free_vars), Kokkos::Sum<double>(sum),
                          Kokkos::Max<double>(mx));
  r.mean_max_w = r.free_vars > 0 ? sum / static_cast<double>(r.free_vars) : 0.0;
  r.max_bias = r.free_vars > 0 ? mx : 0.0;
  r.ms = 1e3 * timer.seconds();
  return r;
}

std::int64_t SurveyPropagation::decimate(std::int64_t count) {
  const std::int64_t V = g_.nvars;
  if (count <= 0 || V == 0) return 0;
  if (count > V) count = V;
  Kokkos::deep_copy(sorted_, keys_);
  Kokkos::sort(sorted_);
  std::uint64_t threshold = 0;
  Kokkos::deep_copy(threshold, Kokkos::subview(sorted_, V - count));
  if (threshold == 0) threshold = 1;  // fewer free variables than asked: fix them all
  std::int64_t fixed = 0;
  DecimateKernel k{keys_, bias_, value_, how_, threshold};
  Kokkos::parallel_reduce("SP::decimate", Policy(0, V), k, fixed);
  return fixed;
}

SimplifyResult SurveyPropagation::simplify() {
  Kokkos::Timer timer;
  SimplifyResult r;
  const std::int64_t C = g_.nclauses, V = g_.nvars;
  const std::int64_t none = std::numeric_limits<std::int64_t>::max();
  ClausePass cp{g_.clause_off, g_.edge_var, g_.edge_neg, value_, clause_sat_,
                edge_dead_,    eta_,        ratio_,      forced_};
  UnitPass up{forced_, value_, how_};
  PurePass pp{g_.var_off, g_.var_edges, g_.edge_clause,  clause_sat_,
              value_,     how_,         p_.pure_literals};
  for (;;) {
    ++r.passes;
    std::int64_t unsat = 0, conflicts = 0, first = none;
    Kokkos::parallel_reduce("SP::simplify_clauses", Policy(0, C), cp,
                            Kokkos::Sum<std::int64_t>(unsat), Kokkos::Sum<std::int64_t>(conflicts),
                            Kokkos::Min<std::int64_t>(first));
    r.unsat_clauses = unsat;
    if (conflicts > 0) {
      r.conflict = true;
      r.conflict_where = "clause " + std::to_string(first + 1) + " has no true or free literal";
      Kokkos::deep_copy(forced_, 0);
      break;
    }
    std::int64_t fixed = 0;
    first = none;
    Kokkos::parallel_reduce("SP::simplify_units", Policy(0, V), up,
                            Kokkos::Sum<std::int64_t>(fixed), Kokkos::Sum<std::int64_t>(conflicts),
                            Kokkos::Min<std::int64_t>(first));
    if (conflicts > 0) {
      r.conflict = true;
      r.conflict_where =
          "variable " + std::to_string(first + 1) + " is forced true and false by unit clauses";
      break;
    }
    r.fixed_unit += fixed;
    if (fixed > 0) continue;
    std::int64_t npure = 0, nunc = 0;
    Kokkos::parallel_reduce("SP::simplify_pure", Policy(0, V), pp, Kokkos::Sum<std::int64_t>(npure),
                            Kokkos::Sum<std::int64_t>(nunc));
    r.fixed_pure += npure;
    r.unconstrained += nunc;
    if (npure + nunc == 0) break;
  }
  r.ms = 1e3 * timer.seconds();
  return r;
}

std::vector<std::int8_t> SurveyPropagation::values() const {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), value_);
  return std::vector<std::int8_t>(h.data(), h.data() + h.extent(0));
}
std::vector<std::uint8_t> SurveyPropagation::fixed_by() const {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), how_);
  return std::vector<std::uint8_t>(h.data(), h.data() + h.extent(0));
}
std::vector<std::uint8_t> SurveyPropagation::clause_sat() const {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), clause_sat_);
  return std::vector<std::uint8_t>(h.data(), h.data() + h.extent(0));
}
std::vector<Real> SurveyPropagation::surveys() const {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), eta_);
  return std::vector<Real>(h.data(), h.data() + h.extent(0));
}

}  // namespace mdremap::sp

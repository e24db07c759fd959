// Simplification on the device (unit propagation, pure literals, satisfied clauses and dead
// edges), a few bulk passes per fixed point.
#include <Kokkos_Core.hpp>
#include <limits>

#include "sp/survey.hpp"

namespace mdremap::sp {

namespace {

using Policy = Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>;

// The four counts one clause pass reduces.
struct ClauseCounts {
  std::int64_t unsat = 0, conflicts = 0, live = 0;
  std::int64_t first = std::numeric_limits<std::int64_t>::max();
  KOKKOS_INLINE_FUNCTION ClauseCounts& operator+=(const ClauseCounts& o) {
    unsat += o.unsat;
    conflicts += o.conflicts;
    live += o.live;
    if (o.first < first) first = o.first;
    return *this;
  }
};

}  // namespace
}  // namespace mdremap::sp

namespace Kokkos {
template <>
struct reduction_identity<mdremap::sp::ClauseCounts> {
  KOKKOS_FORCEINLINE_FUNCTION static mdremap::sp::ClauseCounts sum() { return {}; }
};
}  // namespace Kokkos

namespace mdremap::sp {
namespace {

// Satisfied clauses are marked, edges of satisfied clauses or fixed variables die (|sq| = 1,
// ratio 1), unsatisfied clauses with one free literal propose it (forced: bit 0 true, bit 1
// false), those with none are conflicts.
struct ClausePass {
  Kokkos::View<const std::int64_t*> clause_off;
  Kokkos::View<const std::int32_t*> clause_edges, edge_var;
  Kokkos::View<const std::uint8_t*> edge_neg;
  Kokkos::View<const std::int8_t*> value;
  Kokkos::View<std::uint8_t*> clause_sat, edge_dead;
  Kokkos::View<Real*> sq, ratio;
  Kokkos::View<std::int32_t*> forced;
  KOKKOS_INLINE_FUNCTION void kill(const std::int32_t e) const {
    edge_dead(e) = 1;
    sq(e) = Kokkos::copysign(Real(1), sq(e));
    ratio(e) = Real(1);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t c, ClauseCounts& n) const {
    if (clause_sat(c)) return;
    const std::int64_t b = clause_off(c), end = clause_off(c + 1);
    int nfree = 0;
    std::int32_t last = -1;
    bool sat = false;
    for (std::int64_t k = b; k < end && !sat; ++k) {
      const std::int32_t e = clause_edges(k);
      const std::int8_t x = value(edge_var(e));
      if (x == 0) {
        ++nfree;
        last = e;
      } else {
        sat = (x > 0) != (edge_neg(e) != 0);
      }
    }
    if (sat) {
      clause_sat(c) = 1;
      for (std::int64_t k = b; k < end; ++k)
        if (!edge_dead(clause_edges(k))) kill(clause_edges(k));
      return;
    }
    for (std::int64_t k = b; k < end; ++k) {
      const std::int32_t e = clause_edges(k);
      if (!edge_dead(e) && value(edge_var(e)) != 0) kill(e);
    }
    ++n.unsat;
    n.live += nfree;
    if (nfree == 0) {
      ++n.conflicts;
      if (c < n.first) n.first = c;
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
  Kokkos::View<const std::uint8_t*> edge_neg, clause_sat;
  Kokkos::View<std::int8_t*> value;
  Kokkos::View<std::uint8_t*> how;
  bool pure = true;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t v, std::int64_t& npure,
                                         std::int64_t& nunc) const {
    if (value(v) != 0) return;
    bool pos = false, neg = false;
    for (std::int64_t k = var_off(v); k < var_off(v + 1) && !(pos && neg); ++k) {
      const std::int32_t e = var_edges(k);
      if (clause_sat(edge_clause(e))) continue;
      if (edge_neg(e))
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

}  // namespace

SimplifyResult SurveyPropagation::simplify() {
  Kokkos::Timer timer;
  SimplifyResult r;
  const std::int64_t C = g_.nclauses, V = g_.nvars;
  const std::int64_t none = std::numeric_limits<std::int64_t>::max();
  ClausePass cp{g_.clause_off, g_.clause_edges, g_.edge_var, g_.edge_neg, value_,
                clause_sat_,   edge_dead_,      sq_,         ratio_,      forced_};
  UnitPass up{forced_, value_, how_};
  PurePass pp{g_.var_off,  g_.var_edges, g_.edge_clause, g_.edge_neg,
              clause_sat_, value_,       how_,           p_.pure_literals};
  for (;;) {
    ++r.passes;
    ClauseCounts n;
    Kokkos::parallel_reduce("SP::simplify_clauses", Policy(0, C), cp, Kokkos::Sum<ClauseCounts>(n));
    r.unsat_clauses = n.unsat;
    r.live_edges = n.live;
    if (n.conflicts > 0) {
      r.conflict = true;
      r.conflict_where =
          "clause " + std::to_string(clause_orig_[n.first] + 1) + " has no true or free literal";
      Kokkos::deep_copy(forced_, 0);
      break;
    }
    std::int64_t fixed = 0, conflicts = 0, first = none;
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

}  // namespace mdremap::sp

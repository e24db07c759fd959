#pragma once
// The survey-propagation sweep as remap compute bodies (BRIEF section 5's contract), written once
// and run by whichever strategy serves the reference.
//
// Equations (Braunstein, Mezard, Zecchina 2005, "Survey propagation: an algorithm for
// satisfiability", eqs. 26-27; LonestarGPU sp's calc_pi_values / update_eta): for the edge
// a -> j (clause a, variable j), with V^s_a(j) the other clauses where j appears with the same
// sign as in a and V^u_a(j) those with the opposite sign,
//   P_s = prod_{b in V^s_a(j)} (1 - eta_{b->j}),  P_u = prod_{b in V^u_a(j)} (1 - eta_{b->j}),
//   pi^u = (1 - P_u) P_s,  pi^s = (1 - P_s) P_u,  pi^0 = P_s P_u,
//   eta_{a->i} = prod_{j in V(a) \ i} pi^u_{j->a} / (pi^u_{j->a} + pi^s_{j->a} + pi^0_{j->a}).
//
// Per edge the state holds the signed survey complement sq[e] = +-(1 - eta[e]), negative for a
// negated literal (the sign bit, so -0 marks eta = 1 on a negated literal): calc_pi_values' one
// irregular reference sq[var_col[var_rowOff[ed_dst[t]] + j]] then brings both the factor and the
// sign of each occurrence, and any strategy can serve it (sharing stages only values). Dead edges
// (clause satisfied or variable fixed) hold |sq| = 1 and ratio = 1, so they drop out of every
// product without a branch on the clause.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "mdremap/remap/device_pattern.hpp"
#include "sp/factor_graph.hpp"

namespace mdremap::sp {

// calc_pi_values: one thread per edge t = (a -> j); a(i, t) is sq of the i-th edge of variable j
// (the pattern: start[t] = var_rowOff[ed_dst[t]], index = var_col, seed 000 Listing 2). The own
// edge sits at position var_pos[t] of the list (b != a). Writes ratio[t]. With EV, sums.s0 counts
// edges whose three pi's vanish (j forced both ways; LonestarGPU then sets the survey to 0).
struct CalcPiBody {
  static constexpr remap::PatternLayout kLayout = remap::PatternLayout::Offsets;
  // The var_col pattern, and the thread's own edge (dead flag, sign, position, output): seed 001
  // §3.3's padding, which regroups threads, does not apply (RemapOptions::reference_patterns).
  static constexpr int kReferencePatterns = 2;
  Kokkos::View<const std::uint8_t*> edge_neg, edge_dead;
  Kokkos::View<const std::int32_t*> var_pos;
  Kokkos::View<Real*> ratio;

  template <bool EV, class Access>
  KOKKOS_INLINE_FUNCTION void thread(const std::int64_t t, const Access& a,
                                     remap::Sums2& sums) const {
    if (edge_dead(t)) return;
    const bool own_neg = edge_neg(t) != 0;
    const int self = var_pos(t);
    Real p_same = 1, p_other = 1;
    const int n = a.count(t);
    for (int i = 0; i < n; ++i) {
      if (i == self) continue;  // b != a
      const Real s = a(i, t);
      const Real q = Kokkos::fabs(s);
      if (Kokkos::signbit(s) == own_neg)
        p_same *= q;
      else
        p_other *= q;
    }
    const Real pi_u = (Real(1) - p_other) * p_same;
    const Real pi_s = (Real(1) - p_same) * p_other;
    const Real pi_0 = p_same * p_other;
    const Real sum = pi_u + pi_s + pi_0;
    if (sum > Real(0)) {
      ratio(t) = pi_u / sum;
    } else {
      ratio(t) = Real(0);
      if constexpr (EV) sums.s0 += 1;
    }
  }
};

// The survey update: one thread per clause c; a(j, c) is the ratio of c's j-th edge and
// a.source(j, c) that edge (the clause pattern: start = clause_off, index = clause_edges; a gather
// accessor). Writes the surveys of c's live edges (damped: eta <- damping * eta_old +
// (1 - damping) * eta_new) and, with EV, counts in sums.s0 the edges whose survey moved by more
// than epsilon (LonestarGPU's test max |delta eta| <= epsilon is a zero count).
struct UpdateSurveyBody {
  static constexpr remap::PatternLayout kLayout = remap::PatternLayout::Offsets;
  static constexpr int kReferencePatterns = 1;
  Kokkos::View<const std::uint8_t*> clause_sat, edge_dead;
  Kokkos::View<Real*> sq;
  Real epsilon = Real(0.001), damping = Real(0);

  template <bool EV, class Access>
  KOKKOS_INLINE_FUNCTION void thread(const std::int64_t c, const Access& a,
                                     remap::Sums2& sums) const {
    if (clause_sat(c)) return;
    const int n = a.count(c);
    if (n <= 8) {  // short clauses (random k-SAT): the products directly
      for (int i = 0; i < n; ++i) {
        const std::int32_t e = a.source(i, c);
        if (edge_dead(e)) continue;
        Real p = 1;
        for (int j = 0; j < n; ++j)
          if (j != i) p *= a(j, c);
        store<EV>(e, p, sums);
      }
      return;
    }
    // Long clauses: one product over the nonzero ratios and the number of zeros.
    Real prod = 1;
    int zeros = 0;
    for (int j = 0; j < n; ++j) {
      const Real r = a(j, c);
      if (r == Real(0))
        ++zeros;
      else
        prod *= r;
    }
    for (int i = 0; i < n; ++i) {
      const std::int32_t e = a.source(i, c);
      if (edge_dead(e)) continue;
      const Real r = a(i, c);
      const Real p =
          r == Real(0) ? (zeros == 1 ? prod : Real(0)) : (zeros > 0 ? Real(0) : prod / r);
      store<EV>(e, p, sums);
    }
  }

 private:
  template <bool EV>
  KOKKOS_INLINE_FUNCTION void store(const std::int32_t e, const Real computed,
                                    remap::Sums2& sums) const {
    const Real old_sq = sq(e);
    const Real old = Real(1) - Kokkos::fabs(old_sq);
    const Real now = damping * old + (Real(1) - damping) * computed;
    sq(e) = Kokkos::copysign(Real(1) - now, old_sq);
    if constexpr (EV) {
      const Real d = now > old ? now - old : old - now;
      if (d > epsilon) sums.s0 += 1;
    }
  }
};

}  // namespace mdremap::sp

#pragma once
// The survey-propagation kernels as remap compute bodies (BRIEF section 5's contract:
// `template <bool EV, class Access> thread(t, a, sums)` reading a(j, t) for j < a.count(t)),
// written once and run by whatever serves the reference, plus the accessors that serve it by
// plain gathers (the LonestarGPU baseline).
//
// Equations (Braunstein, Mezard, Zecchina 2005, "Survey propagation: an algorithm for
// satisfiability", eqs. 26-27; LonestarGPU sp's calc_pi_values / update_eta): for the edge
// a -> j (clause a, variable j), with V^s_a(j) the other clauses where j appears with the same
// sign as in a and V^u_a(j) those with the opposite sign,
//   P_s = prod_{b in V^s_a(j)} (1 - eta_{b->j}),  P_u = prod_{b in V^u_a(j)} (1 - eta_{b->j}),
//   pi^u = (1 - P_u) P_s,  pi^s = (1 - P_s) P_u,  pi^0 = P_s P_u,
//   eta_{a->i} = prod_{j in V(a) \ i} pi^u_{j->a} / (pi^u_{j->a} + pi^s_{j->a} + pi^0_{j->a}).
// calc_pi_values stores the ratio pi^u / (pi^u + pi^s + pi^0) per edge; the survey update
// multiplies a clause's ratios. Dead edges (clause satisfied or variable fixed) hold eta = 0 and
// ratio = 1, so they drop out of every product without a branch on the clause.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "mdremap/remap/device_pattern.hpp"
#include "sp/factor_graph.hpp"

namespace mdremap::sp {

// calc_pi_values' two-level reference, LonestarGPU style (seed 000 Listing 2):
//   j = ed_dst[t]; v_j = var_rowOff[j]; len = var_rowOff[j+1] - v_j; a(i, t) = var_col[v_j + i].
struct TwoLevelGatherAccess {
  Kokkos::View<const std::int32_t*> outer;       // ed_dst (edge_var)
  Kokkos::View<const std::int64_t*> row_offset;  // var_rowOff (var_off)
  Kokkos::View<const std::int32_t*, Kokkos::MemoryTraits<Kokkos::RandomAccess>> data;  // var_col

  KOKKOS_INLINE_FUNCTION int count(const std::int64_t t) const {
    const std::int32_t j = outer(t);
    return static_cast<int>(row_offset(j + 1) - row_offset(j));
  }
  KOKKOS_INLINE_FUNCTION std::int32_t operator()(const int i, const std::int64_t t) const {
    return data(row_offset(outer(t)) + i);
  }
};

// A one-level CSR reference: a(j, t) = data[start[t] + j], j < start[t+1] - start[t] (the survey
// update reads the ratios of clause t's edges).
template <class T>
struct CsrGatherAccess {
  Kokkos::View<const std::int64_t*> start;
  Kokkos::View<const T*> data;

  KOKKOS_INLINE_FUNCTION int count(const std::int64_t t) const {
    return static_cast<int>(start(t + 1) - start(t));
  }
  KOKKOS_INLINE_FUNCTION T operator()(const int j, const std::int64_t t) const {
    return data(start(t) + j);
  }
};

// calc_pi_values: one thread per edge t = (a -> j); a(i, t) is the tag 2*e + neg(e) of the i-th
// edge of variable j (var_col). Writes ratio(t). With EV, sums0 counts edges whose three pi's
// vanish (j is forced both ways: an SP contradiction; LonestarGPU then sets the survey to 0).
struct CalcPiBody {
  static constexpr int kReferencePatterns = 1;
  Kokkos::View<const Real*, Kokkos::MemoryTraits<Kokkos::RandomAccess>> eta;  // per edge
  Kokkos::View<const std::uint8_t*> edge_neg, edge_dead;
  Kokkos::View<Real*> ratio;

  template <bool EV, class Access>
  KOKKOS_INLINE_FUNCTION void thread(const std::int64_t t, const Access& a,
                                     remap::Sums2& sums) const {
    if (edge_dead(t)) return;
    const bool own_neg = edge_neg(t) != 0;
    Real p_same = 1, p_other = 1;
    const int n = a.count(t);
    for (int i = 0; i < n; ++i) {
      const std::int32_t tag = a(i, t);
      const std::int32_t e = tag_edge(tag);
      if (e == t) continue;  // b != a
      const Real q = Real(1) - eta(e);
      if (tag_neg(tag) == own_neg)
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

// The survey update: one thread per clause c; a(j, c) is the ratio of c's j-th edge. Writes the
// new surveys of c's live edges (damped: eta <- damping * eta_old + (1 - damping) * eta_new) and,
// with EV, counts in sums0 the edges whose survey moved by more than epsilon (LonestarGPU's
// convergence test is max |delta eta| <= epsilon: the same as a zero count).
struct UpdateSurveyBody {
  static constexpr int kReferencePatterns = 1;
  Kokkos::View<const std::int64_t*> clause_off;
  Kokkos::View<const std::uint8_t*> clause_sat, edge_dead;
  Kokkos::View<Real*> eta;
  Real epsilon = Real(0.001), damping = Real(0);

  template <bool EV, class Access>
  KOKKOS_INLINE_FUNCTION void thread(const std::int64_t c, const Access& a,
                                     remap::Sums2& sums) const {
    if (clause_sat(c)) return;
    const int n = a.count(c);
    const std::int64_t base = clause_off(c);
    if (n <= 8) {  // short clauses (random k-SAT): the products directly
      for (int i = 0; i < n; ++i) {
        if (edge_dead(base + i)) continue;
        Real p = 1;
        for (int j = 0; j < n; ++j)
          if (j != i) p *= a(j, c);
        store<EV>(base + i, p, sums);
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
      if (edge_dead(base + i)) continue;
      const Real r = a(i, c);
      const Real p =
          r == Real(0) ? (zeros == 1 ? prod : Real(0)) : (zeros > 0 ? Real(0) : prod / r);
      store<EV>(base + i, p, sums);
    }
  }

 private:
  template <bool EV>
  KOKKOS_INLINE_FUNCTION void store(const std::int64_t e, const Real computed,
                                    remap::Sums2& sums) const {
    const Real old = eta(e);
    const Real now = damping * old + (Real(1) - damping) * computed;
    eta(e) = now;
    if constexpr (EV) {
      const Real d = now > old ? now - old : old - now;
      if (d > epsilon) sums.s0 += 1;
    }
  }
};

}  // namespace mdremap::sp

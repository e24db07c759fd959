#pragma once
// 12-6 Lennard-Jones, cut at rc per type pair, optionally shifted to zero energy at rc (LAMMPS
// pair_style lj/cut with pair_modify shift): the LJ math, written once, for every force loop.
#include <cmath>
#include <vector>

#include "md/pair/evaluator.hpp"
#include "md/pair/styles.hpp"

namespace mdremap::md {

// Coefficients per type pair: cutsq, lj1 = 48 eps sigma^12, lj2 = 24 eps sigma^6,
// lj3 = 4 eps sigma^12, lj4 = 4 eps sigma^6, offset (the energy at rc when shifted, else 0).
template <class T>
struct LJ : PairTable<T, 6> {
  static constexpr const char* kName = LjSpec::kName;
  using Form = LJ;  // whose math this is (intrinsic forms are found by it: lj_avx512.hpp)
  enum { kCutsq, kLj1, kLj2, kLj3, kLj4, kOffset };

  // F/r = (48 eps s^12 / r^12 - 24 eps s^6 / r^6) / r^2, E = 4 eps (s^12 / r^12 - s^6 / r^6) -
  // offset.
  template <bool Energy, bool OneType = false>
  MDREMAP_PAIR_FUNCTION T force(const T rsq, const int k, T& e) const {
    const T r2i = T(1) / rsq;
    const T r6i = r2i * r2i * r2i;
    if constexpr (Energy)
      e = r6i * (this->template at<kLj3, OneType>(k) * r6i - this->template at<kLj4, OneType>(k)) -
          this->template at<kOffset, OneType>(k);
    return r6i * (this->template at<kLj1, OneType>(k) * r6i - this->template at<kLj2, OneType>(k)) *
           r2i;
  }
  // The cut-off is a select, not a branch: the force is evaluated for every pair of the list and
  // a pair at or past the cut-off adds 0, the same values as skipping it. On a GPU the lanes of
  // a warp rarely agree on the branch, so it cost the convergence barriers and the jumps around
  // the arithmetic without saving the arithmetic: the select issues fewer instructions, and the
  // thermo is byte-identical.
  template <bool Energy, bool OneType = false>
  MDREMAP_PAIR_FUNCTION T eval(const T rsq, const int k, T& e) const {
    const bool inside = rsq < this->template cutsq<OneType>(k);
    T ep = 0;
    const T f = force<Energy, OneType>(rsq, k, ep);
    if constexpr (Energy) e = inside ? ep : T(0);
    return inside ? f : T(0);
  }

  // One type pair's coefficients (host, double).
  static std::array<double, 6> coefficients(double eps, double sig, double rc, bool shift) {
    const double s6 = std::pow(sig, 6), s12 = s6 * s6;
    const double ratio6 = std::pow(sig / rc, 6);
    return {rc * rc,         48.0 * eps * s12,
            24.0 * eps * s6, 4.0 * eps * s12,
            4.0 * eps * s6,  shift ? 4.0 * eps * (ratio6 * ratio6 - ratio6) : 0.0};
  }
  static LJ make(const PairCoeffs& pc, bool shift) {
    return make_pair_table<LJ>(pc, [&](int a, int b) {
      return coefficients(pc.at(pc.epsilon, a, b), pc.at(pc.sigma, a, b), pc.at(pc.cutoff, a, b),
                          shift);
    });
  }
};

template <>
struct PairEvaluatorFor<LjSpec> {
  template <class T>
  using type = LJ<T>;
};

// The a-b term of tail_correction's sums for `count` pairs: energy, or pressure.
inline double tail_term(const PairCoeffs& pc, int a, int b, double count, bool pressure) {
  const double pi = 3.14159265358979323846;
  const double eps = pc.at(pc.epsilon, a, b), sig = pc.at(pc.sigma, a, b);
  const double rc = pc.at(pc.cutoff, a, b);
  const double s3 = sig * sig * sig, s6 = s3 * s3, rc3 = rc * rc * rc, rc9 = rc3 * rc3 * rc3;
  return pressure ? count * 16.0 * pi * eps * s6 * (2.0 * s6 - 3.0 * rc3 * rc3) / (9.0 * rc9)
                  : count * 8.0 * pi * eps * s6 * (s6 - 3.0 * rc3 * rc3) / (9.0 * rc9);
}

// Long-range tail corrections of LJ for a homogeneous fluid beyond the cutoff (Allen & Tildesley
// Eqs. 2.144-2.145), summed over type pairs with their atom counts: energy adds etail/V,
// pressure adds ptail/V^2.
inline void tail_correction(const PairCoeffs& pc, const std::vector<std::int64_t>& type_count,
                            double& etail, double& ptail) {
  etail = ptail = 0;
  for (int a = 0; a < pc.ntypes; ++a)
    for (int b = 0; b < pc.ntypes; ++b) {
      const double nn = double(type_count[a]) * double(type_count[b]);
      etail += tail_term(pc, a, b, nn, false);
      ptail += tail_term(pc, a, b, nn, true);
    }
}

// The energy correction per atom of each type (compute pe/atom's share of it): e_a = sum_b N_b
// t_ab, t_ab the a-b term of tail_correction's sum over ordered type pairs, so that
// sum_a N_a e_a = etail; an atom of type a adds e_a / V.
inline std::vector<double> tail_energy_per_type(const PairCoeffs& pc,
                                                const std::vector<std::int64_t>& type_count) {
  std::vector<double> e(static_cast<std::size_t>(pc.ntypes), 0.0);
  for (int a = 0; a < pc.ntypes; ++a)
    for (int b = 0; b < pc.ntypes; ++b) e[a] += tail_term(pc, a, b, double(type_count[b]), false);
  return e;
}

}  // namespace mdremap::md

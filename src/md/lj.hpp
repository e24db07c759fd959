#pragma once
// 12-6 Lennard-Jones as a small evaluator (HOOMD style): the pair math lives here once, usable on
// host and device; every force driver and remap strategy calls it.
#include <cmath>

#include "md/params.hpp"
#include "mdremap/atoms.hpp"

namespace mdremap::md {

template <class T>
struct LJTable {
  int ntypes = 1;
  T cutsq[kMaxTypes * kMaxTypes];
  T lj1[kMaxTypes * kMaxTypes];  // 48 eps sigma^12
  T lj2[kMaxTypes * kMaxTypes];  // 24 eps sigma^6
  T lj3[kMaxTypes * kMaxTypes];  // 4 eps sigma^12
  T lj4[kMaxTypes * kMaxTypes];  // 4 eps sigma^6
  T offset[kMaxTypes * kMaxTypes];

  // Pair (ti, tj) at squared distance rsq: returns F/r (so F = fpair * dr) and, if asked, the
  // pair energy. Zero beyond the cutoff.
  template <bool Energy>
  KOKKOS_INLINE_FUNCTION T eval(const T rsq, const int k, T& e) const {
    if (!(rsq < cutsq[k])) return T(0);
    return force<Energy>(rsq, k, e);
  }
  // The same inside the cutoff (the caller has tested rsq < cutsq[k]).
  template <bool Energy>
  KOKKOS_INLINE_FUNCTION T force(const T rsq, const int k, T& e) const {
    const T r2i = T(1) / rsq;
    const T r6i = r2i * r2i * r2i;
    if constexpr (Energy) e = r6i * (lj3[k] * r6i - lj4[k]) - offset[k];
    return r6i * (lj1[k] * r6i - lj2[k]) * r2i;
  }
  KOKKOS_INLINE_FUNCTION int pair(const int ti, const int tj) const { return ti * kMaxTypes + tj; }
};

template <class T>
LJTable<T> make_lj_table(const PairCoeffs& pc, bool shift) {
  LJTable<T> t{};
  t.ntypes = pc.ntypes;
  for (int a = 0; a < pc.ntypes; ++a)
    for (int b = 0; b < pc.ntypes; ++b) {
      const double eps = pc.at(pc.epsilon, a, b), sig = pc.at(pc.sigma, a, b);
      const double rc = pc.at(pc.cutoff, a, b);
      const double s6 = std::pow(sig, 6), s12 = s6 * s6;
      const int k = a * kMaxTypes + b;
      t.cutsq[k] = static_cast<T>(rc * rc);
      t.lj1[k] = static_cast<T>(48.0 * eps * s12);
      t.lj2[k] = static_cast<T>(24.0 * eps * s6);
      t.lj3[k] = static_cast<T>(4.0 * eps * s12);
      t.lj4[k] = static_cast<T>(4.0 * eps * s6);
      const double ratio6 = std::pow(sig / rc, 6);
      t.offset[k] = static_cast<T>(shift ? 4.0 * eps * (ratio6 * ratio6 - ratio6) : 0.0);
    }
  return t;
}

// Long-range tail corrections for a homogeneous fluid beyond the cutoff (Allen & Tildesley
// Eqs. 2.144-2.145), summed over type pairs with their atom counts: energy adds etail/V,
// pressure adds ptail/V^2.
inline void tail_correction(const PairCoeffs& pc, const std::vector<std::int64_t>& type_count,
                            double& etail, double& ptail) {
  etail = ptail = 0;
  const double pi = 3.14159265358979323846;
  for (int a = 0; a < pc.ntypes; ++a)
    for (int b = 0; b < pc.ntypes; ++b) {
      const double eps = pc.at(pc.epsilon, a, b), sig = pc.at(pc.sigma, a, b);
      const double rc = pc.at(pc.cutoff, a, b);
      const double s3 = sig * sig * sig, s6 = s3 * s3, rc3 = rc * rc * rc, rc9 = rc3 * rc3 * rc3;
      const double nn = double(type_count[a]) * double(type_count[b]);
      etail += nn * 8.0 * pi * eps * s6 * (s6 - 3.0 * rc3 * rc3) / (9.0 * rc9);
      ptail += nn * 16.0 * pi * eps * s6 * (2.0 * s6 - 3.0 * rc3 * rc3) / (9.0 * rc9);
    }
}

}  // namespace mdremap::md

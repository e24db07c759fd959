#pragma once
// 12-6 Lennard-Jones as a small evaluator (HOOMD style): the pair math lives here once, usable on
// host and device; every force driver and remap strategy calls it.
#include <Kokkos_Core.hpp>
#include <cmath>

#include "md/params.hpp"
#include "mdremap/atoms.hpp"

namespace mdremap::md {

// The per-type-pair coefficients live in device memory, reached through raw pointers into one
// View, and pair (0, 0)'s are kept inline as well: with the arrays inline the force functor
// grew past 512 bytes (1.5 KB in float, 3 KB in double), which Kokkos launches through constant
// memory, one launch at a time across streams, serialising dup's chunk pipeline (seed 000 §5.1).
template <class T>
struct LJTable {
  int ntypes = 1;
  const T* cutsq = nullptr;  // kMaxTypes * kMaxTypes each, pair (ti, tj) at ti * kMaxTypes + tj
  const T* lj1 = nullptr;    // 48 eps sigma^12
  const T* lj2 = nullptr;    // 24 eps sigma^6
  const T* lj3 = nullptr;    // 4 eps sigma^12
  const T* lj4 = nullptr;    // 4 eps sigma^6
  const T* offset = nullptr;
  T c0[6] = {};            // pair (0, 0): cutsq, lj1, lj2, lj3, lj4, offset (the one-type loops)
  Kokkos::View<T*> store;  // owns the arrays

  // Pair k at squared distance rsq: returns F/r (so F = fpair * dr) and, if asked, the pair
  // energy. Zero beyond the cutoff. OneType: pair (0, 0) from the inline copy.
  template <bool Energy, bool OneType = false>
  KOKKOS_INLINE_FUNCTION T eval(const T rsq, const int k, T& e) const {
    if (!(rsq < (OneType ? c0[0] : cutsq[k]))) return T(0);
    return force<Energy, OneType>(rsq, k, e);
  }
  // The same inside the cutoff (the caller has tested rsq < cutsq[k]).
  template <bool Energy, bool OneType = false>
  KOKKOS_INLINE_FUNCTION T force(const T rsq, const int k, T& e) const {
    const T r2i = T(1) / rsq;
    const T r6i = r2i * r2i * r2i;
    if constexpr (OneType) {
      if constexpr (Energy) e = r6i * (c0[3] * r6i - c0[4]) - c0[5];
      return r6i * (c0[1] * r6i - c0[2]) * r2i;
    } else {
      if constexpr (Energy) e = r6i * (lj3[k] * r6i - lj4[k]) - offset[k];
      return r6i * (lj1[k] * r6i - lj2[k]) * r2i;
    }
  }
  KOKKOS_INLINE_FUNCTION int pair(const int ti, const int tj) const { return ti * kMaxTypes + tj; }
};

template <class T>
LJTable<T> make_lj_table(const PairCoeffs& pc, bool shift) {
  constexpr int P = kMaxTypes * kMaxTypes;
  LJTable<T> t{};
  t.ntypes = pc.ntypes;
  t.store = Kokkos::View<T*>("LJTable", 6 * P);
  auto h = Kokkos::create_mirror_view(t.store);
  for (int a = 0; a < pc.ntypes; ++a)
    for (int b = 0; b < pc.ntypes; ++b) {
      const double eps = pc.at(pc.epsilon, a, b), sig = pc.at(pc.sigma, a, b);
      const double rc = pc.at(pc.cutoff, a, b);
      const double s6 = std::pow(sig, 6), s12 = s6 * s6;
      const int k = a * kMaxTypes + b;
      const double ratio6 = std::pow(sig / rc, 6);
      const double c[6] = {rc * rc,         48.0 * eps * s12,
                           24.0 * eps * s6, 4.0 * eps * s12,
                           4.0 * eps * s6,  shift ? 4.0 * eps * (ratio6 * ratio6 - ratio6) : 0.0};
      for (int q = 0; q < 6; ++q) h(q * P + k) = static_cast<T>(c[q]);
    }
  Kokkos::deep_copy(t.store, h);
  const T* base = t.store.data();
  t.cutsq = base;
  t.lj1 = base + P;
  t.lj2 = base + 2 * P;
  t.lj3 = base + 3 * P;
  t.lj4 = base + 4 * P;
  t.offset = base + 5 * P;
  for (int q = 0; q < 6; ++q) t.c0[q] = h(q * P);
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

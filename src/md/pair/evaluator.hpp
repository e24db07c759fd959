#pragma once
// What a pair potential is to the force loops (HOOMD's evaluator, LAMMPS' compute_fpair): a small
// struct, copied into every kernel, that answers for a type pair k = ti * kMaxTypes + tj
//   cutsq<OneType>(k)               the cut-off squared;
//   force<Energy, OneType>(rsq, k, e)  F/r at squared distance rsq inside the cut-off (F = F/r *
//   dr),
//                                   and the pair energy into e when Energy;
//   eval<Energy, OneType>(rsq, k, e)   the same, zero beyond the cut-off;
// and ntypes (OneType: ntypes == 1, the loop reads pair (0, 0) from the inline copy and never
// decodes a neighbour's type). Every loop in src/md/pair/ is a template on the evaluator; a new
// potential is its header (the evaluator, its coefficients in a PairTable, its PairEvaluatorFor
// specialisation), its Spec in PairStyleSpecs (styles.hpp), a NAME_force.cpp that instantiates
// its drivers (MDREMAP_PAIR_DRIVERS; listed in src/CMakeLists.txt) and its header's include in
// force.cpp.
#include <Kokkos_Core.hpp>
#include <array>
#include <string>

#include "md/params.hpp"
#include "mdremap/atoms.hpp"

// An evaluator's functions: force-inlined into the CUDA kernels (the pipelined loop's registers
// and memory accesses stay those of the hand-written loop), plain inline on the host, where
// GCC's always_inline changed which virial sums it fuses into FMAs (thermo off in the last bit).
#ifdef __CUDACC__
#define MDREMAP_PAIR_FUNCTION KOKKOS_FORCEINLINE_FUNCTION
#else
#define MDREMAP_PAIR_FUNCTION KOKKOS_INLINE_FUNCTION
#endif

namespace mdremap::md {

// N coefficients per type pair, the first the cut-off squared, in device memory and reached
// through raw pointers into one View; pair (0, 0)'s are kept inline as well. With the arrays
// inline the force functor grew past 512 bytes, which Kokkos launches through constant memory,
// one launch at a time across streams, serialising dup's chunk pipeline (seed 000 §5.1).
template <class T, int N>
struct PairTable {
  using Scalar = T;
  static constexpr int kCoefficients = N;
  int ntypes = 1;
  const T* c[N] = {};      // c[q][ti * kMaxTypes + tj]
  T c0[N] = {};            // pair (0, 0) (the one-type loops)
  Kokkos::View<T*> store;  // owns the arrays

  template <int Q, bool OneType = false>
  MDREMAP_PAIR_FUNCTION T at(const int k) const {
    if constexpr (OneType)
      return c0[Q];
    else
      return c[Q][k];
  }
  template <bool OneType = false>
  MDREMAP_PAIR_FUNCTION T cutsq(const int k) const {
    return at<0, OneType>(k);
  }
  KOKKOS_INLINE_FUNCTION int pair(const int ti, const int tj) const { return ti * kMaxTypes + tj; }
};

// Fills a table from coef(a, b) -> std::array<double, N> (in double, rounded once to T).
template <class Table, class Coef>
Table make_pair_table(const PairCoeffs& pc, Coef&& coef) {
  constexpr int N = Table::kCoefficients;
  constexpr int P = kMaxTypes * kMaxTypes;
  using T = typename Table::Scalar;
  Table t{};
  t.ntypes = pc.ntypes;
  t.store = Kokkos::View<T*>("PairTable", N * P);
  auto h = Kokkos::create_mirror_view(t.store);
  for (int a = 0; a < pc.ntypes; ++a)
    for (int b = 0; b < pc.ntypes; ++b) {
      const std::array<double, N> v = coef(a, b);
      for (int q = 0; q < N; ++q) h(q * P + a * kMaxTypes + b) = static_cast<T>(v[q]);
    }
  Kokkos::deep_copy(t.store, h);
  for (int q = 0; q < N; ++q) {
    t.c[q] = t.store.data() + q * P;
    t.c0[q] = h(q * P);
  }
  return t;
}

}  // namespace mdremap::md

#pragma once
// The LJ evaluator (lj.hpp) on AVX-512 lanes: 8 doubles or 16 floats, one neighbour per lane, for
// the host full-list loop (full_avx512.hpp). The same math as LJ::force with 1/r^2 a masked
// division (exact, as the scalar form) and a*b-c fused (fmsub): it differs from the scalar form
// in rounding only (tests/md/test_pair.cpp holds them together).
#include "neighbor/avx512.hpp"
#ifdef MDREMAP_HOST_AVX512
#include <type_traits>

#include "md/pair/lj.hpp"

namespace mdremap::md::avx512 {

using mdremap::avx512::F32;
using mdremap::avx512::F64;

template <class C>
using LanesOf = std::conditional_t<std::is_same_v<C, double>, F64, F32>;

// The intrinsic form of an evaluator's math, found by its Form (P::Form): Lanes<Form, L>. An
// evaluator whose Form has none runs the host loop's `omp simd` form instead (full_host.hpp).
template <class Form, class L>
struct Lanes;
template <class Form, class L, class = void>
struct HasLanes : std::false_type {};
template <class Form, class L>
struct HasLanes<Form, L, std::void_t<decltype(sizeof(Lanes<Form, L>))>> : std::true_type {};

template <class C, class L>
struct Lanes<LJ<C>, L> {
  using V = typename L::V;
  using M = typename L::M;
  using I = typename L::I;
  // Pair (0, 0)'s coefficients: loop constants for one type; reloaded per step otherwise.
  V cut, c1, c2, c3, c4, off;
  explicit Lanes(const LJ<C>& lj)
      : cut(L::set1(lj.c0[0])),
        c1(L::set1(lj.c0[1])),
        c2(L::set1(lj.c0[2])),
        c3(L::set1(lj.c0[3])),
        c4(L::set1(lj.c0[4])),
        off(L::set1(lj.c0[5])) {}
  // The lanes' type pairs k (lanes outside m untouched): the energy terms only when asked.
  template <bool Energy>
  void load(const M m, const I k, const LJ<C>& lj) {
    using P = LJ<C>;
    cut = L::gather(m, k, lj.c[P::kCutsq]);
    c1 = L::gather(m, k, lj.c[P::kLj1]);
    c2 = L::gather(m, k, lj.c[P::kLj2]);
    if constexpr (Energy) {
      c3 = L::gather(m, k, lj.c[P::kLj3]);
      c4 = L::gather(m, k, lj.c[P::kLj4]);
      off = L::gather(m, k, lj.c[P::kOffset]);
    }
  }
  V cutsq() const { return cut; }
  // F/r on the lanes of `in` (zero elsewhere) and, with Energy, their pair energy (zero elsewhere).
  template <bool Energy>
  V force(const M in, const V rsq, V& e) const {
    const V r2i = L::maskz_div(in, L::set1(C(1)), rsq);
    const V r6i = L::mul(L::mul(r2i, r2i), r2i);
    if constexpr (Energy) e = L::maskz_sub(in, L::mul(r6i, L::fmsub(c3, r6i, c4)), off);
    return L::mul(L::mul(r6i, L::fmsub(c1, r6i, c2)), r2i);
  }
};

}  // namespace mdremap::md::avx512
#endif

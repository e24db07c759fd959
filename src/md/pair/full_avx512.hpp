#pragma once
// AVX-512 form of the host full-list sum (one atom against its row-major neighbour row), for any
// evaluator with an intrinsic form (lj_avx512.hpp).
//
// Why intrinsics: the `omp simd` loop (full_host.hpp) compiles to a slow masked gather form under
// GCC, and Kokkos's own SIMD types fall back to scalars here because Kokkos is installed
// architecture-neutral (one install serves every x86 CI machine). Lanes are neighbours: 8 doubles
// or 16 floats per step, the row's indices loaded contiguously, positions gathered (x, y, z of
// Vec4 records), the cutoff a lane mask. Each lane keeps a partial sum, so the result differs
// from the scalar loop in rounding only and is the same on every run. The masked gather/scatter
// half-list form measured slower (three extra gathers and three scatters per eight pairs;
// docs/benchmarks.md).
#include "md/pair/lj_avx512.hpp"
#ifdef MDREMAP_HOST_AVX512

namespace mdremap::md::avx512 {

// Accumulators in precision A (force) or double (energy, virial). Lanes outside the cutoff carry
// zeros (the pair force is computed masked), so plain adds are exact no-ops there.
template <class A, class L>
struct Acc;
template <>
struct Acc<double, F64> {  // double lanes into double
  __m512d s = _mm512_setzero_pd();
  void add(__m512d v) { s = _mm512_add_pd(s, v); }
  void add_product(__m512d a, __m512d b) { add(_mm512_mul_pd(a, b)); }
  double sum() const { return _mm512_reduce_add_pd(s); }
};
template <>
struct Acc<float, F32> {  // float lanes into float
  __m512 s = _mm512_setzero_ps();
  void add(__m512 v) { s = _mm512_add_ps(s, v); }
  float sum() const { return _mm512_reduce_add_ps(s); }
};
template <>
struct Acc<double, F32> {  // float lanes widened into two double accumulators
  __m512d lo = _mm512_setzero_pd(), hi = _mm512_setzero_pd();
  void add(__m512 v) {
    lo = _mm512_add_pd(lo, F32::lo_pd(v));
    hi = _mm512_add_pd(hi, F32::hi_pd(v));
  }
  // a * b in double, as the scalar loop's double(a) * double(b).
  void add_product(__m512 a, __m512 b) {
    lo = _mm512_fmadd_pd(F32::lo_pd(a), F32::lo_pd(b), lo);
    hi = _mm512_fmadd_pd(F32::hi_pd(a), F32::hi_pd(b), hi);
  }
  double sum() const { return _mm512_reduce_add_pd(_mm512_add_pd(lo, hi)); }
};

// One atom's full-list sum: idx is its row (contiguous, cnt entries), xd the Vec4 records of
// local atoms and ghosts. OneType: one atom type, coefficients are loop constants; otherwise the
// pair's coefficients are gathered by ti * kMaxTypes + tj.
template <bool EV, bool OneType, class P, class C, class A>
inline void pair_full_atom(const C* __restrict xd, const int* __restrict idx, const int cnt,
                           const P& pot, const Vec4<C>& xi, A& fxo, A& fyo, A& fzo, double& e,
                           double& w) {
  using L = LanesOf<C>;
  using V = typename L::V;
  using M = typename L::M;
  using I = typename L::I;
  using Form = typename P::Form;
  const V xx = L::set1(xi.x), xy = L::set1(xi.y), xz = L::set1(xi.z);
  const int ti = static_cast<int>(xi.w) * kMaxTypes;
  const I vti = L::set1i(ti);
  Lanes<Form, L> ev(static_cast<const Form&>(pot));
  Acc<A, L> fx, fy, fz;
  Acc<double, L> ei, wi;
  for (int jj = 0; jj < cnt; jj += L::W) {
    const M m = L::tail(cnt - jj);
    const I vi = L::times4(L::load_idx(m, idx + jj));
    const V dx = L::sub(xx, L::gather(m, vi, xd));
    const V dy = L::sub(xy, L::gather(m, vi, xd + 1));
    const V dz = L::sub(xz, L::gather(m, vi, xd + 2));
    const V rsq = L::fmadd(dz, dz, L::fmadd(dy, dy, L::mul(dx, dx)));
    if constexpr (!OneType)
      ev.template load<EV>(m, L::add(vti, L::to_int(L::gather(m, vi, xd + 3))), pot);
    const M in = L::lt(m, rsq, ev.cutsq());
    V ep{};
    const V fp = ev.template force<EV>(in, rsq, ep);  // zero outside `in`
    fx.add(L::mul(fp, dx));
    fy.add(L::mul(fp, dy));
    fz.add(L::mul(fp, dz));
    if constexpr (EV) {
      ei.add(ep);
      wi.add_product(fp, rsq);
    }
  }
  fxo = fx.sum();
  fyo = fy.sum();
  fzo = fz.sum();
  if constexpr (EV) {
    e += 0.5 * ei.sum();  // each pair is seen from both atoms
    w += 0.5 * wi.sum();
  }
}

}  // namespace mdremap::md::avx512
#endif

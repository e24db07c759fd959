#pragma once
// Lane traits for the host's AVX-512 loops (src/md/pair/full_avx512.hpp: the full-list pair sum;
// neighbor/build_avx512.hpp: the list build's candidate test): 8 doubles with their int32
// indices in a __m256i, or 16 floats with theirs in a __m512i. Compiled only where the compiler
// targets AVX-512 (the openmp preset builds with -march=native) and never in CUDA translation
// units; MDREMAP_HOST_AVX512 tells the callers, which keep a portable loop for other machines.
// MDREMAP_NO_AVX512 (CMake option MDREMAP_PORTABLE=ON) turns the AVX-512 loops off (to compare
// against the portable ones).
#if defined(__AVX512F__) && defined(__AVX512VL__) && !defined(__CUDACC__) && \
    !defined(MDREMAP_NO_AVX512)
#define MDREMAP_HOST_AVX512 1
#include <immintrin.h>

namespace mdremap::avx512 {

// Lane traits: 8 doubles (indices in a __m256i) or 16 floats (indices in a __m512i).
struct F64 {
  using S = double;
  using V = __m512d;
  using M = __mmask8;
  using I = __m256i;
  static constexpr int W = 8;
  static M tail(int r) { return r >= W ? M(0xff) : M((1u << r) - 1); }
  static I load_idx(M m, const int* p) { return _mm256_maskz_loadu_epi32(m, p); }
  static I times4(I v) { return _mm256_slli_epi32(v, 2); }
  static I add(I a, I b) { return _mm256_add_epi32(a, b); }
  static I set1i(int v) { return _mm256_set1_epi32(v); }
  static V gather(M m, I vi, const S* base) {
    return _mm512_mask_i32gather_pd(_mm512_setzero_pd(), m, vi, base, 8);
  }
  static I to_int(V v) { return _mm512_cvttpd_epi32(v); }
  static V set1(S v) { return _mm512_set1_pd(v); }
  static V load(M m, const S* p) { return _mm512_maskz_loadu_pd(m, p); }
  static V sub(V a, V b) { return _mm512_sub_pd(a, b); }
  static V mul(V a, V b) { return _mm512_mul_pd(a, b); }
  static V fmadd(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
  static V fmsub(V a, V b, V c) { return _mm512_fmsub_pd(a, b, c); }
  static V maskz_div(M m, V a, V b) { return _mm512_maskz_div_pd(m, a, b); }
  static V maskz_sub(M m, V a, V b) { return _mm512_maskz_sub_pd(m, a, b); }
  static M lt(M m, V a, V b) { return _mm512_mask_cmp_pd_mask(m, a, b, _CMP_LT_OQ); }
  static M le(M m, V a, V b) { return _mm512_mask_cmp_pd_mask(m, a, b, _CMP_LE_OQ); }
  // The mask's lanes of v packed to the front (the others zero).
  static I compress(M m, I v) { return _mm256_maskz_compress_epi32(m, v); }
  static void store_first(int* p, int count, I v) {
    _mm256_mask_storeu_epi32(p, static_cast<__mmask8>((1u << count) - 1), v);
  }
};

struct F32 {
  using S = float;
  using V = __m512;
  using M = __mmask16;
  using I = __m512i;
  static constexpr int W = 16;
  static M tail(int r) { return r >= W ? M(0xffff) : M((1u << r) - 1); }
  static I load_idx(M m, const int* p) { return _mm512_maskz_loadu_epi32(m, p); }
  static I times4(I v) { return _mm512_slli_epi32(v, 2); }
  static I add(I a, I b) { return _mm512_add_epi32(a, b); }
  static I set1i(int v) { return _mm512_set1_epi32(v); }
  static V gather(M m, I vi, const S* base) {
    return _mm512_mask_i32gather_ps(_mm512_setzero_ps(), m, vi, base, 4);
  }
  static I to_int(V v) { return _mm512_cvttps_epi32(v); }
  static V set1(S v) { return _mm512_set1_ps(v); }
  static V load(M m, const S* p) { return _mm512_maskz_loadu_ps(m, p); }
  static V sub(V a, V b) { return _mm512_sub_ps(a, b); }
  static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V fmadd(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V fmsub(V a, V b, V c) { return _mm512_fmsub_ps(a, b, c); }
  static V maskz_div(M m, V a, V b) { return _mm512_maskz_div_ps(m, a, b); }
  static V maskz_sub(M m, V a, V b) { return _mm512_maskz_sub_ps(m, a, b); }
  static M lt(M m, V a, V b) { return _mm512_mask_cmp_ps_mask(m, a, b, _CMP_LT_OQ); }
  // Lanes 0-7 and 8-15 widened to doubles.
  static __m512d lo_pd(V v) { return _mm512_cvtps_pd(_mm512_castps512_ps256(v)); }
  static __m512d hi_pd(V v) {
    return _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)));
  }
  static M le(M m, V a, V b) { return _mm512_mask_cmp_ps_mask(m, a, b, _CMP_LE_OQ); }
  static I compress(M m, I v) { return _mm512_maskz_compress_epi32(m, v); }
  static void store_first(int* p, int count, I v) {
    _mm512_mask_storeu_epi32(p, static_cast<__mmask16>((1u << count) - 1), v);
  }
};

}  // namespace mdremap::avx512
#endif

#pragma once
// The host (OpenMP) full-list loop. Over the plain gather: the AVX-512 row loop where the
// evaluator has an intrinsic form and the list is row-major (full_avx512.hpp), else one `omp simd`
// loop over raw pointers; every other accessor walks portably (full_portable.hpp).
#include "md/pair/full_avx512.hpp"
#include "md/pair/full_portable.hpp"

namespace mdremap::md {

// One atom's full-list sum over the plain gather with one `omp simd` loop, so the compiler
// vectorises across neighbours (the cutoff test becomes a lane mask). The sums become per-lane
// partial sums: the result differs from the scalar loop in rounding only, and is the same on
// every run.
template <bool EV, class P, class C, class A>
inline void full_atom_simd(const C* __restrict xd, const int* __restrict idx, const std::int64_t sj,
                           const int cnt, const P& pot, const Vec4<C>& xi, A& fxo, A& fyo, A& fzo,
                           double& e, double& w) {
  A fx = 0, fy = 0, fz = 0;
  double ei = 0, wi = 0;
  const C xx = xi.x, xy = xi.y, xz = xi.z;
  const int ti = static_cast<int>(xi.w) * kMaxTypes;
  // One type (the common case): k is the constant 0, so the coefficients are loop constants.
  auto loop = [&](auto one_type) {
#pragma omp simd reduction(+ : fx, fy, fz, ei, wi)
    for (int jj = 0; jj < cnt; ++jj) {
      const std::int64_t j = 4 * std::int64_t(idx[jj * sj]);
      const C dx = xx - xd[j], dy = xy - xd[j + 1], dz = xz - xd[j + 2];
      const C rsq = dx * dx + dy * dy + dz * dz;
      const int k = decltype(one_type)::value ? 0 : ti + static_cast<int>(xd[j + 3]);
      if (rsq < pot.cutsq(k)) {
        C ep = 0;
        const C fp = pot.template force<EV>(rsq, k, ep);
        fx += fp * dx;
        fy += fp * dy;
        fz += fp * dz;
        if constexpr (EV) {
          ei += ep;
          wi += double(fp) * double(rsq);
        }
      }
    }
  };
  if (pot.ntypes == 1)
    loop(std::true_type{});
  else
    loop(std::false_type{});
  fxo = fx;
  fyo = fy;
  fzo = fz;
  if constexpr (EV) {
    e += 0.5 * ei;
    w += 0.5 * wi;
  }
}

struct HostFullLoop {
  using Rows = PortableRows;  // a thread split over lanes (never on a host backend)
  template <bool EV, class P, class C, class A, class Access>
  static void atom(const Access& nb, const Kokkos::View<const Vec4<C>*>& x,
                   const Kokkos::View<A* [3]>& f, const P& pot, const std::int64_t i, double& e,
                   double& w) {
    if constexpr (kWalksIndex<Access>) {
      A fx, fy, fz;
      const C* xd = reinterpret_cast<const C*>(nb.data.data());
      const int* row = nb.index.data() + i * nb.stride_t;
#ifdef MDREMAP_HOST_AVX512
      constexpr bool lanes = avx512::HasLanes<typename P::Form, avx512::LanesOf<C>>::value;
      if constexpr (lanes) {
        if (nb.stride_j == 1 && pot.ntypes == 1)  // row-major: the row's indices are contiguous
          avx512::pair_full_atom<EV, true, P, C, A>(xd, row, nb.count(i), pot, x(i), fx, fy, fz, e,
                                                    w);
        else if (nb.stride_j == 1)
          avx512::pair_full_atom<EV, false, P, C, A>(xd, row, nb.count(i), pot, x(i), fx, fy, fz, e,
                                                     w);
        else
          full_atom_simd<EV, P, C, A>(xd, row, nb.stride_j, nb.count(i), pot, x(i), fx, fy, fz, e,
                                      w);
      } else
#endif
        full_atom_simd<EV, P, C, A>(xd, row, nb.stride_j, nb.count(i), pot, x(i), fx, fy, fz, e, w);
      f(i, 0) = fx;
      f(i, 1) = fy;
      f(i, 2) = fz;
    } else {
      full_atom<PortableRows, EV>(nb, x, f, pot, i, e, w);
    }
  }
};

}  // namespace mdremap::md

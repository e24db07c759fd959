#pragma once
// The host's cluster rows (OpenMP): one i atom against a j-cluster's M atoms as one `omp simd`
// loop, the j atoms in the SIMD lanes (GROMACS' CPU kernels put the j-cluster across a SIMD
// register the same way, Páll & Hess 2013 §4.1; M = the SIMD width is the default cluster size
// on a CPU). Each lane keeps its own partial sums over the whole row, reduced once at its end,
// so the result differs from the portable walk in rounding only and is the same on every run.
// The arithmetic is the evaluator's (cutsq, force), as in full_host.hpp's simd loop.
#include <cstdint>
#include <type_traits>

#include "md/pair/cluster_portable.hpp"

namespace mdremap::md {

struct HostClusterRows {
  template <int M, class Pair, class C>
  static void run(const ClusterArgs<C>& a, const std::int64_t row, const int cnt, const int word,
                  const int shift, const Pair& pair) {
    using A = std::remove_reference_t<decltype(pair.fx)>;
    constexpr bool EV = Pair::kEnergy, One = Pair::kOneType;
    constexpr int W = neighbor::cluster_mask_words(M);
    constexpr std::uint32_t kRowBits = M >= 32 ? ~0u : (1u << M) - 1u;
    // A local copy: read through the kernel's reference, the coefficients kept GCC from
    // vectorising the loop below.
    const std::remove_cv_t<std::remove_reference_t<decltype(pair.pot)>> pot = pair.pot;
    const C xx = pair.xi.x, xy = pair.xi.y, xz = pair.xi.z;
    const int ti = pair.ti;
    A fx[M] = {}, fy[M] = {}, fz[M] = {};
    // Lane jj's mask bit as a vector of constants (GCC does not vectorise bits >> jj).
    std::int64_t lane[M];
    for (int jj = 0; jj < M; ++jj) lane[jj] = std::int64_t(1) << jj;
    double ev[M] = {}, wv[M] = {};
    const C* const xd = reinterpret_cast<const C*>(a.xc.data());
    const int* const cj = a.cj.data();
    const std::uint32_t* const mask = a.mask.data();
    for (int k = 0; k < cnt; ++k) {
      const std::uint32_t bits = (mask[(row + k) * W + word] >> shift) & kRowBits;
      const C* const xj = xd + 4 * (std::int64_t(cj[row + k]) * M);
#pragma omp simd
      for (int jj = 0; jj < M; ++jj) {
        const C dx = xx - xj[4 * jj], dy = xy - xj[4 * jj + 1], dz = xz - xj[4 * jj + 2];
        const C rsq = dx * dx + dy * dy + dz * dz;
        const int kk = One ? 0 : ti + static_cast<int>(xj[4 * jj + 3]);
        // Branch-free, so the lanes vectorise: every lane evaluates (at a harmless distance where
        // its mask bit is off or it is beyond the cut-off) and keeps its result or zero.
        const bool on =
            ((std::int64_t(bits) & lane[jj]) != 0) & (rsq < pot.template cutsq<One>(kk));
        C ep = 0;
        const C fp0 = pot.template force<EV, One>(on ? rsq : C(1), kk, ep);
        const C fp = on ? fp0 : C(0);
        fx[jj] += fp * dx;
        fy[jj] += fp * dy;
        fz[jj] += fp * dz;
        if constexpr (EV) {
          ev[jj] += on ? ep : C(0);
          wv[jj] += double(fp) * double(rsq);
        }
      }
    }
    for (int jj = 0; jj < M; ++jj) {
      pair.fx += fx[jj];
      pair.fy += fy[jj];
      pair.fz += fz[jj];
      if constexpr (EV) {
        pair.ei += ev[jj];
        pair.wi += wv[jj];
      }
    }
  }
};

}  // namespace mdremap::md

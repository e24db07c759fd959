#pragma once
// Half list (Newton's third law) for any evaluator: each pair once, the partner's force scattered
// through the list (atomics on the GPU through Kokkos::ScatterView). Only the gather serves it:
// the kernel writes through the pattern (RemapOptions::writes_through_pattern).
#include <Kokkos_ScatterView.hpp>
#include <cstdint>

#include "mdremap/atoms.hpp"
#include "mdremap/remap/accessors.hpp"
#include "mdremap/remap/strategy.hpp"

namespace mdremap::md {

template <class P, class C, class A, class Scatter>
struct HalfBody {
  static constexpr remap::PatternLayout kLayout = remap::PatternLayout::Strided;
  static constexpr bool kWritesThroughPattern = true;
  Kokkos::View<const Vec4<C>*> x;
  Scatter fs;
  P pot;
  Kokkos::View<const int*> owner;
  std::int64_t nlocal;

  template <bool EV, class Access>
  KOKKOS_INLINE_FUNCTION void thread(const std::int64_t i, const Access& nb,
                                     remap::Sums2& s) const {
    double& e = s.s0;
    double& w = s.s1;
    auto fa = fs.access();
    const Vec4<C> xi = x(i);
    const int ti = static_cast<int>(xi.w) * kMaxTypes;
    A fx = 0, fy = 0, fz = 0;
    double ei = 0, wi = 0;
    const int cnt = nb.count(i);
    for (int jj = 0; jj < cnt; ++jj) {
      const auto& xj = nb(jj, i);
      const C dx = xi.x - xj.x, dy = xi.y - xj.y, dz = xi.z - xj.z;
      const C rsq = dx * dx + dy * dy + dz * dz;
      const int k = ti + static_cast<int>(xj.w);
      if (rsq < pot.cutsq(k)) {  // one branch per pair: about a third of the list is beyond rc
        C ep = 0;
        const C fp = pot.template force<EV>(rsq, k, ep);
        int j = nb.source(jj, i);
        if (j >= nlocal) j = owner(j - nlocal);  // a ghost's force goes to its owner
        fx += fp * dx;
        fy += fp * dy;
        fz += fp * dz;
        fa(j, 0) -= A(fp * dx);
        fa(j, 1) -= A(fp * dy);
        fa(j, 2) -= A(fp * dz);
        if constexpr (EV) {
          ei += ep;
          wi += double(fp) * double(rsq);
        }
      }
    }
    fa(i, 0) += fx;
    fa(i, 1) += fy;
    fa(i, 2) += fz;
    if constexpr (EV) {
      e += ei;
      w += wi;
    }
  }
};

}  // namespace mdremap::md

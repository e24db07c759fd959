#pragma once
// A single-pattern kernel over any irregular reference: out[t] = sum_j proj(A[P[j][t]]), the
// shape of seed 001's MERGE benchmark. Its only thread-indexed reference besides the gather is
// the coalesced output write, so every strategy applies, padding included (seed 001 §3.3).
#include "mdremap/remap/strategy.hpp"

namespace mdremap::remap {

template <class T, class Proj, PatternLayout L = PatternLayout::Strided>
struct GatherReduceBody {
  static constexpr PatternLayout kLayout = L;
  static constexpr int kReferencePatterns = 1;
  Kokkos::View<double*> out;  // indexed by the thread id the strategy runs (padding: new order)
  Proj proj;
  template <bool EV, class Access>
  KOKKOS_INLINE_FUNCTION void thread(const std::int64_t t, const Access& a, Sums2& s) const {
    double sum = 0;
    const int n = a.count(t);
    for (int j = 0; j < n; ++j) sum += proj(a(j, t));
    out(t) = sum;
    if constexpr (EV) s.s0 += sum;
  }
};

}  // namespace mdremap::remap

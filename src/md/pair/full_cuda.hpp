#pragma once
// The CUDA full-list loop: the plain gather software-pipelined; every other accessor (dup's
// remapped rows, sharing's shared memory) walks its rows portably. Only the walk is here: the
// arithmetic is the evaluator's (FullPair, force-inlined), so a potential changes no memory access.
#include "md/pair/full_portable.hpp"
#include "mdremap/remap/texture.hpp"

namespace mdremap::md {

// Element e, the k-th reference of the thread's walk: an accessor that numbers its elements
// (the split path, remap.gather_path split: a 16-byte record alternates the L1's pipes) takes k.
template <class Access>
KOKKOS_FORCEINLINE_FUNCTION decltype(auto) walk_element(const Access& nb, const int e,
                                                        const int k) {
  if constexpr (remap::AccessTraits<Access>::kNumberedElements)
    return nb.element(e, k);
  else
    return nb.element(e);
}

// The plain gather and the split path (both data pipes of the L1; docs/benchmarks.md has the
// kernel times) are walked here.
// The next kBatch list entries are loaded while the current batch's positions are gathered and
// summed, so each thread keeps several index loads in flight (the list streams from DRAM, read
// once: cache-streaming loads that leave L1/L2 to the positions). Same sums in the same order as
// the portable walk: the forces are bit-identical. Nsight found the plain loop's warps waiting
// on the index load with DRAM far from its bandwidth; a batch of 8 measured slower than 4
// (registers, occupancy; docs/benchmarks.md).
struct CudaPipelinedRows {
  template <class Access, class Pair>
  KOKKOS_FORCEINLINE_FUNCTION static void run(const Access& nb, const std::int64_t i, const int cnt,
                                              const Pair& pair) {
    run_lanes<1>(nb, i, 0, cnt, pair);
  }
  // Lane `lane` of L (remap.lanes): entries lane, lane + L, ... pipelined the same way.
  template <int L, class Access, class Pair>
  KOKKOS_FORCEINLINE_FUNCTION static void run_lanes(const Access& nb, const std::int64_t i,
                                                    const int lane, const int cnt,
                                                    const Pair& pair) {
#ifdef __CUDA_ARCH__
    if constexpr (remap::AccessTraits<Access>::kIndexWalk) {
      // Double-precision lanes (L > 1) prefetch 3: fewer registers under their 4-block cap
      // (driver.hpp).
      constexpr int kBatch = (L > 1 && sizeof(typename Pair::Point) == 32) ? 3 : 4;
      const std::int64_t sj = nb.stride_j * L;
      const int* const idx = nb.index.data() + i * nb.stride_t + lane * nb.stride_j;
      const int mine = cnt > lane ? (cnt - lane + L - 1) / L : 0;
      const int full = mine - mine % kBatch;
      int next[kBatch];
      if (full > 0)
#pragma unroll
        for (int u = 0; u < kBatch; ++u) next[u] = __ldcs(idx + u * sj);
      for (int j = 0; j < full; j += kBatch) {
        int cur[kBatch];
#pragma unroll
        for (int u = 0; u < kBatch; ++u) cur[u] = next[u];
        if (j + kBatch < full)
#pragma unroll
          for (int u = 0; u < kBatch; ++u) next[u] = __ldcs(idx + (j + kBatch + u) * sj);
        typename Pair::Point xj[kBatch];
#pragma unroll
        for (int u = 0; u < kBatch; ++u) xj[u] = walk_element(nb, cur[u], j + u);
#pragma unroll
        for (int u = 0; u < kBatch; ++u) pair(xj[u]);
      }
      for (int j = full; j < mine; ++j) pair(walk_element(nb, __ldcs(idx + j * sj), j));
      return;
    }
#endif
    PortableRows::run_lanes<L>(nb, i, lane, cnt, pair);
  }
};

struct CudaFullLoop {
  using Rows = CudaPipelinedRows;  // also the walk of a thread split over lanes
  template <bool EV, class P, class C, class A, class Access>
  KOKKOS_INLINE_FUNCTION static void atom(const Access& nb, const Kokkos::View<const Vec4<C>*>& x,
                                          const Kokkos::View<A* [3]>& f, const P& pot,
                                          const std::int64_t i, double& e, double& w) {
    full_atom<CudaPipelinedRows, EV>(nb, x, f, pot, i, e, w);
  }
};

}  // namespace mdremap::md

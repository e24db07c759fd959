#pragma once
// The CUDA cluster-pair loop: a thread per i atom (an i-cluster slot), so a warp holds 32 / M
// i-clusters. Each thread walks its i-cluster's row of j-clusters at its own pace, visiting only
// the pairs its mask row selects: it takes the next selected j atom of the current j-cluster
// (find-first-set over the row's bits), and when the row's bits are spent it moves on to the next
// j-cluster whose row is not empty. So a thread evaluates its atom's pairs and nothing else, as
// over a plain full list, while what it reads per pair is a j-cluster index and a mask word per
// cluster pair, shared by the M atoms of the i-cluster, instead of a 4-byte index per pair.
// At the LJ cut-off of 2.5 sigma a mask selects about a quarter of an 8 x 8 cluster pair's atom
// pairs: a warp of 8 i atoms x 4 j-clusters evaluating every one of the 8 j slots with positions
// passed by shuffles (Páll & Hess 2013 §4.2's layout, which suits GROMACS' longer cut-offs) spends
// four slots per useful pair, and ran slower than the plain full list; hence a thread per i atom.
// The j-cluster's positions are one contiguous run of M records that the i-cluster's threads read
// from the same cache lines (seed 001 §3.4's sharing: the working set loaded once, coalesced,
// reused from L1). Where the builder packed the rows per atom (list.packed: clusters of at most 8,
// fewer than 2^24 clusters) a thread reads its atom's non-empty rows instead, one 32-bit word
// (j-cluster, row bits) each, four per load, so it never visits an empty row nor reads a mask word
// for its neighbours' atoms. Full list: a thread's sums are its atom's whole force, written once
// (no atomics). Included in CUDA translation units only.
#include <cstdint>

#include "md/pair/cluster_portable.hpp"

namespace mdremap::md {

// Entry k of an atom slot's packed rows (neighbor::packed_entry_index: `e4` is the slot's first
// group, `slots` the groups' stride), for k counting up from 0: four entries per 16-byte load,
// the group kept in q between calls.
KOKKOS_INLINE_FUNCTION std::uint32_t next_packed_entry(const uint4* __restrict__ e4, const int k,
                                                       const std::int64_t slots, uint4& q) {
#ifdef __CUDA_ARCH__
  if ((k & 3) == 0) q = __ldg(e4 + std::int64_t(k / 4) * slots);
#else
  if ((k & 3) == 0) q = e4[std::int64_t(k / 4) * slots];
#endif
  const int u = k & 3;
  return u == 0 ? q.x : (u == 1 ? q.y : (u == 2 ? q.z : q.w));
}

template <int M, bool EV, bool OneType, class P, class C, class A>
struct CudaClusterLanes {
  static_assert(32 % M == 0, "an i-cluster's threads must lie in one warp");
  static constexpr int W = neighbor::cluster_mask_words(M);
  static constexpr std::uint32_t kRowBits = M >= 32 ? ~0u : (1u << M) - 1u;
  ClusterArgs<C> a;
  Kokkos::View<A* [3]> f;
  P pot;

  // The thread of atom slot `slot`; its energy and virial halves into e, w.
  KOKKOS_INLINE_FUNCTION void lane(const std::int64_t slot, double& e, double& w) const {
#ifdef __CUDA_ARCH__
    const int i = a.atom(slot);
    if (i < 0) return;  // padding: nothing to compute
    const int ic = static_cast<int>(slot / M), ii = static_cast<int>(slot % M);
    const Vec4<C>* __restrict__ const xc = a.xc.data();
    const Vec4<C> xi = xc[slot];
    const int ti = static_cast<int>(xi.w) * kMaxTypes;
    A fx = 0, fy = 0, fz = 0;
    double ei = 0, wi = 0;
    const FullPair<EV, OneType, P, C, A> pair{pot, xi, ti, fx, fy, fz, ei, wi};
    if (a.packed) {
      // The atom's own non-empty rows (cluster_list.hpp), four 32-bit entries per load: each
      // entry is a j-cluster and this atom's mask row against it.
      // Group g of this slot's entries: uint4 g * slots + slot (neighbor::packed_entry_index).
      const std::int64_t slots = std::int64_t(a.n_iclusters) * M;
      const uint4* __restrict__ const e4 = reinterpret_cast<const uint4*>(a.entry.data()) + slot;
      const int n = a.entries(slot);
      uint4 q = make_uint4(0, 0, 0, 0);
      const Vec4<C>* xj = xc;
      std::uint32_t bits = 0;
      for (int k = 0;;) {
        if (bits == 0u) {  // on to the next j-cluster
          if (k >= n) break;
          const std::uint32_t e = next_packed_entry(e4, k, slots, q);
          xj = xc + std::int64_t(e >> 8) * M;
          bits = e & kRowBits;
          ++k;
        }
        // Up to two pairs of the entry per pass (the second where the row has one left): the
        // move to the next entry, which the warp runs whenever any thread needs it, is paid
        // once per two pairs, and both positions are in flight before the first is evaluated.
        // (Four per pass ran slower: registers and divergence.)
        const int j0 = __ffs(static_cast<int>(bits)) - 1;
        bits &= bits - 1u;
        const Vec4<C> p0 = xj[j0];
        const bool two = bits != 0u;
        Vec4<C> p1 = p0;
        if (two) {
          const int j1 = __ffs(static_cast<int>(bits)) - 1;
          bits &= bits - 1u;
          p1 = xj[j1];
        }
        pair(p0);
        if (two) pair(p1);
      }
    } else {
      const std::int64_t row = std::int64_t(ic) * a.cap;
      const int* __restrict__ const cj = a.cj.data() + row;  // the i-cluster's row
      const std::uint32_t* __restrict__ const mask = a.mask.data() + row * W + (ii * M) / 32;
      const int shift = (ii * M) % 32, cnt = a.count(ic);
      // (Loading the next entry and a batch of 4 positions ahead, as the plain list's walk
      // does, ran slower: docs/benchmarks.md.)
      const Vec4<C>* xj = xc;
      std::uint32_t bits = 0;
      for (int k = 0;;) {
        while (bits == 0u && k < cnt) {  // on to the next j-cluster with pairs for this atom
          xj = xc + std::int64_t(__ldg(cj + k)) * M;
          bits = (__ldg(mask + std::int64_t(k) * W) >> shift) & kRowBits;
          ++k;
        }
        if (bits == 0u) break;  // the row is done
        const int jj = __ffs(static_cast<int>(bits)) - 1;
        bits &= bits - 1u;
        pair(xj[jj]);
      }
    }
    f(i, 0) = fx;
    f(i, 1) = fy;
    f(i, 2) = fz;
    if constexpr (EV) {
      e += 0.5 * ei;  // each pair is seen from both atoms
      w += 0.5 * wi;
    }
#else
    (void)slot, (void)e, (void)w;
    Kokkos::abort("CudaClusterLanes runs on the GPU only");
#endif
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t slot) const {
    double e = 0, w = 0;
    lane(slot, e, w);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t slot, remap::Sums2& s) const {
    lane(slot, s.s0, s.s1);
  }
};

// Every cluster size: a thread per i-cluster slot, 128 threads a block.
struct CudaClusterLoop {
  template <int M, bool EV, bool OneType, class P, class C, class A>
  static void run(const ClusterArgs<C>& a, const Kokkos::View<A* [3]>& f, const P& pot,
                  remap::Sums2& sums) {
    const std::int64_t slots = std::int64_t(a.n_iclusters) * M;
    if (slots == 0) return;
    using K = CudaClusterLanes<M, EV, OneType, P, C, A>;
    const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>> policy(0, slots);
    if constexpr (EV)
      Kokkos::parallel_reduce("ForceLJ::cluster_lanes_ev", policy, K{a, f, pot}, sums);
    else
      Kokkos::parallel_for("ForceLJ::cluster_lanes", policy, K{a, f, pot});
  }
};

}  // namespace mdremap::md

#pragma once
// The CUDA cluster-pair loop for clusters of 8 (the GPU default): a warp per i-cluster, its 32
// lanes 8 i atoms x 4 j-clusters (GROMACS' GPU kernels split a warp over i and j atoms the same
// way, Páll & Hess 2013 §4.2). The warp walks its row four j-clusters at a time: the 8 lanes of
// a quarter load their j-cluster's 8 positions, one coalesced run, and pass them to each other
// by shuffles (seed 001 §3.4's sharing in registers: each position is loaded once per warp and
// read by the 8 i atoms). Each lane then evaluates its i atom against the 8 j atoms of its
// quarter's cluster that the mask row selects, through the evaluator (FullPair); the four
// quarters' sums of an i atom meet by shuffles at the end. Full list: no atomics. Other cluster
// sizes run the portable loop. Included in CUDA translation units only.
#include <cstdint>

#include "md/pair/cluster_portable.hpp"

namespace mdremap::md {

template <bool EV, bool OneType, class P, class C, class A>
struct CudaClusterWarps {
  static constexpr int M = 8, W = neighbor::cluster_mask_words(M), kWarps = 4;  // per team
  using Member = Kokkos::TeamPolicy<ExecSpace>::member_type;
  ClusterArgs<C> a;
  Kokkos::View<A* [3]> f;
  P pot;

  // Lane `lane` of the warp of i-cluster ic; its energy and virial halves into e, w.
  KOKKOS_INLINE_FUNCTION void warp(const int ic, const int lane, double& e, double& w) const {
#ifdef __CUDA_ARCH__
    constexpr unsigned kAll = 0xffffffffu;
    const int ii = lane & (M - 1), quarter = lane / M, base = lane & ~(M - 1);
    const std::int64_t slot = std::int64_t(ic) * M + ii;
    const int i = a.atom(slot);  // -1: padding (the lane still shuffles)
    const Vec4<C> xi = a.xc(slot);
    const int ti = static_cast<int>(xi.w) * kMaxTypes;
    A fx = 0, fy = 0, fz = 0;
    double ei = 0, wi = 0;
    const FullPair<EV, OneType, P, C, A> pair{pot, xi, ti, fx, fy, fz, ei, wi};
    const std::int64_t row = std::int64_t(ic) * a.cap;
    const int cnt = a.count(ic);
    const int word = (ii * M) / 32, shift = (ii * M) % 32;
    for (int k0 = 0; k0 < cnt; k0 += 32 / M) {
      const int k = k0 + quarter;
      int c = 0;
      std::uint32_t bits = 0;
      if (k < cnt) {
        c = __ldg(&a.cj(row + k));
        bits = (__ldg(&a.mask((row + k) * W + word)) >> shift) & 0xffu;
      }
      if (i < 0) bits = 0;
      const Vec4<C> mine = a.xc(std::int64_t(c) * M + ii);  // this quarter's j atom ii
#pragma unroll
      for (int jj = 0; jj < M; ++jj) {
        Vec4<C> xj;
        xj.x = __shfl_sync(kAll, mine.x, base + jj);
        xj.y = __shfl_sync(kAll, mine.y, base + jj);
        xj.z = __shfl_sync(kAll, mine.z, base + jj);
        xj.w = OneType ? C(0) : __shfl_sync(kAll, mine.w, base + jj);
        if ((bits >> jj) & 1u) pair(xj);
      }
    }
    for (int off = M; off < 32; off *= 2) {  // the four quarters' sums of atom ii
      fx += __shfl_xor_sync(kAll, fx, off);
      fy += __shfl_xor_sync(kAll, fy, off);
      fz += __shfl_xor_sync(kAll, fz, off);
    }
    if (quarter == 0 && i >= 0) {
      f(i, 0) = fx;
      f(i, 1) = fy;
      f(i, 2) = fz;
    }
    if constexpr (EV) {
      e += 0.5 * ei;  // each pair is seen from both atoms
      w += 0.5 * wi;
    }
#else
    (void)ic, (void)lane, (void)e, (void)w;
    Kokkos::abort("CudaClusterWarps runs on the GPU only");
#endif
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kWarps), [&](const int t) {
      const int ic = team.league_rank() * kWarps + t;
      if (ic >= a.n_iclusters) return;  // the whole warp
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, 32), [&](const int lane) {
        double e = 0, w = 0;
        warp(ic, lane, e, w);
      });
    });
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, remap::Sums2& sum) const {
    remap::Sums2 team_sum;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, kWarps),
        [&](const int t, remap::Sums2& ts) {
          const int ic = team.league_rank() * kWarps + t;
          if (ic >= a.n_iclusters) return;
          remap::Sums2 cs;
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(team, 32),
              [&](const int lane, remap::Sums2& ls) { warp(ic, lane, ls.s0, ls.s1); }, cs);
          ts += cs;
        },
        team_sum);
    Kokkos::single(Kokkos::PerTeam(team), [&]() { sum += team_sum; });
  }
};

// Clusters of 8: the warp loop (teams of 4 warps, 128 threads); other sizes: the portable one.
struct CudaClusterLoop {
  template <int M, bool EV, bool OneType, class P, class C, class A>
  static void run(const ClusterArgs<C>& a, const Kokkos::View<A* [3]>& f, const P& pot,
                  remap::Sums2& sums) {
    if constexpr (M == 8) {
      using K = CudaClusterWarps<EV, OneType, P, C, A>;
      const int league = (a.n_iclusters + K::kWarps - 1) / K::kWarps;
      if (league == 0) return;
      const K k{a, f, pot};
      const Kokkos::TeamPolicy<ExecSpace> policy(league, K::kWarps, 32);
      if constexpr (EV)
        Kokkos::parallel_reduce("ForceLJ::cluster_warps_ev", policy, k, sums);
      else
        Kokkos::parallel_for("ForceLJ::cluster_warps", policy, k);
    } else {
      RowsClusterLoop<PortableClusterRows>::run<M, EV, OneType>(a, f, pot, sums);
    }
  }
};

}  // namespace mdremap::md

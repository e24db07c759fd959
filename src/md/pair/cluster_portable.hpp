#pragma once
// The portable cluster-pair force loop (neighbor/cluster_list.hpp; GROMACS' NBNXM kernels, Páll &
// Hess 2013 §4): a team thread per i-cluster, its M vector lanes the i-cluster's atoms. Each
// lane walks the i-cluster's row of j-clusters and evaluates the pairs its mask row selects,
// the pair arithmetic being the evaluator's (FullPair, full_portable.hpp), as in every other loop.
// The lanes step through a j-cluster's atoms together, so on a GPU the M lanes read the same
// position at once: one load, broadcast to the lanes (seed 001 §3.4's sharing: the j-cluster's
// M positions are contiguous, loaded once and reused by the i-cluster's M atoms). Full list: a
// lane's sums are its atom's whole force, written once (no Newton's third law, no atomics).
#include <cstdint>

#include "md/pair/full_portable.hpp"
#include "mdremap/remap/device_pattern.hpp"  // Sums2
#include "neighbor/cluster_list.hpp"

namespace mdremap::md {

// The cluster list as the force kernels read it.
template <class C>
struct ClusterArgs {
  Kokkos::View<const Vec4<C>*> xc;  // positions in cluster order (pack_cluster_positions)
  Kokkos::View<const int*> atom, count, cj;
  Kokkos::View<const std::uint32_t*> mask;
  Kokkos::View<const std::uint32_t*> entry;  // the per-atom packed rows (CUDA, list.packed)
  Kokkos::View<const int*> entries;
  bool packed = false;
  int cap = 0;  // row capacity (max_pairs)
  int n_iclusters = 0;
};

// One i atom's sums over its i-cluster's row: for each listed j-cluster, the pairs its mask row
// selects. The portable walk: the lanes step through a j-cluster's atoms together, so on a GPU
// the M lanes of an i-cluster read the same position at once (one load, broadcast).
struct PortableClusterRows {
  template <int M, class Pair, class C>
  KOKKOS_INLINE_FUNCTION static void run(const ClusterArgs<C>& a, const std::int64_t row,
                                         const int cnt, const int word, const int shift,
                                         const Pair& pair) {
    constexpr int W = neighbor::cluster_mask_words(M);
    constexpr std::uint32_t kRowBits = M >= 32 ? ~0u : (1u << M) - 1u;
    for (int k = 0; k < cnt; ++k) {
      const std::uint32_t bits = (a.mask((row + k) * W + word) >> shift) & kRowBits;
      const Vec4<C>* const xj = &a.xc(std::int64_t(a.cj(row + k)) * M);
      for (int jj = 0; jj < M; ++jj)
        if ((bits >> jj) & 1u) pair(xj[jj]);
    }
  }
};

// The cluster loop for Rows (the portable walk above, or the host's SIMD one, cluster_host.hpp).
template <class Rows, int M, bool EV, bool OneType, class P, class C, class A>
struct ClusterKernel {
  using Member = Kokkos::TeamPolicy<ExecSpace>::member_type;
  ClusterArgs<C> a;
  Kokkos::View<A* [3]> f;
  P pot;
  int per_team;  // i-clusters per team (its threads)

  // Lane ii of i-cluster ic: atom slot ic * M + ii.
  KOKKOS_INLINE_FUNCTION void lane(const int ic, const int ii, double& e, double& w) const {
    const std::int64_t slot = std::int64_t(ic) * M + ii;
    const int i = a.atom(slot);
    if (i < 0) return;  // padding
    const Vec4<C> xi = a.xc(slot);
    const int ti = static_cast<int>(xi.w) * kMaxTypes;
    A fx = 0, fy = 0, fz = 0;
    double ei = 0, wi = 0;
    const FullPair<EV, OneType, P, C, A> pair{pot, xi, ti, fx, fy, fz, ei, wi};
    Rows::template run<M>(a, std::int64_t(ic) * a.cap, a.count(ic), (ii * M) / 32, (ii * M) % 32,
                          pair);
    f(i, 0) = fx;
    f(i, 1) = fy;
    f(i, 2) = fz;
    if constexpr (EV) {
      e += 0.5 * ei;  // each pair is seen from both atoms
      w += 0.5 * wi;
    }
  }

  // Forces only (parallel_for).
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, per_team), [&](const int t) {
      const int ic = team.league_rank() * per_team + t;
      if (ic >= a.n_iclusters) return;
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, M), [&](const int ii) {
        double e = 0, w = 0;
        lane(ic, ii, e, w);
      });
    });
  }

  // Forces, energy and virial (parallel_reduce, thermo steps).
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, remap::Sums2& sum) const {
    remap::Sums2 team_sum;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, per_team),
        [&](const int t, remap::Sums2& ts) {
          const int ic = team.league_rank() * per_team + t;
          if (ic >= a.n_iclusters) return;
          remap::Sums2 cs;
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(team, M),
              [&](const int ii, remap::Sums2& ls) { lane(ic, ii, ls.s0, ls.s1); }, cs);
          ts += cs;
        },
        team_sum);
    Kokkos::single(Kokkos::PerTeam(team), [&]() { sum += team_sum; });
  }
};

// Launches the cluster loop: on the host a team (one thread) per i-cluster, its lanes one after
// the other; on a GPU 128 threads per team, 128 / M i-clusters of M lanes each.
template <class Rows, int M, bool EV, bool OneType, class P, class C, class A>
void run_cluster_loop(const ClusterArgs<C>& a, const Kokkos::View<A* [3]>& f, const P& pot,
                      remap::Sums2& sums) {
  constexpr bool host = neighbor::is_host_space_v<ExecSpace>;
  const int per_team = host ? 1 : 128 / M;
  const int league = (a.n_iclusters + per_team - 1) / per_team;
  if (league == 0) return;
  const ClusterKernel<Rows, M, EV, OneType, P, C, A> k{a, f, pot, per_team};
  const Kokkos::TeamPolicy<ExecSpace> policy(league, per_team, host ? 1 : M);
  if constexpr (EV)
    Kokkos::parallel_reduce("ForceLJ::cluster_ev", policy, k, sums);
  else
    Kokkos::parallel_for("ForceLJ::cluster", policy, k);
}

// A backend's cluster loop over Rows (the driver's choice, cluster_driver.hpp).
template <class Rows>
struct RowsClusterLoop {
  template <int M, bool EV, bool OneType, class P, class C, class A>
  static void run(const ClusterArgs<C>& a, const Kokkos::View<A* [3]>& f, const P& pot,
                  remap::Sums2& sums) {
    run_cluster_loop<Rows, M, EV, OneType>(a, f, pot, sums);
  }
};

}  // namespace mdremap::md

#pragma once
// The cluster-pair list with Newton's third law (neighbor.cluster_newton: true): each atom pair
// once, its force added to both atoms. The builder's list holds every pair from both sides
// (cluster_list.hpp); plan_half() keeps a pair in the row of the atom whose index is the smaller, a
// ghost standing for the atom it is an image of (so a pair across the box edge is kept on one side
// only), and the loops below add the pair's force to the i atom in registers and subtract it from
// the j atom's owner with an atomic add. Half the pairs are evaluated and their positions read;
// three atomics a pair are the price (GROMACS' GPU kernels pay it as well, with the j forces first
// reduced over a warp, which this per-thread walk has no room for: its threads walk different
// j-clusters).
#include <cstdint>

#include "md/pair/cluster_portable.hpp"
#ifdef __CUDACC__
#include "md/pair/cluster_cuda.hpp"  // next_packed_entry
#endif
#include "neighbor/ghosts.hpp"

namespace mdremap::md {

// One pair from the i atom's side: the force added to the i sums, subtracted from f(j) at once;
// energy and virial counted whole (each pair is seen once).
template <bool EV, bool OneType, class P, class C, class A>
struct HalfPair {
  const P& pot;
  const Vec4<C>& xi;
  const int ti;
  A& fx;
  A& fy;
  A& fz;
  double& ei;
  double& wi;
  const Kokkos::View<A* [3]>& f;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const Vec4<C>& xj, const int j) const {
    C dx, dy, dz, rsq, ep = 0;
    const C fp = pair_force<EV, OneType>(pot, xi, ti, xj, dx, dy, dz, rsq, ep);
    const A gx = fp * dx, gy = fp * dy, gz = fp * dz;
    fx += gx;
    fy += gy;
    fz += gz;
    Kokkos::atomic_add(&f(j, 0), -gx);
    Kokkos::atomic_add(&f(j, 1), -gy);
    Kokkos::atomic_add(&f(j, 2), -gz);
    if constexpr (EV) {
      ei += ep;
      wi += double(fp) * double(rsq);
    }
  }
};

// The atom each slot's force goes to: the local atom itself, a ghost's owner, -1 for padding.
inline void slot_owners(const neighbor::ClusterList& list, const neighbor::GhostAtoms& ghosts,
                        Kokkos::View<int*> owner) {
  const auto atom = list.atom;
  const auto ghost_owner = ghosts.owner;
  const std::int64_t nlocal = ghosts.nlocal;
  Kokkos::parallel_for(
      "ClusterHalf::owners",
      Kokkos::RangePolicy<ExecSpace>(0, std::int64_t(list.n_clusters) * list.m),
      KOKKOS_LAMBDA(const std::int64_t s) {
        const int a = atom(s);
        owner(s) = a < 0 ? -1 : (a < nlocal ? a : ghost_owner(a - nlocal));
      });
}

// The list's pairs kept where the j atom's owner has the larger index, in the form the loop
// reads: the packed per-atom rows where the list has them (`entry`/`entries` ->
// `half_entry`/`half_entries`, same layout, emptied rows dropped), else the mask words (`mask`
// -> `half_mask`, same layout).
inline void plan_half(const neighbor::ClusterList& list, Kokkos::View<const int*> owner,
                      Kokkos::View<std::uint32_t*> half_mask,
                      Kokkos::View<std::uint32_t*> half_entry, Kokkos::View<int*> half_entries) {
  using Exec = ExecSpace;
  const int m = list.m, words = list.words, cap = list.max_pairs;
  const auto count = list.count;
  const auto cj = list.cj;
  const auto mask = list.mask;
  if (!list.packed) {
    Kokkos::parallel_for(
        "ClusterHalf::masks", Kokkos::RangePolicy<Exec>(0, list.n_iclusters),
        KOKKOS_LAMBDA(const int ic) {
          const std::int64_t row = std::int64_t(ic) * cap;
          for (int k = 0; k < count(ic); ++k) {
            const std::int64_t jc = cj(row + k);
            for (int w = 0; w < words; ++w) {
              const std::uint32_t bits = mask((row + k) * words + w);
              std::uint32_t keep = 0;
              for (int b = 0; b < 32; ++b) {
                if (!((bits >> b) & 1u)) continue;
                const int pos = w * 32 + b, ii = pos / m, jj = pos % m;
                if (owner(jc * m + jj) > owner(std::int64_t(ic) * m + ii)) keep |= 1u << b;
              }
              half_mask((row + k) * words + w) = keep;
            }
          }
        });
    return;
  }
  const std::int64_t slots = std::int64_t(list.n_iclusters) * m;
  const std::uint32_t row_bits = m >= 32 ? ~0u : (1u << m) - 1u;
  const auto entry = list.entry;
  const auto entries = list.entries;
  Kokkos::parallel_for(
      "ClusterHalf::entries", Kokkos::RangePolicy<Exec>(0, slots),
      KOKKOS_LAMBDA(const std::int64_t s) {
        const int i = owner(s);
        int kept = 0;
        for (int k = 0; i >= 0 && k < entries(s); ++k) {
          const std::uint32_t e = entry(neighbor::packed_entry_index(s, k, slots));
          const std::int64_t jc = e >> 8;
          std::uint32_t keep = 0;
          for (int jj = 0; jj < m; ++jj)
            if (((e & row_bits) >> jj) & 1u && owner(jc * m + jj) > i) keep |= 1u << jj;
          if (keep)
            half_entry(neighbor::packed_entry_index(s, kept++, slots)) = (e & ~row_bits) | keep;
        }
        half_entries(s) = kept;
      });
}

// The portable half loop: a thread per i atom slot walking its i-cluster's (half) mask row; the
// i atom's sums added atomically at the end (other threads add to it as their j atom).
template <int M, bool EV, bool OneType, class P, class C, class A>
struct HalfClusterLanes {
  static constexpr int W = neighbor::cluster_mask_words(M);
  static constexpr std::uint32_t kRowBits = M >= 32 ? ~0u : (1u << M) - 1u;
  ClusterArgs<C> a;
  Kokkos::View<const int*> owner;
  Kokkos::View<A* [3]> f;
  P pot;

  KOKKOS_INLINE_FUNCTION void lane(const std::int64_t slot, double& e, double& w) const {
    const int i = a.atom(slot);
    if (i < 0) return;  // padding
    const int ic = static_cast<int>(slot / M), ii = static_cast<int>(slot % M);
    const Vec4<C> xi = a.xc(slot);
    const int ti = static_cast<int>(xi.w) * kMaxTypes;
    A fx = 0, fy = 0, fz = 0;
    double ei = 0, wi = 0;
    const HalfPair<EV, OneType, P, C, A> pair{pot, xi, ti, fx, fy, fz, ei, wi, f};
    const std::int64_t row = std::int64_t(ic) * a.cap;
    const int word = (ii * M) / 32, shift = (ii * M) % 32;
    for (int k = 0; k < a.count(ic); ++k) {
      std::uint32_t bits = (a.mask((row + k) * W + word) >> shift) & kRowBits;
      const std::int64_t j0 = std::int64_t(a.cj(row + k)) * M;
      for (int jj = 0; bits != 0u; ++jj, bits >>= 1)
        if (bits & 1u) pair(a.xc(j0 + jj), owner(j0 + jj));
    }
    Kokkos::atomic_add(&f(i, 0), fx);
    Kokkos::atomic_add(&f(i, 1), fy);
    Kokkos::atomic_add(&f(i, 2), fz);
    if constexpr (EV) {
      e += ei;  // each pair once
      w += wi;
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t slot) const {
    double e = 0, w = 0;
    lane(slot, e, w);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t slot, remap::Sums2& s) const {
    lane(slot, s.s0, s.s1);
  }
};

#ifdef __CUDACC__
// The CUDA half loop over the packed per-atom rows: the full loop's walk (cluster_cuda.hpp), a
// pair at a time, the j force subtracted atomically.
template <int M, bool EV, bool OneType, class P, class C, class A>
struct CudaHalfClusterLanes {
  static constexpr std::uint32_t kRowBits = M >= 32 ? ~0u : (1u << M) - 1u;
  ClusterArgs<C> a;
  Kokkos::View<const int*> owner;
  Kokkos::View<A* [3]> f;
  P pot;

  KOKKOS_INLINE_FUNCTION void lane(const std::int64_t slot, double& e, double& w) const {
#ifdef __CUDA_ARCH__
    const int i = a.atom(slot);
    if (i < 0) return;
    const Vec4<C>* __restrict__ const xc = a.xc.data();
    const int* __restrict__ const own = owner.data();
    const Vec4<C> xi = xc[slot];
    const int ti = static_cast<int>(xi.w) * kMaxTypes;
    A fx = 0, fy = 0, fz = 0;
    double ei = 0, wi = 0;
    const HalfPair<EV, OneType, P, C, A> pair{pot, xi, ti, fx, fy, fz, ei, wi, f};
    const std::int64_t slots = std::int64_t(a.n_iclusters) * M;
    const uint4* __restrict__ const e4 = reinterpret_cast<const uint4*>(a.entry.data()) + slot;
    const int n = a.entries(slot);
    uint4 q = make_uint4(0, 0, 0, 0);
    std::int64_t j0 = 0;
    std::uint32_t bits = 0;
    for (int k = 0;;) {
      if (bits == 0u) {
        if (k >= n) break;
        const std::uint32_t en = next_packed_entry(e4, k, slots, q);
        j0 = std::int64_t(en >> 8) * M;
        bits = en & kRowBits;
        ++k;
      }
      const int jj = __ffs(static_cast<int>(bits)) - 1;
      bits &= bits - 1u;
      pair(xc[j0 + jj], __ldg(own + j0 + jj));
    }
    Kokkos::atomic_add(&f(i, 0), fx);
    Kokkos::atomic_add(&f(i, 1), fy);
    Kokkos::atomic_add(&f(i, 2), fz);
    if constexpr (EV) {
      e += ei;
      w += wi;
    }
#else
    (void)slot, (void)e, (void)w;
    Kokkos::abort("CudaHalfClusterLanes runs on the GPU only");
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
#endif

// Runs the half loop over every i atom slot (f zeroed first: every pair adds to it).
template <int M, bool EV, bool OneType, class P, class C, class A>
void run_half_cluster_loop(const ClusterArgs<C>& a, Kokkos::View<const int*> owner,
                           const Kokkos::View<A* [3]>& f, const P& pot, remap::Sums2& sums) {
  Kokkos::deep_copy(ExecSpace(), f, A(0));
  const std::int64_t slots = std::int64_t(a.n_iclusters) * M;
  if (slots == 0) return;
  const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>> policy(0, slots);
  auto launch = [&](const auto& k) {
    if constexpr (EV)
      Kokkos::parallel_reduce("ForceLJ::cluster_half_ev", policy, k, sums);
    else
      Kokkos::parallel_for("ForceLJ::cluster_half", policy, k);
  };
#ifdef __CUDACC__
  if (a.packed) {
    launch(CudaHalfClusterLanes<M, EV, OneType, P, C, A>{a, owner, f, pot});
    return;
  }
#endif
  launch(HalfClusterLanes<M, EV, OneType, P, C, A>{a, owner, f, pot});
}

}  // namespace mdremap::md

#pragma once
// The GPU's cluster-pair search (cluster_builder.cpp; CUDA translation units only): a warp per
// i-cluster, its 32 lanes across the candidates rather than one thread walking them.
//
// The portable search gives an i-cluster one thread and its M vector lanes: the thread binary-
// searches each column within reach and walks its clusters one after another, every step a load
// that depends on the one before (about 25 columns x 7 search steps, then some 125 candidates at
// the LJ bench deck's 2.8 sigma list cutoff), and its lanes meet by a reduction per candidate.
// That took several times the plain full list's whole build. Here a lane takes a column (columns in
// batches of 32) and finds its candidate ranges by its own binary searches, all columns at once;
// the ranges are numbered across the lanes by a warp prefix sum, and each lane culls one
// candidate at a time by bounding box (Páll & Hess 2013 §3). The survivors' masks are then made
// by the whole warp, one cluster pair after another: a lane holds the pairs (ii, jj) of mask bits
// lane, lane + 32, ..., and one ballot per 32-bit word assembles the mask, which every lane then
// knows, so the row is written in order without a further reduction. (A first version gave each
// lane a whole candidate's M x M distances: 150 registers a thread in double and a sixth of the
// occupancy.) Rows longer than the capacity are counted, not written, and the caller
// grows them, as in the portable search. Row order: column batch, segment, column, z.
#include <cstdint>

#include "neighbor/cluster_list.hpp"

namespace mdremap::neighbor {

template <int M, class T, class S>
struct ClusterSearchWarps {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr int W = cluster_mask_words(M);
  static constexpr int kWarps = 4;  // i-clusters (warps) per team
  // The bits of a mask word in use (clusters of 4: 16 pairs, one half-used word).
  static constexpr std::uint32_t kWordBits = M * M >= 32 ? ~0u : (1u << (M * M)) - 1u;
  static constexpr std::uint32_t kRowBits = M >= 32 ? ~0u : (1u << M) - 1u;
  S d;  // the search's data (ClusterSearch's fields)

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kWarps), [&](const int t) {
      const int ic = team.league_rank() * kWarps + t;
      if (ic >= d.n_ic) return;  // the whole warp
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, 32),
                           [&](const int lane) { search(ic, lane); });
    });
  }

  KOKKOS_INLINE_FUNCTION void search(const int ic, const int lane) const {
#ifdef __CUDA_ARCH__
    constexpr unsigned kAll = 0xffffffffu;
    const int col = d.colof(ic), cx = col % d.nx, cy = col / d.nx;
    T ilo[3], ihi[3];
    for (int k = 0; k < 3; ++k) ilo[k] = d.bb(ic, k), ihi[k] = d.bb(ic, 3 + k);
    const T zfrom = ilo[2] - d.rlist - d.sz, zto = ihi[2] + d.rlist + d.sz;
    // This lane's share of every mask: bits b = 32 w + lane, the pair (ii, jj) = (b / M, b % M):
    // jj is the same in every word, ii one per word; its i atoms' positions stay in registers.
    const int jl = lane % M;
    int il[W];
    unsigned ireal = 0;  // word w's i atom is an atom (not padding, not past the cluster)
    T ix[W], iy[W], iz[W];
#pragma unroll
    for (int w = 0; w < W; ++w) {
      const int b = 32 * w + lane;
      il[w] = b / M;
      const std::int64_t si = std::int64_t(ic) * M + (b < M * M ? il[w] : 0);
      const Vec4<T> p = d.x(si);
      ix[w] = p.x, iy[w] = p.y, iz[w] = p.z;
      if (b < M * M && d.atom(si) >= 0) ireal |= 1u << w;
    }
    const std::int64_t row = std::int64_t(ic) * d.cap;
    // Packed lists: lane ii < M appends its atom's non-empty rows (cluster_list.hpp).
    const bool appends = d.packed && lane < M;
    const std::int64_t eslot = std::int64_t(ic) * M + (lane < M ? lane : 0);
    const std::int64_t nslots = std::int64_t(d.n_ic) * M;
    int ecnt = 0;
    const int span_x = 2 * d.rx + 1, ncols = span_x * (2 * d.ry + 1);
    int cnt = 0;
    for (int base = 0; base < ncols; base += 32) {
      // This lane's column: per segment, the clusters whose z range reaches the i-cluster's.
      int start[3] = {0, 0, 0}, len[3] = {0, 0, 0};
      const int ci = base + lane;
      if (ci < ncols) {
        const int a = ci % span_x - d.rx, b = ci / span_x - d.ry;
        const int bx = cx + a, by = cy + b;
        const T gx = S::column_gap(a, d.sx), gy = S::column_gap(b, d.sy);
        if (bx >= 0 && bx < d.nx && by >= 0 && by < d.ny && gx * gx + gy * gy < d.rsq) {
          for (int s = 0; s < 3; ++s) {
            const int q = 3 * (bx + d.nx * by) + s;
            const int lo = d.first(q), end = lo + d.nclu(q);
            const int from = d.template bound<5, false>(lo, end, zfrom);
            start[s] = from;
            len[s] = d.template bound<2, true>(from, end, zto) - from;
          }
        }
      }
#pragma unroll
      for (int s = 0; s < 3; ++s) {
        int incl = len[s];  // the ranges numbered across the lanes
        for (int off = 1; off < 32; off <<= 1) {
          const int v = __shfl_up_sync(kAll, incl, off);
          if (lane >= off) incl += v;
        }
        const int total = __shfl_sync(kAll, incl, 31), excl = incl - len[s];
        for (int t0 = 0; t0 < total; t0 += 32) {
          const int t = t0 + lane;
          int o = 0;  // the last lane whose range starts at or before t
          for (int step = 16; step > 0; step >>= 1) {
            const int e = __shfl_sync(kAll, excl, o + step);
            if (e <= t) o += step;
          }
          const int c = __shfl_sync(kAll, start[s], o) + (t - __shfl_sync(kAll, excl, o));
          bool near = false;  // the bounding-box cull, a candidate per lane
          if (t < total) near = d.box_gap_sq(c, ilo, ihi) <= d.rsq;
          // The survivors' masks, one after another, by the whole warp: lane l holds the pairs
          // (ii, jj) of bits l, l + 32, ... and a ballot per 32 bits assembles the mask.
          for (unsigned todo = __ballot_sync(kAll, near); todo != 0u; todo &= todo - 1u) {
            const int cc = __shfl_sync(kAll, c, __ffs(static_cast<int>(todo)) - 1);
            const std::int64_t sj = std::int64_t(cc) * M + jl;
            const Vec4<T> xj = d.x(sj);
            const bool jreal = d.atom(sj) >= 0;
            std::uint32_t words[W];
            bool keep = false;
#pragma unroll
            for (int w = 0; w < W; ++w) {
              const T dx = ix[w] - xj.x, dy = iy[w] - xj.y, dz = iz[w] - xj.z;
              const bool in = jreal && ((ireal >> w) & 1u) && !(cc == ic && il[w] == jl) &&
                              dx * dx + dy * dy + dz * dz <= d.rsq;
              words[w] = __ballot_sync(kAll, in) & kWordBits;
              keep = keep || words[w] != 0u;
            }
            if (!keep) continue;  // uniform: every lane has the same words
            if (cnt < d.cap) {
              if (lane == 0) d.cj(row + cnt) = cc;
#pragma unroll
              for (int w = 0; w < W; ++w)
                if (lane == w) d.mask((row + cnt) * W + w) = words[w];
              if (appends) {
                std::uint32_t bits = 0;  // row `lane` of the mask
#pragma unroll
                for (int w = 0; w < W; ++w)
                  if ((lane * M) / 32 == w) bits = (words[w] >> ((lane * M) % 32)) & kRowBits;
                if (bits != 0u)
                  d.entry(packed_entry_index(eslot, ecnt++, nslots)) =
                      (static_cast<std::uint32_t>(cc) << 8) | bits;
              }
            }
            ++cnt;
          }
        }
      }
    }
    if (lane == 0) d.count(ic) = cnt;
    if (appends) d.entries(std::int64_t(ic) * M + lane) = ecnt;
#else
    (void)ic, (void)lane;
    Kokkos::abort("ClusterSearchWarps runs on the GPU only");
#endif
  }
};

}  // namespace mdremap::neighbor

#include "neighbor/cluster_builder.hpp"

#include <Kokkos_BitManipulation.hpp>
#include <cmath>
#include <string>

#include "mdremap/error.hpp"
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include "neighbor/cluster_search_cuda.hpp"
#endif

namespace mdremap::neighbor {

template <class T, class Space>
int default_cluster_size() {
  if constexpr (!is_host_space_v<Space>) {
    return 8;
  } else {
#if defined(__AVX512F__)
    return 64 / static_cast<int>(sizeof(T));
#else
    return 4;
#endif
  }
}

namespace {

// One build's search: a team thread per i-cluster. Columns whose cells are out of reach of the
// i-cluster's cell (the plain list's stencil rule) are skipped; in each column's segments the
// clusters are in z order, so a binary search finds the first whose box reaches the i-cluster
// and the walk stops at the first that starts beyond it (with a cell of slack: rounding may put
// an atom a hair into the neighbouring cell). Each candidate passing the bounding-box cull gets
// its mask from the M x M distances, a row per vector lane (on a GPU the thread's M lanes; on the
// host one lane after the other); an empty mask is dropped. Every lane walks the same
// candidates, so the row count is the same in each; one lane writes.
template <class T, class Space>
struct ClusterSearch {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  Kokkos::View<const int*, Space> atom, first, nclu, colof;
  Kokkos::View<const Vec4<T>*, Space> x;
  Kokkos::View<const T* [6], Space> bb;
  Kokkos::View<int*, Space> count, cj;
  Kokkos::View<std::uint32_t*, Space> mask;
  Kokkos::View<std::uint32_t*, Space> entry;  // the per-atom rows (packed lists only)
  Kokkos::View<int*, Space> entries;
  bool packed = false;
  int M, W, nx, ny, rx, ry, cap, n_ic, per_team;
  T sx, sy, sz, rlist, rsq;

  // The smallest gap along x or y between a column and one `a` columns away (width s).
  KOKKOS_INLINE_FUNCTION static T column_gap(const int a, const T s) {
    return (a < -1 ? -a - 1 : (a > 1 ? a - 1 : 0)) * s;
  }
  // The first cluster in [lo, hi) whose box key Q (2: bottom z, 5: top z) is above v (Above) or
  // at least v; the keys do not decrease along a column segment (clusters in z order).
  template <int Q, bool Above>
  KOKKOS_INLINE_FUNCTION int bound(int lo, int hi, const T v) const {
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      const T key = bb(mid, Q);
      if (Above ? key <= v : key < v)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  }
  // The squared distance between cluster c's bounding box and the box [ilo, ihi].
  KOKKOS_INLINE_FUNCTION T box_gap_sq(const int c, const T* ilo, const T* ihi) const {
    T d2 = 0;
    for (int d = 0; d < 3; ++d) {
      const T lo = bb(c, d), hi = bb(c, 3 + d);
      const T gap = lo > ihi[d] ? lo - ihi[d] : (ilo[d] > hi ? ilo[d] - hi : T(0));
      d2 += gap * gap;
    }
    return d2;
  }

  // Row ii of the mask of (ic, c): bit jj for the pairs within the list cutoff.
  KOKKOS_INLINE_FUNCTION std::uint64_t row_bits(const int ic, const int ii, const int c) const {
    const std::int64_t si = std::int64_t(ic) * M + ii;
    if (atom(si) < 0) return 0;
    const Vec4<T> xi = x(si);
    std::uint64_t bits = 0;
    for (int jj = 0; jj < M; ++jj) {
      const std::int64_t sj = std::int64_t(c) * M + jj;
      if (atom(sj) < 0 || (c == ic && jj == ii)) continue;
      const Vec4<T>& xj = x(sj);
      const T dx = xi.x - xj.x, dy = xi.y - xj.y, dz = xi.z - xj.z;
      if (dx * dx + dy * dy + dz * dz <= rsq) bits |= std::uint64_t(1) << jj;
    }
    return bits;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, per_team), [&](const int t) {
      const int ic = team.league_rank() * per_team + t;
      if (ic < n_ic) search(team, ic);
    });
  }

  KOKKOS_INLINE_FUNCTION void search(const Member& team, const int ic) const {
    const int col = colof(ic), cx = col % nx, cy = col / nx;
    T ilo[3], ihi[3];
    for (int d = 0; d < 3; ++d) ilo[d] = bb(ic, d), ihi[d] = bb(ic, 3 + d);
    const T zfrom = ilo[2] - rlist - sz, zto = ihi[2] + rlist + sz;
    const std::int64_t row = std::int64_t(ic) * cap;
    // The mask in 64-bit pieces of 64 / M rows (clusters of 16: four pieces).
    const int rows_per_piece = M < 8 ? M : 64 / M, pieces = M < 8 ? 1 : M / rows_per_piece;
    int cnt = 0;
    for (int b = -ry; b <= ry; ++b) {
      const int by = cy + b;
      if (by < 0 || by >= ny) continue;
      const T gy = column_gap(b, sy);
      for (int a = -rx; a <= rx; ++a) {
        const int bx = cx + a;
        if (bx < 0 || bx >= nx) continue;
        const T gx = column_gap(a, sx);
        if (gx * gx + gy * gy >= rsq) continue;
        for (int s = 0; s < 3; ++s) {
          const int q = 3 * (bx + nx * by) + s;
          const int end = first(q) + nclu(q);
          // From the first cluster whose top reaches zfrom to the first that starts beyond zto.
          for (int c = bound<5, false>(first(q), end, zfrom); c < end; ++c) {
            if (bb(c, 2) > zto) break;
            if (box_gap_sq(c, ilo, ihi) > rsq) continue;
            std::uint64_t piece[4] = {0, 0, 0, 0};
            bool any = false;
            for (int p = 0; p < pieces; ++p) {
              std::uint64_t v = 0;
              Kokkos::parallel_reduce(
                  Kokkos::ThreadVectorRange(team, rows_per_piece),
                  [&](const int r, std::uint64_t& acc) {
                    const int ii = p * rows_per_piece + r;
                    acc |= row_bits(ic, ii, c) << ((ii * M) % 64);
                  },
                  Kokkos::BOr<std::uint64_t>(v));
              piece[p] = v;
              any = any || v != 0;
            }
            if (!any) continue;
            Kokkos::single(Kokkos::PerThread(team), [&]() {
              if (cnt < cap) {
                cj(row + cnt) = c;
                for (int k = 0; k < W; ++k)
                  mask((row + cnt) * W + k) =
                      static_cast<std::uint32_t>(piece[k / 2] >> (32 * (k % 2)));
              }
            });
            ++cnt;
          }
        }
      }
    }
    Kokkos::single(Kokkos::PerThread(team), [&]() { count(ic) = cnt; });
  }
};

// Row capacities are multiples of 4: the packed rows are read four entries at a time.
constexpr int round_up_4(const int n) {
  return (n + 3) / 4 * 4;
}

// Runs the search: on CUDA the warp search (cluster_search_cuda.hpp), elsewhere the portable one.
template <class T, class Space>
void search(const ClusterSearch<T, Space>& s) {
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
    const auto launch = [&](auto k) {
      using K = decltype(k);
      const int league = (s.n_ic + K::kWarps - 1) / K::kWarps;
      Kokkos::parallel_for("Neighbor::cluster_search_warps",
                           Kokkos::TeamPolicy<Space>(league, K::kWarps, 32), k);
    };
    switch (s.M) {
      case 4:
        return launch(ClusterSearchWarps<4, T, ClusterSearch<T, Space>>{s});
      case 8:
        return launch(ClusterSearchWarps<8, T, ClusterSearch<T, Space>>{s});
      default:
        return launch(ClusterSearchWarps<16, T, ClusterSearch<T, Space>>{s});
    }
  }
#endif
  constexpr bool host = is_host_space_v<Space>;
  const int league = (s.n_ic + s.per_team - 1) / s.per_team;
  Kokkos::parallel_for("Neighbor::cluster_search",
                       Kokkos::TeamPolicy<Space>(league, s.per_team, host ? 1 : s.M), s);
}

}  // namespace

template <class T, class Space>
ClusterListBuilder<T, Space>::ClusterListBuilder(double list_cutoff, int cluster_size)
    : rlist_(list_cutoff), m_(cluster_size != 0 ? cluster_size : default_cluster_size<T, Space>()) {
  if (!valid_cluster_size(m_))
    throw Error("neighbor.cluster_size: " + std::to_string(cluster_size) +
                " is no cluster size (4, 8 or 16; 0 for the device's default)");
}

template <class T, class Space>
void ClusterListBuilder<T, Space>::build(nondeduced_t<Kokkos::View<const Vec4<T>*, Space>> xall,
                                         const BasicGhostAtoms<Space>& g, const Box<T>& box,
                                         BasicClusterList<Space>& list) {
  const std::int64_t ntotal = g.nlocal + g.nghost;
  if (ntotal > (std::int64_t(1) << 30))
    throw Error("cluster list: more than 2^30 atoms and ghosts (32-bit atom and cluster indices)");
  for (int d = 0; d < 3; ++d)
    if (double(box.len[d]) < 2.0 * rlist_)
      throw Error("neighbor list: box shorter than twice the list cutoff (cutoff + skin)");
  grid_.build(Kokkos::subview(xall, std::make_pair(std::int64_t(0), ntotal)), g, box, rlist_, m_,
              list);
  const int n_ic = grid_.n_iclusters;
  if (list.count.extent(0) != static_cast<size_t>(n_ic))
    list.count = Kokkos::View<int*, Space>("cluster_count", n_ic);
  if (list.max_pairs == 0) {
    // Clusters whose boxes (edge about a column width, the two summed) come within rlist: the
    // volume of that box grown by rlist, in clusters; a quarter more, rows grow if short.
    const double w = 2.0 * grid_.size[0], r = rlist_;
    const double v = w * w * w + 6 * w * w * r + 3 * 3.14159265 * w * r * r + 4.18879 * r * r * r;
    const double per_cluster = box.volume() / std::max(1, n_ic);
    list.max_pairs = round_up_4(static_cast<int>(1.25 * v / std::max(per_cluster, 1e-9)) + 8);
  }
  // The per-atom packed rows: the GPU's force kernel reads them (cluster_list.hpp).
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  list.packed = std::is_same_v<Space, Kokkos::Cuda> && list.m <= 8 && grid_.n_clusters < (1 << 24);
#else
  list.packed = false;
#endif
  ClusterSearch<T, Space> s;
  s.atom = list.atom;
  s.first = grid_.seg_first;
  s.nclu = grid_.seg_clusters;
  s.colof = grid_.column_of;
  s.x = grid_.x;
  s.bb = grid_.bbox;
  s.count = list.count;
  s.M = list.m;
  s.W = list.words;
  s.nx = grid_.ncol[0];
  s.ny = grid_.ncol[1];
  s.rx = static_cast<int>(std::ceil(rlist_ / grid_.size[0] - 1e-12));
  s.ry = static_cast<int>(std::ceil(rlist_ / grid_.size[1] - 1e-12));
  s.sx = static_cast<T>(grid_.size[0]);
  s.sy = static_cast<T>(grid_.size[1]);
  s.sz = static_cast<T>(grid_.size[2]);
  s.rlist = static_cast<T>(rlist_);
  s.rsq = static_cast<T>(rlist_ * rlist_);
  s.n_ic = n_ic;
  // GPU: teams of 128 threads, a thread's M lanes the rows of one i-cluster's masks.
  constexpr bool host = is_host_space_v<Space>;
  s.per_team = host ? 1 : 128 / s.M;
  for (;;) {
    const std::int64_t entries = std::int64_t(list.max_pairs) * n_ic;
    if (list.cj.extent(0) < static_cast<size_t>(entries)) {
      list.cj = Kokkos::View<int*, Space>(
          Kokkos::view_alloc("cluster_cj", Kokkos::WithoutInitializing), entries);
      list.mask = Kokkos::View<std::uint32_t*, Space>(
          Kokkos::view_alloc("cluster_mask", Kokkos::WithoutInitializing), entries * list.words);
    }
    s.cj = list.cj;
    s.mask = list.mask;
    if (list.packed) {
      const std::int64_t slots = std::int64_t(n_ic) * list.m;
      if (list.entry.extent(0) < static_cast<size_t>(slots * list.max_pairs))
        list.entry = Kokkos::View<std::uint32_t*, Space>(
            Kokkos::view_alloc("cluster_entry", Kokkos::WithoutInitializing),
            slots * list.max_pairs);
      if (list.entries.extent(0) < static_cast<size_t>(slots))
        list.entries = Kokkos::View<int*, Space>("cluster_entries", slots);
      s.entry = list.entry;
      s.entries = list.entries;
    }
    s.packed = list.packed;
    s.cap = list.max_pairs;
    const int league = (n_ic + s.per_team - 1) / s.per_team;
    if (league > 0) search(s);
    int maxc = 0;
    std::int64_t total = 0;
    const auto counts = list.count;
    Kokkos::parallel_reduce(
        "Neighbor::cluster_count", Kokkos::RangePolicy<Space>(0, n_ic),
        KOKKOS_LAMBDA(const int i, int& mc, std::int64_t& t) {
          if (counts(i) > mc) mc = counts(i);
          t += counts(i);
        },
        Kokkos::Max<int>(maxc), total);
    list.max_count = maxc;
    list.cluster_pairs = total;
    if (maxc <= list.max_pairs) break;
    list.max_pairs = round_up_4(maxc + maxc / 8 + 4);  // grow and search again: never drop a pair
    ++regrows_;
  }
  list.atom_pairs = -1;  // counted on request (count_cluster_atom_pairs)
}

template <class Space>
std::int64_t count_cluster_atom_pairs(BasicClusterList<Space>& list) {
  const auto counts = list.count;
  const auto mask = list.mask;
  const int cap = list.max_pairs, W = list.words, M = list.m;
  const std::uint32_t row_bits = (1u << M) - 1u;  // M <= 16
  std::int64_t total = 0, rows = 0;
  Kokkos::parallel_reduce(
      "Neighbor::cluster_atom_pairs", Kokkos::RangePolicy<Space>(0, list.n_iclusters),
      KOKKOS_LAMBDA(const int ic, std::int64_t& t, std::int64_t& r) {
        for (std::int64_t k = std::int64_t(ic) * cap; k < std::int64_t(ic) * cap + counts(ic); ++k)
          for (int w = 0; w < W; ++w) {
            const std::uint32_t v = mask(k * W + w);
            t += Kokkos::Experimental::popcount_builtin(v);
            for (int b = 0; b < 32; b += M) r += ((v >> b) & row_bits) != 0u;
          }
      },
      total, rows);
  list.atom_pairs = total;
  list.atom_rows = rows;
  return total;
}

#define MDREMAP_INSTANTIATE(Space)                    \
  template class ClusterListBuilder<float, Space>;    \
  template class ClusterListBuilder<double, Space>;   \
  template int default_cluster_size<float, Space>();  \
  template int default_cluster_size<double, Space>(); \
  template std::int64_t count_cluster_atom_pairs<Space>(BasicClusterList<Space>&);
MDREMAP_NEIGHBOR_FOR_SPACES(MDREMAP_INSTANTIATE)
#undef MDREMAP_INSTANTIATE

}  // namespace mdremap::neighbor

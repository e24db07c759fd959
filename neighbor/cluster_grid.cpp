#include "neighbor/cluster_grid.hpp"

#include <algorithm>
#include <cmath>

namespace mdremap::neighbor {

template <class T, class Space>
double ClusterGrid<T, Space>::column_width(std::int64_t nlocal, const Box<T>& box, double rlist,
                                           int cluster_size) {
  const double rho = nlocal > 0 ? double(nlocal) / box.volume() : 0.0;
  const double cube = rho > 0 ? std::cbrt(cluster_size / rho) : rlist;
  return std::max(cube, 0.25 * rlist);
}

template <class T, class Space>
void ClusterGrid<T, Space>::build(Kokkos::View<const Vec4<T>*, Space> xall,
                                  const BasicGhostAtoms<Space>& g, const Box<T>& box, double rlist,
                                  int cluster_size, BasicClusterList<Space>& list) {
  m = cluster_size;
  const int M = m;
  const std::int64_t nlocal = g.nlocal, ntotal = g.nlocal + g.nghost;
  bins_.bin(xall, g, box, column_width(nlocal, box, rlist, M), rlist, false);
  ncol[0] = bins_.nbin[0], ncol[1] = bins_.nbin[1], nz = bins_.nbin[2];
  ext[0] = bins_.ext[0], ext[1] = bins_.ext[1], ez = bins_.ext[2];
  for (int d = 0; d < 2; ++d) box_cols[d] = ncol[d] - 2 * ext[d];
  mz = nz - 2 * ez;
  for (int d = 0; d < 3; ++d) size[d] = bins_.size[d];
  const int nx = ncol[0], ny = ncol[1], Z = nz, EZ = ez, MZ = mz;
  const int ex = ext[0], ey = ext[1], mx = box_cols[0], my = box_cols[1];
  const int ncells = bins_.ncells(), nseg = 3 * nx * ny;
  const auto offset = bins_.bin_offset;
  const auto count = bins_.bin_count;
  const auto perm = bins_.permute;
  const auto cell_of = bins_.bin_of;

  // z order inside each cell (ties by index: deterministic), so a column's cells, visited in z,
  // list its atoms in z order.
  Kokkos::parallel_for(
      "Neighbor::cluster_zsort", Kokkos::RangePolicy<Space>(0, ncells), KOKKOS_LAMBDA(const int c) {
        const int b = offset(c), e = offset(c + 1);
        for (int k = b + 1; k < e; ++k) {
          const int v = perm(k);
          const T zv = xall(v).z;
          int q = k - 1;
          while (q >= b && (xall(perm(q)).z > zv || (xall(perm(q)).z == zv && perm(q) > v))) {
            perm(q + 1) = perm(q);
            --q;
          }
          perm(q + 1) = v;
        }
      });

  // Atoms per segment, and per cell the atoms of its segment in the cells below it.
  if (seg_first.extent(0) != static_cast<size_t>(nseg)) {
    seg_first = Kokkos::View<int*, Space>("cluster_seg_first", nseg);
    seg_clusters = Kokkos::View<int*, Space>("cluster_seg_clusters", nseg);
  }
  if (cell_before_.extent(0) != static_cast<size_t>(ncells))
    cell_before_ = Kokkos::View<int*, Space>("cluster_cell_before", ncells);
  auto first = seg_first;
  auto nclu = seg_clusters;
  auto before = cell_before_;
  Kokkos::parallel_for(
      "Neighbor::cluster_segments", Kokkos::RangePolicy<Space>(0, nseg),
      KOKKOS_LAMBDA(const int q) {
        const int col = q / 3, s = q % 3;
        const int z0 = s == 0 ? 0 : (s == 1 ? EZ : EZ + MZ);
        const int z1 = s == 0 ? EZ : (s == 1 ? EZ + MZ : Z);
        int atoms = 0;
        for (int cz = z0; cz < z1; ++cz) {
          const int c = col + nx * ny * cz;
          before(c) = atoms;
          atoms += count(c);
        }
        nclu(q) = (atoms + M - 1) / M;
      });
  // The box's segments first (the i-clusters), column by column, then every other segment.
  int n_i = 0, n_all = 0;
  Kokkos::parallel_scan(
      "Neighbor::cluster_scan_local", Kokkos::RangePolicy<Space>(0, mx * my),
      KOKKOS_LAMBDA(const int r, int& acc, const bool final) {
        const int q = 3 * ((ex + r % mx) + nx * (ey + r / mx)) + 1;
        if (final) first(q) = acc;
        acc += nclu(q);
      },
      n_i);
  const int n_ic = n_i;
  Kokkos::parallel_scan(
      "Neighbor::cluster_scan_ghost", Kokkos::RangePolicy<Space>(0, nseg),
      KOKKOS_LAMBDA(const int q, int& acc, const bool final) {
        const int col = q / 3, cx = col % nx, cy = col / nx;
        if (q % 3 == 1 && cx >= ex && cx < ex + mx && cy >= ey && cy < ey + my) return;
        if (final) first(q) = n_ic + acc;
        acc += nclu(q);
      },
      n_all);
  n_iclusters = n_i;
  n_clusters = n_i + n_all;

  // Slots: each atom from its cell's place in the segment; then the padding.
  const std::int64_t nslots = std::int64_t(n_clusters) * M;
  if (list.atom.extent(0) < static_cast<size_t>(nslots))
    list.atom = Kokkos::View<int*, Space>(
        Kokkos::view_alloc("cluster_atom", Kokkos::WithoutInitializing), nslots + nslots / 8);
  auto atom = list.atom;
  Kokkos::parallel_for(
      "Neighbor::cluster_fill", Kokkos::RangePolicy<Space>(0, ntotal), KOKKOS_LAMBDA(const int k) {
        const int i = perm(k);
        const int c = cell_of(i);
        const int col = c % (nx * ny), cz = c / (nx * ny);
        const int q = 3 * col + (cz < EZ ? 0 : (cz < EZ + MZ ? 1 : 2));
        atom(std::int64_t(first(q)) * M + before(c) + (k - offset(c))) = i;
      });
  Kokkos::parallel_for(
      "Neighbor::cluster_pad", Kokkos::RangePolicy<Space>(0, nseg), KOKKOS_LAMBDA(const int q) {
        if (nclu(q) == 0) return;
        const int col = q / 3, s = q % 3;
        const int z0 = s == 0 ? 0 : (s == 1 ? EZ : EZ + MZ);
        const int z1 = s == 0 ? EZ : (s == 1 ? EZ + MZ : Z);
        int atoms = 0;
        for (int cz = z0; cz < z1; ++cz) atoms += count(col + nx * ny * cz);
        const std::int64_t end = std::int64_t(first(q) + nclu(q)) * M;
        for (std::int64_t sl = std::int64_t(first(q)) * M + atoms; sl < end; ++sl) atom(sl) = -1;
      });

  // The i-clusters' columns, positions in cluster order and bounding boxes.
  if (column_of.extent(0) < static_cast<size_t>(n_iclusters))
    column_of = Kokkos::View<int*, Space>("cluster_column", n_iclusters + n_iclusters / 8 + 1);
  auto colof = column_of;
  Kokkos::parallel_for(
      "Neighbor::cluster_columns", Kokkos::RangePolicy<Space>(0, mx * my),
      KOKKOS_LAMBDA(const int r) {
        const int col = (ex + r % mx) + nx * (ey + r / mx);
        const int q = 3 * col + 1;
        for (int c = first(q); c < first(q) + nclu(q); ++c) colof(c) = col;
      });
  if (x.extent(0) < static_cast<size_t>(nslots))
    x = Kokkos::View<Vec4<T>*, Space>(
        Kokkos::view_alloc("cluster_x_build", Kokkos::WithoutInitializing), nslots + nslots / 8);
  pack_cluster_positions<T, Space>(xall,
                                   Kokkos::subview(atom, std::make_pair(std::int64_t(0), nslots)),
                                   Kokkos::subview(x, std::make_pair(std::int64_t(0), nslots)));
  if (bbox.extent(0) < static_cast<size_t>(n_clusters))
    bbox =
        Kokkos::View<T* [6], Space>(Kokkos::view_alloc("cluster_bbox", Kokkos::WithoutInitializing),
                                    n_clusters + n_clusters / 8 + 1);
  auto bb = bbox;
  auto xc = x;
  Kokkos::parallel_for(
      "Neighbor::cluster_bbox", Kokkos::RangePolicy<Space>(0, n_clusters),
      KOKKOS_LAMBDA(const int c) {
        T lo[3], hi[3];
        bool any = false;
        for (int k = 0; k < M; ++k) {
          const std::int64_t s = std::int64_t(c) * M + k;
          if (atom(s) < 0) continue;
          const Vec4<T> p = xc(s);
          const T v[3] = {p.x, p.y, p.z};
          for (int d = 0; d < 3; ++d) {
            lo[d] = any ? (v[d] < lo[d] ? v[d] : lo[d]) : v[d];
            hi[d] = any ? (v[d] > hi[d] ? v[d] : hi[d]) : v[d];
          }
          any = true;
        }
        for (int d = 0; d < 3; ++d) bb(c, d) = lo[d], bb(c, 3 + d) = hi[d];
      });

  list.m = M;
  list.words = cluster_mask_words(M);
  list.n = nlocal;
  list.n_iclusters = n_iclusters;
  list.n_clusters = n_clusters;
  list.padding = std::int64_t(n_iclusters) * M - nlocal;
}

template <class T, class Space>
void pack_cluster_positions(nondeduced_t<Kokkos::View<const Vec4<T>*, Space>> xall,
                            nondeduced_t<Kokkos::View<const int*, Space>> atom,
                            nondeduced_t<Kokkos::View<Vec4<T>*, Space>> xc) {
  const T far = cluster_padding_coordinate<T>();
  Kokkos::parallel_for(
      "Neighbor::cluster_pack_x", Kokkos::RangePolicy<Space>(0, atom.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t s) {
        const int a = atom(s);
        xc(s) = a >= 0 ? xall(a) : Vec4<T>{far, far, far, T(0)};
      });
}

#define MDREMAP_INSTANTIATE(Space)                                                              \
  template class ClusterGrid<float, Space>;                                                     \
  template class ClusterGrid<double, Space>;                                                    \
  template void pack_cluster_positions<float, Space>(Kokkos::View<const Vec4<float>*, Space>,   \
                                                     Kokkos::View<const int*, Space>,           \
                                                     Kokkos::View<Vec4<float>*, Space>);        \
  template void pack_cluster_positions<double, Space>(Kokkos::View<const Vec4<double>*, Space>, \
                                                      Kokkos::View<const int*, Space>,          \
                                                      Kokkos::View<Vec4<double>*, Space>);
MDREMAP_NEIGHBOR_FOR_SPACES(MDREMAP_INSTANTIATE)
#undef MDREMAP_INSTANTIATE

}  // namespace mdremap::neighbor

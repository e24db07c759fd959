#pragma once
// Atoms into clusters (cluster_list.hpp), as GROMACS' NBNXM grid does it (Páll & Hess 2013 §3):
// columns of a regular x-y grid, the atoms of a column sorted along z and cut into runs of M,
// the last run of a column padded with empty slots. Columns are about (M / density)^(1/3) wide,
// so a cluster is roughly a cube of M atoms.
//
// The binning is the list builder's (cells.hpp, whose cells also order the `cells` atom sort):
// its cells are the columns' z-slices, sorted here by z within each cell. Each column is cut into
// three segments, the ghost cells below the box, the box, the ghost cells above (GROMACS grids
// each domain-decomposition zone apart the same way): a cluster then holds local atoms only or
// ghosts only, the local ones (the i-clusters) are numbered first, and the kernels never need a
// periodic shift.
#include "neighbor/cells.hpp"
#include "neighbor/cluster_list.hpp"

namespace mdremap::neighbor {

template <class T, class Space = ExecSpace>
class ClusterGrid {
 public:
  int m = 8;                                  // atoms per cluster
  int ncol[2] = {1, 1};                       // columns along x and y (the binning's nbin)
  int nz = 1, ez = 0, mz = 1;                 // z cells: all, ghost cells below, box cells
  int ext[2] = {0, 0}, box_cols[2] = {1, 1};  // ghost columns before the box, box columns
  double size[3] = {0, 0, 0};                 // cell edges
  int n_iclusters = 0, n_clusters = 0;
  // Segment q = 3 * column + s (s: 0 below the box, 1 in it, 2 above): its clusters are
  // [seg_first(q), seg_first(q) + seg_clusters(q)), in z order.
  Kokkos::View<int*, Space> seg_first, seg_clusters;
  Kokkos::View<int*, Space> column_of;  // i-cluster -> column cx + ncol[0] * cy
  Kokkos::View<Vec4<T>*, Space> x;      // positions in cluster order at the build (padding far)
  Kokkos::View<T* [6], Space> bbox;     // per cluster: lower x y z, upper x y z

  // Clusters of m atoms from xall (local atoms then the ghosts of g), written to list.atom (and
  // the list's counts of clusters); bounding boxes and positions in cluster order here.
  void build(Kokkos::View<const Vec4<T>*, Space> xall, const BasicGhostAtoms<Space>& g,
             const Box<T>& box, double rlist, int cluster_size, BasicClusterList<Space>& list);

  // The cell edge for clusters of cluster_size atoms at the box's local density: a cluster
  // about a cube, never under a quarter of rlist (which bounds the columns a search visits).
  static double column_width(std::int64_t nlocal, const Box<T>& box, double rlist,
                             int cluster_size);

 private:
  CellBinning<T, Space> bins_;
  Kokkos::View<int*, Space> cell_before_;  // per cell: atoms in its segment's lower cells
};

// The force kernel's positions in cluster order: xc(s) = xall(atom(s)), a padding slot far
// outside any box (and type 0). Every step, before the cluster force kernel.
template <class T, class Space = ExecSpace>
void pack_cluster_positions(nondeduced_t<Kokkos::View<const Vec4<T>*, Space>> xall,
                            nondeduced_t<Kokkos::View<const int*, Space>> atom,
                            nondeduced_t<Kokkos::View<Vec4<T>*, Space>> xc);

// Where padding slots sit: far from every atom, finite in float (distances squared stay finite).
template <class T>
KOKKOS_INLINE_FUNCTION constexpr T cluster_padding_coordinate() {
  return T(1e15);
}

}  // namespace mdremap::neighbor

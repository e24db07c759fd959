#pragma once
// Periodic cells and the cell binning of local atoms and ghosts that the list kernels read.
#include <algorithm>
#include <cstdint>

#include "neighbor/tile_scan.hpp"
#include "neighbor/ghosts.hpp"
#include "neighbor/spaces.hpp"

namespace mdremap::neighbor {

// The cells that tile the periodic box: floor(len / cell_size) per axis (at least 1), of edge
// len / m. The list builder bins with it and the `cells` atom order sorts by it, so the two agree.
template <class T>
struct PeriodicCells {
  int m[3] = {1, 1, 1};
  T lo[3] = {}, inv[3] = {};
  static PeriodicCells make(const Box<T>& box, double cell_size) {
    PeriodicCells g;
    for (int d = 0; d < 3; ++d) {
      g.m[d] = std::max(1, static_cast<int>(double(box.len[d]) / cell_size));
      g.lo[d] = box.lo[d];
      g.inv[d] = static_cast<T>(g.m[d] / double(box.len[d]));
    }
    return g;
  }
  // Cell coordinate along d of a coordinate inside the box (rounding clamped to [0, m-1]).
  KOKKOS_INLINE_FUNCTION int coord(const T c, const int d) const {
    const int v = static_cast<int>((c - lo[d]) * inv[d]);
    return v < 0 ? 0 : (v >= m[d] ? m[d] - 1 : v);
  }
  // The same for a coordinate up to `reach` cells beyond the faces (a ghost from another rank),
  // clamped to [-reach, m + reach - 1].
  KOKKOS_INLINE_FUNCTION int coord_beyond(const T c, const int d, const int reach) const {
    const int v = static_cast<int>(Kokkos::floor((c - lo[d]) * inv[d]));
    return v < -reach ? -reach : (v >= m[d] + reach ? m[d] + reach - 1 : v);
  }
};

// Cell binning of the periodic box plus whole ghost cells beyond each face, and the positions
// gathered in cell order (a cell's candidates are one contiguous run).
template <class T, class Space = ExecSpace>
class CellBinning {
 public:
  int nbin[3] = {1, 1, 1};
  int ext[3] = {0, 0, 0};                // ghost cells beyond each face (interior [ext, ext+m))
  double size[3] = {0, 0, 0};            // cell edge lengths
  Kokkos::View<int*, Space> bin_of;      // n: cell of each atom
  Kokkos::View<int*, Space> bin_count;   // ncells
  Kokkos::View<int*, Space> bin_offset;  // ncells + 1
  Kokkos::View<int*, Space> permute;     // n: atoms grouped by cell
  Kokkos::View<Vec4<T>*, Space> xs;      // positions in cell order (permute)
  // Instead of xs where the list kernel asks for it (host AVX-512): x, y, z as three blocks of
  // xsoa.extent(0) / 3 entries.
  Kokkos::View<T*, Space> xsoa;
  int ncells() const { return nbin[0] * nbin[1] * nbin[2]; }

  // Bins x[0, nlocal) then the ghosts of g (x[nlocal, n)) into cells of edge about cell_size,
  // `rlist` deep beyond the faces, and gathers the positions in cell order (as xsoa if soa).
  void bin(Kokkos::View<const Vec4<T>*, Space> x, const BasicGhostAtoms<Space>& g,
           const Box<T>& box, double cell_size, double rlist, bool soa);

 private:
  Kokkos::View<int*, Space> fill_;    // per-cell fill counters, kept between builds
  Kokkos::View<int*, Space> filled_;  // atoms grouped by cell in the fill's (atomic) order
  TileScan<1, Space> offsets_scan_;   // bin_count -> bin_offset (its scratch)
};

}  // namespace mdremap::neighbor

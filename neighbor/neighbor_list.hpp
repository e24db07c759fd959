#pragma once
// Verlet neighbour lists built on the device from a cell binning (BRIEF section 4).
// Storage is column-major, neighbors[j*n + i] for j < counts[i]: the layout the remap papers
// optimise (thread i's j-th reference is row j). Overflow grows the list, never drops pairs.
#include <algorithm>
#include <cstdint>
#include <string>

#include "mdremap/types.hpp"

namespace mdremap::neighbor {

struct NeighborList {
  std::int64_t n = 0;  // local atoms (threads); entries index local + ghost atoms
  int maxneigh = 0;    // row count: capacity per atom
  int max_count = 0;   // longest list of the last build
  bool half = false;   // half: each pair once (j > i); full: both directions
  // Entry j of atom i is neighbors[j * stride_j + i * stride_i]. Column-major (stride_j = n,
  // stride_i = 1) is the layout the papers optimise: a warp's threads read row j together.
  // Row-major (stride_j = 1, stride_i = maxneigh) suits a CPU thread that walks one atom's list.
  bool column_major = true;
  std::int64_t stride_j = 0, stride_i = 1;
  Kokkos::View<int*> neighbors;  // maxneigh * n
  KOKKOS_INLINE_FUNCTION std::int64_t slot(int j, std::int64_t i) const {
    return j * stride_j + i * stride_i;
  }
  Kokkos::View<int*> counts;  // n
  // CSR copy (built on request): row_ptr[n+1], col[row_ptr[i] .. row_ptr[i+1])
  Kokkos::View<std::int64_t*> row_ptr;
  Kokkos::View<int*> col;
  void build_csr();
  double mean_count() const;
};

// Periodic images of the atoms within the list cutoff of a box face. They are the seam where a
// domain decomposition exchanges ghosts with neighbouring ranks (BRIEF section 11); here the only
// neighbour is the periodic box itself. Ghost g is atom owner[g] shifted by shift[g] box lengths,
// stored after the local atoms: index nlocal + g. Pairs then need no minimum image.
struct GhostAtoms {
  std::int64_t nlocal = 0;
  std::int64_t nghost = 0;
  Kokkos::View<int*> owner;   // nghost
  Kokkos::View<int*> shift;   // nghost, (sx+1) + 3 (sy+1) + 9 (sz+1), s in {-1, 0, 1}
  Kokkos::View<int*> count;   // nlocal, images per atom (scratch)
  Kokkos::View<int*> offset;  // nlocal + 1 (scratch)
};

// Finds the images of wrapped local positions x[0, nlocal) within `rlist` of the faces.
template <class T>
void build_ghosts(Kokkos::View<const Vec4<T>*> x, std::int64_t nlocal, const Box<T>& box,
                  double rlist, GhostAtoms& g);

// xall[0, nlocal) = convert(x), xall[nlocal + g] = convert(x[owner[g]]) + shift[g] * len:
// the per-step position update of local and ghost copies in the force precision C, from entry
// `first` on (nlocal: the ghosts only, where x is the head of xall itself).
template <class S, class C>
void update_positions(Kokkos::View<const Vec4<S>*> x, const GhostAtoms& g, const Box<C>& box,
                      Kokkos::View<Vec4<C>*> xall, std::int64_t first = 0);

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
};

// Cell binning of the periodic box plus whole ghost cells beyond each face.
struct CellBinning {
  int nbin[3] = {1, 1, 1};
  int ext[3] = {0, 0, 0};         // ghost cells beyond each face (the interior is [ext, ext+m))
  double size[3] = {0, 0, 0};     // cell edge lengths
  Kokkos::View<int*> bin_of;      // n: cell of each atom
  Kokkos::View<int*> bin_count;   // ncells
  Kokkos::View<int*> bin_offset;  // ncells + 1
  Kokkos::View<int*> permute;     // n: atoms grouped by cell
  int ncells() const { return nbin[0] * nbin[1] * nbin[2]; }
};

// GPU list-build kernel. CellCandidates (default): a warp per cell whose lanes take candidates,
// one ballot per (atom, 32 candidates), the rows staged in shared memory and written coalesced.
// CellAtoms: a warp per cell whose lanes take the cell's atoms (the earlier kernel, kept to
// cross-check the new one and for stencils of more than 32 rows). The CPU has one kernel.
enum class GpuBuildKernel { CellCandidates, CellAtoms };

template <class T>
class VerletListBuilder {
 public:
  // bin_size: cell edge, between a third of the list cutoff and the list cutoff.
  VerletListBuilder(double list_cutoff, bool half, bool column_major = true, double bin_size = 0)
      : rlist_(list_cutoff),
        half_(half),
        column_major_(column_major),
        bin_size_(bin_size > 0 ? bin_size : 0.5 * list_cutoff) {}
  // xall holds nlocal wrapped atoms then their ghosts (g). Lists cover the local atoms; a half
  // list holds each physical pair once (half stencil; see bin() for why images are exact).
  // Grows `list` until every pair fits.
  void build(Kokkos::View<const Vec4<T>*> xall, const GhostAtoms& g, const Box<T>& box,
             NeighborList& list);
  // Bins local atoms then ghosts (xall, g) and gathers the positions in cell order.
  void bin(Kokkos::View<const Vec4<T>*> xall, const GhostAtoms& g, const Box<T>& box);
  const CellBinning& binning() const { return bins_; }
  double list_cutoff() const { return rlist_; }
  double bin_size() const { return bin_size_; }
  int regrows() const { return regrows_; }
  void set_gpu_kernel(GpuBuildKernel k) { gpu_kernel_ = k; }
  // The kernel the last GPU build used (CellAtoms where CellCandidates does not apply).
  GpuBuildKernel last_gpu_kernel() const { return last_kernel_; }

 private:
  double rlist_;
  bool half_;
  bool column_major_;
  double bin_size_;
  CellBinning bins_;
  Kokkos::View<int*> fill_;    // per-cell fill counters, kept between builds
  Kokkos::View<Vec4<T>*> xs_;  // positions in cell order (permute)
  Kokkos::View<T*> xsoa_;      // instead of xs_ in host AVX-512 builds: x, y, z as three blocks
  int regrows_ = 0;
  GpuBuildKernel gpu_kernel_ = GpuBuildKernel::CellCandidates;
  GpuBuildKernel last_kernel_ = GpuBuildKernel::CellCandidates;
};

// Wraps positions into [lo, lo+len) along each axis.
template <class T>
void wrap_positions(Kokkos::View<Vec4<T>*> x, const Box<T>& box);

// Largest squared displacement between x and xhold (for the skin/2 rebuild trigger).
template <class T>
double max_displacement_sq(Kokkos::View<const Vec4<T>*> x, Kokkos::View<const Vec4<T>*> xhold,
                           const Box<T>& box);

// Permutation that orders atoms along a space-filling curve ("morton" or "hilbert") over a
// 1024^3 grid of the box: atoms close in space get close indices (better gather locality).
// "cells" orders them by the list builder's cells (edge >= cell_size, x fastest, the order of
// VerletListBuilder::bin), keeping the current order inside a cell: the threads of a warp then
// share a cell, and so the same candidate runs and largely the same neighbours.
template <class T>
Kokkos::View<std::int64_t*> spatial_order(Kokkos::View<const Vec4<T>*> x, const Box<T>& box,
                                          const std::string& curve, double cell_size = 0);

// 3D curve keys of 10-bit grid coordinates (host and device).
KOKKOS_INLINE_FUNCTION std::uint32_t spread_bits10(std::uint32_t v) {
  v &= 0x3ff;
  v = (v | (v << 16)) & 0x030000FF;
  v = (v | (v << 8)) & 0x0300F00F;
  v = (v | (v << 4)) & 0x030C30C3;
  v = (v | (v << 2)) & 0x09249249;
  return v;
}
KOKKOS_INLINE_FUNCTION std::uint32_t morton3(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  return spread_bits10(x) | (spread_bits10(y) << 1) | (spread_bits10(z) << 2);
}
// Hilbert index by Skilling's transpose method ("Programming the Hilbert curve", 2004).
KOKKOS_INLINE_FUNCTION std::uint32_t hilbert3(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  constexpr int bits = 10;
  std::uint32_t X[3] = {x, y, z};
  for (std::uint32_t Q = 1u << (bits - 1); Q > 1; Q >>= 1) {  // inverse undo excess work
    const std::uint32_t P = Q - 1;
    for (int i = 0; i < 3; ++i) {
      if (X[i] & Q) {
        X[0] ^= P;
      } else {
        const std::uint32_t t = (X[0] ^ X[i]) & P;
        X[0] ^= t;
        X[i] ^= t;
      }
    }
  }
  X[1] ^= X[0];  // Gray encode
  X[2] ^= X[1];
  std::uint32_t t = 0;
  for (std::uint32_t Q = 1u << (bits - 1); Q > 1; Q >>= 1)
    if (X[2] & Q) t ^= Q - 1;
  for (int i = 0; i < 3; ++i) X[i] ^= t;
  // Interleave the transposed form, most significant bit first.
  std::uint32_t h = 0;
  for (int b = bits - 1; b >= 0; --b)
    for (int i = 0; i < 3; ++i) h = (h << 1) | ((X[i] >> b) & 1u);
  return h;
}

}  // namespace mdremap::neighbor

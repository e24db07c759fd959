#pragma once
// Verlet neighbour lists built on the device from a cell binning (BRIEF section 4).
// Storage is column-major, neighbors[j*n + i] for j < counts[i]: the layout the remap papers
// optimise (thread i's j-th reference is row j). Overflow grows the list, never drops pairs.
#include <cstdint>
#include <string>

#include "mdremap/types.hpp"

namespace mdremap::neighbor {

struct NeighborList {
  std::int64_t n = 0;
  int maxneigh = 0;   // row count: capacity per atom
  int max_count = 0;  // longest list of the last build
  bool half = false;  // half: each pair once (j > i); full: both directions
  Kokkos::View<int*> neighbors;  // maxneigh * n
  Kokkos::View<int*> counts;     // n
  // CSR copy (built on request): row_ptr[n+1], col[row_ptr[i] .. row_ptr[i+1])
  Kokkos::View<std::int64_t*> row_ptr;
  Kokkos::View<int*> col;
  void build_csr();
  double mean_count() const;
};

// Cell binning: cells of edge >= the list cutoff, so a 27-cell stencil covers every neighbour.
struct CellBinning {
  int nbin[3] = {1, 1, 1};
  Kokkos::View<int*> bin_of;     // n: cell of each atom
  Kokkos::View<int*> bin_count;  // ncells
  Kokkos::View<int*> bin_offset; // ncells + 1
  Kokkos::View<int*> permute;    // n: atoms grouped by cell
  int ncells() const { return nbin[0] * nbin[1] * nbin[2]; }
};

template <class T>
class VerletListBuilder {
 public:
  VerletListBuilder(double list_cutoff, bool half) : rlist_(list_cutoff), half_(half) {}
  // x must be wrapped into the box. Grows `list` until every pair fits.
  void build(Kokkos::View<const Vec4<T>*> x, const Box<T>& box, NeighborList& list);
  void bin(Kokkos::View<const Vec4<T>*> x, const Box<T>& box);
  const CellBinning& binning() const { return bins_; }
  double list_cutoff() const { return rlist_; }
  int regrows() const { return regrows_; }

 private:
  double rlist_;
  bool half_;
  CellBinning bins_;
  int regrows_ = 0;
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
template <class T>
Kokkos::View<std::int64_t*> spatial_order(Kokkos::View<const Vec4<T>*> x, const Box<T>& box,
                                          const std::string& curve);

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

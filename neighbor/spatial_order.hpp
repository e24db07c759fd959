#pragma once
// Spatial atom orders (neighbor.sort): Morton and Hilbert curves over the box, and the list
// builder's cells. Atoms close in space get close indices: better gather locality.
#include <cstdint>

#include "neighbor/options.hpp"
#include "neighbor/spaces.hpp"

namespace mdremap::neighbor {

// Permutation that orders atoms along a space-filling curve (Morton or Hilbert) over a 1024^3
// grid of the box. Cells orders them by the list builder's cells (edge >= cell_size, x fastest,
// the order of CellBinning::bin), keeping the current order inside a cell: the threads of a warp
// then share a cell, and so the same candidate runs and largely the same neighbours. Auto and
// None name no order: an Error.
template <class T, class Space = ExecSpace>
Kokkos::View<std::int64_t*, Space> spatial_order(
    nondeduced_t<Kokkos::View<const Vec4<T>*, Space>> x, const Box<T>& box, AtomSort order,
    double cell_size = 0);

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

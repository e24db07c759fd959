#pragma once
// A sliced-ELL SpMV with 16-bit column offsets (`spmv.kernel: sell`): the matrix copied once
// into a format that moves fewer bytes than CSR, for a bandwidth-bound SpMV.
//
// Seed 000 §6.3.1 reorders CSR's val/col_ind into padded column-major (ELL) so that a warp's
// loads are coalesced; here the padding is per slice of 32 rows (one warp: SELL-32, Kreutzer et
// al. 2014, without their sorting, so x and y keep the natural order) and each column is stored
// as a 16-bit offset from a base per slice and entry number k (the least k-th column over the
// slice's 32 rows, one 4-byte load the warp shares): on a mesh or grid numbered along its
// geometry the k-th neighbours of 32 consecutive rows lie close together even where the band is
// wide (a 256^3 grid's +-65,536), so every slice fits. A slice where they spread over more than
// 16 bits keeps 32-bit columns (the whole slice, so a warp never diverges on the format); a random
// numbering puts every slice there. Per row no row pointer is read: a slice's start and width.
//
// Bytes per entry: 8 (value) + 2 (offset) + 4/32 (base) against CSR's 8 + 4, and CSR's 8 B per
// row of row pointer saved; padding costs a whole entry. describe() states the format's bytes.
#include <memory>

#include "cg/spmv.hpp"

namespace mdremap::cg {

std::unique_ptr<CgSpmv> make_sell_spmv(const DeviceCsr& a);

// The format, for tests: slices of kSellSlice rows, each `width` wide; `wide` slices hold 32-bit
// columns. Built on the device.
inline constexpr int kSellSlice = 32;
struct SellMatrix {
  std::int64_t rows = 0, cols = 0, slices = 0;
  Kokkos::View<int*> width;             // per slice: its longest row
  Kokkos::View<std::uint8_t*> wide;     // per slice: 1 = 32-bit columns
  Kokkos::View<std::int64_t*> start;    // per slice: its first entry (val, off16)
  Kokkos::View<std::int64_t*> start32;  // per slice: its first entry in col32 (wide slices)
  Kokkos::View<double*> val;            // slice-major, then column k, then the slice's row
  Kokkos::View<std::uint16_t*> off16;   // as val: column - base (narrow slices)
  Kokkos::View<int*> base;              // narrow slices: column k's base at start / 32 + k
  Kokkos::View<int*> col32;             // wide slices only
  std::int64_t entries = 0, entries32 = 0, wide_slices = 0;
  double bytes() const;  // what one SpMV moves at least in this format (with x and y)
};
SellMatrix build_sell(const DeviceCsr& a);

}  // namespace mdremap::cg

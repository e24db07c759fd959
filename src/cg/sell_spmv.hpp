#pragma once
// A sliced-ELL SpMV with 16-bit column offsets (`spmv.kernel: sell`): the matrix copied once
// into a format that moves fewer bytes than CSR, for a bandwidth-bound SpMV.
//
// Seed 000 §6.3.1 reorders CSR's val/col_ind into padded column-major (ELL) so that a warp's
// loads are coalesced; here the padding is per slice of 32 rows (one warp: SELL-32, Kreutzer et
// al. 2014; their sorting by row length within windows of sigma rows only where the padding in
// the rows' own order exceeds 5%, so y is written in place otherwise) and each column is stored
// as a 16-bit offset from a base per slice and entry number k (the least k-th column over the
// slice's 32 rows, one 4-byte load the warp shares): on a mesh or grid numbered along its
// geometry the k-th neighbours of 32 consecutive rows lie close together even where the band is
// wide (a 256^3 grid's +-65,536), so every slice fits. A slice where they spread over more than
// 16 bits keeps 32-bit columns (the whole slice, so a warp never diverges on the format); a random
// numbering puts every slice there. Per row no row pointer is read: a slice's start and width.
//
// Bytes per entry: 8 (value) + 2 (offset) + 4/32 (base) against CSR's 8 + 4, and CSR's 8 B per
// row of row pointer saved; padding costs a whole entry. describe() states the format's bytes.
//
// Diagonal columns (`spmv.sell_diagonals`, default on): where the rows of a slice share most of
// their offsets column - row (a stencil or a mesh numbered along its geometry, whose boundary
// rows lack a few of them), the slice's first D columns are those shared offsets, one 4-byte
// offset a slice column and no index an entry: row r's column is r + offset (a row without that
// entry holds a zero there; an offset that would take some slot's column outside the matrix is
// not a diagonal column of that slice). The entries left over follow
// as the offset columns above. It is the diagonal (DIA) format within a slice (Bell & Garland
// 2009: DIA for stencils, ELL for the rest), chosen per slice where it moves fewer bytes: 8 an
// entry instead of 10.1 on a 7-point Laplacian in its natural order. A random numbering shares
// no offsets, and its slices stay as they were.
#include <memory>

#include "cg/spmv.hpp"

namespace mdremap::cg {

// sigma: 0 = sort rows by length within windows of kSellSigma rows where the slices' padding in
// the rows' own order exceeds kSellSortPadding; 1 = never; N > 1 = within windows of N rows.
// l2_persist: val and off16 (one allocation) marked persisting in the L2 while the kernel lives
// (mdremap/remap/l2_window.hpp; CUDA builds, else mdremap::Error).
// fused_dots: the CG iteration's two dot products in the SpMV's kernel (apply_dots and
// apply_dots_into), else in a reduction after it.
// diagonals: slices whose rows share their offsets store them as diagonal columns (above).
std::unique_ptr<CgSpmv> make_sell_spmv(const DeviceCsr& a, int sigma = 0, bool l2_persist = false,
                                       bool fused_dots = true, bool diagonals = true);

// The format, for tests: slices of kSellSlice rows, each `width` wide; `wide` slices hold 32-bit
// columns. Built on the device.
inline constexpr int kSellSlice = 32;
inline constexpr int kSellSigma = 256;
inline constexpr double kSellSortPadding = 0.05;
// A slice is considered for diagonal columns where its longest row has at most this many entries
// (the candidates are that row's offsets).
inline constexpr int kSellMaxDiagonals = 32;
struct SellMatrix {
  std::int64_t rows = 0, cols = 0, slices = 0;
  // The per-slice arrays below (width, wide, ndiag, start, start32) and `dots` are carved from
  // this one allocation.
  Kokkos::View<char*> slice_storage;
  Kokkos::View<remap::Sums2> dots;      // the CG iteration's two sums before they reach the host
  Kokkos::View<int*> width;             // per slice: its longest row
  Kokkos::View<std::uint8_t*> wide;     // per slice: 1 = 32-bit columns
  Kokkos::View<std::uint8_t*> ndiag;    // per slice: its leading diagonal columns (0: none)
  Kokkos::View<std::int64_t*> start;    // per slice: its first entry (val, off16)
  Kokkos::View<std::int64_t*> start32;  // per slice: its first entry in col32 (wide slices)
  Kokkos::View<char*> storage;  // val, off16, then base: one allocation (one L2 window covers it)
  Kokkos::View<double*> val;    // slice-major, then column k, then the slice's row
  Kokkos::View<std::uint16_t*> off16;  // as val: column - base (narrow slices)
  // At start / 32 + k: narrow slices' column k's base; a slice's diagonal columns (k < ndiag,
  // narrow or wide) their offset column - row.
  Kokkos::View<int*> base;
  Kokkos::View<int*> col32;     // wide slices only
  Kokkos::View<int*> perm;      // sorted (sigma > 1): slot -> row; else empty
  std::int64_t sigma = 1;       // the sorting windows' rows (1: the rows' own order)
  double padding_unsorted = 0;  // the padding the rows' own order would have
  std::int64_t entries = 0, entries32 = 0, wide_slices = 0;
  // Slices with diagonal columns, and the entries of narrow slices' diagonal columns (no index).
  std::int64_t diag_slices = 0, entries_diag = 0;
  // Every row holds its diagonal entry (column = row): the fused SpMV + dots then takes u's own
  // entry from the row's gather instead of a load of its own (sell_spmv.cpp, SellApplyDots).
  bool diagonal_in_rows = false;
  // Set-up, ms (host clock; the phases end at waits the set-up has anyway): the slices' shape
  // (widths, sorting, starts, bases), the allocations (timed on their own), filling val, off16
  // and col32.
  double shape_ms = 0, alloc_ms = 0, fill_ms = 0;
  double bytes() const;  // what one SpMV moves at least in this format (with x and y)
};
SellMatrix build_sell(const DeviceCsr& a, int sigma = 0, bool diagonals = true);

}  // namespace mdremap::cg

#pragma once
// The papers' memory metric (seed 001 §2.1, seed 000 §3.1): for every warp (W consecutive
// threads) and every row j (one load instruction), the number of distinct S-byte segments the
// active lanes (j < len[t]) touch. Element k of the array lives at bytes [k*E, (k+1)*E); an
// element that straddles segments (E > S, or S not a multiple of E) counts every segment it
// touches. Computed on the host from the real index arrays; OpenMP-parallel over warps when built
// with OpenMP. Only the shapes are checked here: active entries must be valid (validate_pattern).
#include <cstdint>

#include "mdremap/remap/pattern.hpp"

namespace mdremap::remap {

struct TransactionCount {
  std::int64_t loads = 0;   // warp-loads with >= 1 active lane (one per warp and row)
  std::int64_t seg32 = 0;   // sum over warp-loads of distinct 32-byte segments touched
  std::int64_t seg128 = 0;  // same for 128-byte segments
};

inline TransactionCount& operator+=(TransactionCount& a, const TransactionCount& b) {
  a.loads += b.loads;
  a.seg32 += b.seg32;
  a.seg128 += b.seg128;
  return a;
}

// Gather layout: thread t, row j reads element p.index[j*T+t] of A.
TransactionCount count_transactions(const IrregularPattern& p, int warp_size = 32);
// Any segment size in bytes (> 0); returns the summed distinct-segment count.
std::int64_t count_segments(const IrregularPattern& p, int segment_bytes, int warp_size = 32);

// Duplicated / remapped layout (seed 000 eq. 2): thread t, row j reads element j*T+t of A'.
// Only the shape (threads, rows, len, elem_bytes) of p matters.
TransactionCount count_transactions_duplicated(const IrregularPattern& p, int warp_size = 32);
std::int64_t count_segments_duplicated(const IrregularPattern& p, int segment_bytes,
                                       int warp_size = 32);

// A coalesced load of `count` consecutive elements starting at element `first`: lane l of the
// i-th warp-load reads element first + i*W + l (how a block stages its packed set, seed 001 §3.4).
TransactionCount count_contiguous_transactions(std::int64_t first, std::int64_t count,
                                               int elem_bytes, int warp_size = 32);

}  // namespace mdremap::remap

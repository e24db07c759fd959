#pragma once
// Two-level irregular references A[B[C[t]]] (BRIEF section 5; seed 000 §4.1 last paragraph,
// §4.2 Listings 2-3, §6.3.2). In seed 000's SP kernel calc_pi_values (Listing 2):
//
//   int j = ed_dst[tid];                      // C: outer[t]
//   int v_j = var_rowOff[j];                  // B: row_offset[outer[t]]
//   int v_j_len = var_rowOff[j+1] - v_j;      //    len[t]
//   for (int i = 0; i < v_j_len; i++)
//     int ed_btoj = var_col[v_j + i];         // inner[row_offset[outer[t]] + i]
//
// and the kernel then reads the data of element ed_btoj. So thread t's j-th reference is
//   A[inner[row_offset[outer[t]] + j]],  0 <= j < row_offset[outer[t]+1] - row_offset[outer[t]]
// with outer = ed_dst, row_offset = var_rowOff, inner = var_col. (Where the kernel only needs the
// values of var_col itself, A = var_col and inner is the identity.)
//
// flatten() composes the two levels into the one-level IrregularPattern, so every strategy, the
// transaction model and the planners apply unchanged. It is CSR by default: SP's rows are long
// and uneven, and rows-by-threads would store max len * threads entries. The device-side
// two-level remap that skips the host flatten is remap/two_level.hpp.
#include <cstdint>
#include <vector>

#include "mdremap/remap/pattern.hpp"
#include "mdremap/remap/pattern_ops.hpp"

namespace mdremap::remap {

struct TwoLevelPattern {
  std::int64_t threads = 0;              // T: number of threads (SP: edges)
  std::vector<std::int32_t> outer;       // C, T entries: the row of B thread t starts from (ed_dst)
  std::vector<std::int64_t> row_offset;  // B, nrows+1 entries, non-decreasing (var_rowOff)
  std::vector<std::int32_t> inner;       // the column array: element ids of A (var_col)
  std::int64_t data_count = 0;           // number of elements in A
  int elem_bytes = 16;                   // bytes per element of A

  std::int64_t nrows() const { return static_cast<std::int64_t>(row_offset.size()) - 1; }
};

// Throws mdremap::Error naming the first problem: outer has threads entries, each in
// [0, nrows); row_offset is non-empty, starts >= 0, is non-decreasing and ends <= inner.size();
// every referenced inner entry (in [row_offset.front(), row_offset.back())) is in
// [0, data_count); no row is longer than an int.
void validate_two_level(const TwoLevelPattern& p);

// The one-level pattern: rows = max len, len[t] = row_offset[outer[t]+1] - row_offset[outer[t]],
// at(j, t) = inner[row_offset[outer[t]] + j] for j < len[t]; CSR (offset = prefix sums of len) or
// rows-by-threads (index[j*T+t], -1 past len). Validates first.
IrregularPattern flatten(const TwoLevelPattern& p, HostLayout layout = HostLayout::csr);

}  // namespace mdremap::remap

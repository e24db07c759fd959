#pragma once
// The irregular reference model of the remap layer (BRIEF section 5): thread t reads
// A[P[j][t]] for j < len[t]. The layer knows nothing of MD, CG or SP; apps describe their
// reference with this struct (host copy) and receive a strategy.
//
// Two storage layouts of P, both addressed through pos(j, t) / at(j, t):
//  - rows-by-threads (offset empty): index[j * threads + t], rows = max len (MD's column-major
//    neighbour list, the layout the papers optimise);
//  - CSR (offset holds threads+1 row starts): index[offset[t] + j] (SpMV's col[rowptr[t] + j],
//    SP's flattened two-level reference). No R*T blow-up for one very long row.
// Planner outputs indexed "like the pattern" (sharing's local indices, say) use pos(j, t).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mdremap::remap {

struct IrregularPattern {
  std::int64_t threads = 0;          // T: number of threads (atoms, rows, edges)
  int rows = 0;                      // R: max len[t]
  std::int64_t data_count = 0;       // number of elements in A
  int elem_bytes = 16;               // bytes per element of A (float4 position = 16)
  std::vector<std::int32_t> index;   // R*T rows-by-threads, or offset.back() entries (CSR)
  std::vector<std::int32_t> len;     // T
  std::vector<std::int64_t> offset;  // empty (rows-by-threads) or T+1 CSR row starts

  bool csr() const { return !offset.empty(); }
  // Where entry j of thread t is stored in index (and in any array laid out like the pattern).
  std::size_t pos(int j, std::int64_t t) const {
    return csr() ? static_cast<std::size_t>(offset[t] + j)
                 : static_cast<std::size_t>(j) * static_cast<std::size_t>(threads) +
                       static_cast<std::size_t>(t);
  }
  std::int32_t at(int j, std::int64_t t) const { return index[pos(j, t)]; }
  // Active references (sum of len).
  std::int64_t references() const {
    std::int64_t n = 0;
    for (std::int32_t l : len) n += l;
    return n;
  }
};

}  // namespace mdremap::remap

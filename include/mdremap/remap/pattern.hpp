#pragma once
// The irregular reference model of the remap layer (BRIEF section 5): thread t reads
// A[P[j][t]] for j < len[t]. P is stored rows-by-threads (column-major over threads):
// index[j * threads + t]. The layer knows nothing of MD, CG or SP; apps describe their
// reference with this struct (host copy) and receive a strategy.
#include <cstdint>
#include <vector>

namespace mdremap::remap {

struct IrregularPattern {
  std::int64_t threads = 0;         // T: number of threads (atoms, rows, edges)
  int rows = 0;                     // R: max len[t]; index holds R*T entries
  std::int64_t data_count = 0;      // number of elements in A
  int elem_bytes = 16;              // bytes per element of A (float4 position = 16)
  std::vector<std::int32_t> index;  // R*T, index[j*T+t]; entries with j >= len[t] are ignored
  std::vector<std::int32_t> len;    // T

  std::int32_t at(int j, std::int64_t t) const {
    return index[static_cast<std::size_t>(j) * threads + t];
  }
};

}  // namespace mdremap::remap

#include "mdremap/remap/two_level.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "mdremap/error.hpp"

namespace mdremap::remap {

void validate_two_level(const TwoLevelPattern& p) {
  const std::string what = "two-level pattern: ";
  if (p.threads < 0 || p.data_count < 0 || p.elem_bytes <= 0)
    throw Error(what + "threads, data_count must be >= 0 and elem_bytes > 0");
  if (static_cast<std::int64_t>(p.outer.size()) != p.threads)
    throw Error(what + "outer has " + std::to_string(p.outer.size()) +
                " entries, expected threads = " + std::to_string(p.threads));
  if (p.row_offset.empty())
    throw Error(what + "row_offset is empty, expected nrows+1 >= 1 entries");
  if (p.row_offset.front() < 0)
    throw Error(what + "row_offset[0] = " + std::to_string(p.row_offset.front()) + " is negative");
  const std::int64_t nrows = p.nrows();
  for (std::int64_t r = 0; r < nrows; ++r) {
    const std::int64_t n = p.row_offset[r + 1] - p.row_offset[r];
    if (n < 0)
      throw Error(what + "row_offset decreases at row " + std::to_string(r) + " (" +
                  std::to_string(p.row_offset[r]) + " -> " + std::to_string(p.row_offset[r + 1]) +
                  ")");
    if (n > std::numeric_limits<int>::max())
      throw Error(what + "row " + std::to_string(r) + " has " + std::to_string(n) +
                  " entries, more than an int");
  }
  if (p.row_offset.back() > static_cast<std::int64_t>(p.inner.size()))
    throw Error(what + "row_offset ends at " + std::to_string(p.row_offset.back()) +
                " but inner has only " + std::to_string(p.inner.size()) + " entries");
  for (std::int64_t t = 0; t < p.threads; ++t) {
    const std::int32_t o = p.outer[t];
    if (o < 0 || o >= nrows)
      throw Error(what + "outer[" + std::to_string(t) + "] = " + std::to_string(o) +
                  " is outside [0, nrows = " + std::to_string(nrows) + ")");
  }
  for (std::int64_t k = p.row_offset.front(); k < p.row_offset.back(); ++k) {
    const std::int32_t e = p.inner[k];
    if (e < 0 || e >= p.data_count)
      throw Error(what + "inner[" + std::to_string(k) + "] = " + std::to_string(e) +
                  " is outside [0, data_count = " + std::to_string(p.data_count) + ")");
  }
}

IrregularPattern flatten(const TwoLevelPattern& p, HostLayout layout) {
  validate_two_level(p);
  IrregularPattern out;
  out.threads = p.threads;
  out.data_count = p.data_count;
  out.elem_bytes = p.elem_bytes;
  out.len.resize(p.threads);
  std::int64_t rows = 0, total = 0;
  for (std::int64_t t = 0; t < p.threads; ++t) {
    const std::int64_t n = p.row_offset[p.outer[t] + 1] - p.row_offset[p.outer[t]];
    out.len[t] = static_cast<std::int32_t>(n);
    rows = std::max(rows, n);
    total += n;
  }
  out.rows = static_cast<int>(rows);
  if (layout == HostLayout::csr) {
    out.offset.assign(p.threads + 1, 0);
    for (std::int64_t t = 0; t < p.threads; ++t) out.offset[t + 1] = out.offset[t] + out.len[t];
    out.index.resize(total);
  } else {
    out.index.assign(static_cast<std::size_t>(rows) * p.threads, -1);
  }
  for (std::int64_t t = 0; t < p.threads; ++t) {
    const std::int64_t v = p.row_offset[p.outer[t]];  // SP: v_j = var_rowOff[ed_dst[tid]]
    for (int j = 0; j < out.len[t]; ++j) out.index[out.pos(j, t)] = p.inner[v + j];
  }
  return out;
}

}  // namespace mdremap::remap

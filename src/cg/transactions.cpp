#include "cg/transactions.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace mdremap::cg {

remap::IrregularPattern spmv_pattern(const HostCsr& a) {
  remap::IrregularPattern p;
  p.threads = a.rows;
  p.data_count = a.cols;
  p.elem_bytes = 8;
  p.index = a.col;
  p.offset = a.rowptr;
  p.len.resize(a.rows);
  for (std::int64_t t = 0; t < a.rows; ++t) p.len[t] = static_cast<std::int32_t>(a.row_len(t));
  p.rows = static_cast<int>(a.max_row_len());
  return p;
}

SpmvTransactions csr_thread_transactions(const HostCsr& a) {
  SpmvTransactions out;
  remap::IrregularPattern p = spmv_pattern(a);
  out.data = remap::count_transactions(p);
  if (a.nnz() > std::numeric_limits<std::int32_t>::max()) {
    out.index_counted = false;
    return out;
  }
  // col[k] and val[k] for k = rowptr[t] + j: the same pattern over the entry arrays themselves.
  std::iota(p.index.begin(), p.index.end(), 0);
  p.data_count = a.nnz();
  p.elem_bytes = 4;
  out.index = remap::count_transactions(p);
  p.elem_bytes = 8;
  out.index += remap::count_transactions(p);
  // rowptr[t] and rowptr[t + 1]: two coalesced loads of consecutive 8-byte entries.
  out.index += remap::count_contiguous_transactions(0, a.rows, 8);
  out.index += remap::count_contiguous_transactions(1, a.rows, 8);
  return out;
}

}  // namespace mdremap::cg

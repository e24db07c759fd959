#include "cg/transactions.hpp"

#include "mdremap/remap/transaction_breakdown.hpp"

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

SpmvTransactions csr_transactions(const HostCsr& a) {
  remap::TransactionModel m;
  m.index_bytes = 4;   // col: int32
  m.length_bytes = 8;  // rowptr: int64
  m.weight_bytes = 8;  // val: double
  const auto b = remap::count_breakdown_gather(spmv_pattern(a), m);
  SpmvTransactions out;
  out.data = b.data;
  out.index = b.index;
  out.index += b.weights;
  out.index += b.lengths;
  return out;
}

SpmvTransactions ell_transactions(const HostCsr& a) {
  remap::IrregularPattern p = spmv_pattern(a);
  SpmvTransactions out;
  out.data = remap::count_transactions(p);  // x through the copied index: the same elements
  p.elem_bytes = 4;                         // col'
  out.index = remap::count_transactions_duplicated(p);
  p.elem_bytes = 8;  // val'
  out.index += remap::count_transactions_duplicated(p);
  out.index += remap::count_contiguous_transactions(0, a.rows, 4);  // len[t]
  return out;
}

}  // namespace mdremap::cg

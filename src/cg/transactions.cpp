#include "cg/transactions.hpp"

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

remap::TransactionModel csr_transaction_model() {
  remap::TransactionModel m;
  m.index_bytes = 4;
  m.length_bytes = 4;
  m.weight_bytes = 8;
  return m;
}

remap::TransactionBreakdown csr_breakdown(const HostCsr& a) {
  return remap::count_breakdown_gather(spmv_pattern(a), csr_transaction_model());
}

}  // namespace mdremap::cg

#pragma once
// The papers' memory metric for CG's SpMV (seed 001 §2.1, seed 000 §3.1 and Table 4): distinct
// 32- and 128-byte segments per warp-load, from the real CSR arrays, for the thread-per-row CSR
// kernel (a warp = 32 consecutive rows; load j of lane t reads x[col[rowptr[t] + j]]).
#include "cg/csr.hpp"
#include "mdremap/remap/pattern.hpp"
#include "mdremap/remap/transactions.hpp"

namespace mdremap::cg {

// The SpMV's irregular reference as the remap layer's host pattern (CSR layout): thread t = row
// t, index = col, data = x (8-byte elements).
remap::IrregularPattern spmv_pattern(const HostCsr& a);

struct SpmvTransactions {
  remap::TransactionCount data;   // the x gathers alone
  remap::TransactionCount index;  // col and val loads (rowptr[t], rowptr[t+1]) of the same lanes
  bool index_counted = true;      // false past 2^31 entries (positions are 32-bit in patterns)
  remap::TransactionCount total() const {
    remap::TransactionCount t = data;
    t += index;
    return t;
  }
};

SpmvTransactions csr_thread_transactions(const HostCsr& a);

}  // namespace mdremap::cg

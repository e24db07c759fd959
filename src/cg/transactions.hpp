#pragma once
// The papers' memory metric for CG's SpMV (seed 001 §2.1, seed 000 §3.1 and Table 4): distinct
// 32- and 128-byte segments per warp-load, from the real CSR arrays, for the two layouts the
// thread-per-row kernel reads (a warp = 32 consecutive rows):
//  - CSR (gather, cuSPARSE's layout): lane t's load j reads col[rowptr[t]+j], val[rowptr[t]+j]
//    (scattered across the warp) and x[col[...]], after its bounds rowptr[t], rowptr[t+1];
//  - ELL, seed 000's reordered val/col_ind (dup of the references): col'[j*T+t] and val'[j*T+t]
//    coalesced, len[t], and the same x gathers.
#include "cg/csr.hpp"
#include "mdremap/remap/pattern.hpp"
#include "mdremap/remap/transactions.hpp"

namespace mdremap::cg {

// The SpMV's irregular reference as the remap layer's host pattern (CSR layout): thread t = row
// t, index = col, data = x (8-byte elements).
remap::IrregularPattern spmv_pattern(const HostCsr& a);

struct SpmvTransactions {
  remap::TransactionCount data;   // the x gathers alone
  remap::TransactionCount index;  // column indices, values and row bounds of the same lanes
  remap::TransactionCount total() const {
    remap::TransactionCount t = data;
    t += index;
    return t;
  }
};

SpmvTransactions csr_transactions(const HostCsr& a);
SpmvTransactions ell_transactions(const HostCsr& a);

}  // namespace mdremap::cg

#pragma once
// The papers' memory metric for CG's SpMV (seed 001 §2.1, seed 000 §3.1 and Table 4): distinct
// 32- and 128-byte segments per warp-load, from the real CSR arrays. The SpMV's reference as the
// remap layer's host pattern, and the CSR gather's breakdown (cuSPARSE's layout: lane t's load j
// reads col[rowptr[t]+j], val[rowptr[t]+j] and x[col[...]], after rowptr[t], rowptr[t+1]); each
// remap strategy models its own layout (RemapStrategy::model_breakdown).
#include "cg/csr.hpp"
#include "mdremap/remap/pattern.hpp"
#include "mdremap/remap/transaction_breakdown.hpp"

namespace mdremap::cg {

// Thread t = row t, index = col (CSR layout: offset = rowptr), data = x (8-byte elements).
remap::IrregularPattern spmv_pattern(const HostCsr& a);

// 4-byte column indices and row bounds (seed 000 Listing 1's rowPtr), 8-byte values.
remap::TransactionModel csr_transaction_model();
remap::TransactionBreakdown csr_breakdown(const HostCsr& a);

}  // namespace mdremap::cg

#pragma once
// The papers' transaction model (seed 001 §2.1, seed 000 §3.1 and Table 5) for calc_pi_values'
// two-level reference var_col[var_rowOff[ed_dst[t]] + j], one thread per edge t, computed on the
// host from the real arrays with remap::count_transactions on the flattened pattern
// (remap::flatten of the TwoLevelPattern {outer = ed_dst, row_offset = var_rowOff, inner =
// identity, A = var_col}), a warp-aligned slice of threads at a time so a 10^7-variable formula
// does not need the whole R x E index in memory.
#include <cstdint>

#include "mdremap/remap/transactions.hpp"
#include "sp/formula.hpp"

namespace mdremap::sp {

struct CalcPiTransactions {
  std::int64_t references = 0;         // sum over edges of the variable's degree
  remap::TransactionCount data;        // the var_col loads (what a remap strategy rearranges)
  remap::TransactionCount index;       // ed_dst[t] (coalesced) + var_rowOff[j], var_rowOff[j+1]
  remap::TransactionCount with_index;  // data + index: the gather's loads for this reference
  remap::TransactionCount dup_data;    // the var_col loads after seed 000's two-level remap
  remap::TransactionCount survey;      // eta[e] for each e read from var_col (every mode)
};

std::int64_t calc_pi_references(const Formula& f);
CalcPiTransactions model_calc_pi_transactions(const Formula& f, int warp_size = 32);

}  // namespace mdremap::sp

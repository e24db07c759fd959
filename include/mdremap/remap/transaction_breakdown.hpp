#pragma once
// Transactions as the papers' profilers counted them (seed 001 §2.1, seed 000 §3.1 and Listing 1):
// not only the data loads (count_transactions) but every global load the kernel issues for the
// irregular reference, per warp-load, as distinct 32- and 128-byte segments:
//  - lengths: the loop bounds of each thread: len[t] (rows-by-threads, one load) or
//    offset[t] and offset[t+1] (CSR, two loads: seed 000 Listing 1's rowPtr[tid], rowPtr[tid+1]);
//    every lane of a warp loads its bound, also a lane with nothing to do;
//  - index: the entries of P the lanes read at load j (index[pos(j, t)], index_bytes each):
//    coalesced in the rows-by-threads layout, scattered per lane in CSR;
//  - weights: a per-reference coefficient stored like the index (SpMV's val[rowptr[t]+j]), when
//    the model says the kernel has one (weight_bytes > 0);
//  - data: the data array A read through P, or the copy a strategy reads instead.
// Per strategy shape:
//  - gather: all four as above;
//  - duplicated (seed 000 eq. 2): A' only for the duplicated rows (no index loads; weights
//    relaid out like A'), lengths as len[t]; rows past dup_rows (partial dup, seed 001 §3.2) are
//    gathered through P (index + data through P + weights in the pattern's layout) and then need
//    the pattern's bounds (CSR offsets);
//  - sharing (seed 001 §3.4, Fig. 5): data = the coalesced staging loads of each block's packed
//    set (count_sharing_transactions); index = the local indices, laid out like the pattern;
//    lengths = len/offsets plus, for every warp of a block, the block's blockPos and blockSizes
//    (two loads of one segment each); warps are counted inside each block (a split sub-block
//    starts a new warp); P itself is never read;
//  - padded (seed 001 §3.3): the gather breakdown of padded_pattern(p, plan): len in the new
//    thread order, Q (laid out like the thread-permuted pattern), the padded copy, weights like Q.
// Host-only, from the real index arrays; OpenMP-parallel over warps.
#include <cstdint>
#include <vector>

#include "mdremap/remap/impl/padding.hpp"
#include "mdremap/remap/pattern.hpp"
#include "mdremap/remap/impl/sharing.hpp"
#include "mdremap/remap/transactions.hpp"

namespace mdremap::remap {

struct TransactionModel {
  int warp_size = 32;
  int index_bytes = 4;   // one entry of P, of sharing's local indices, of padding's Q
  int length_bytes = 4;  // len[t] (rows-by-threads) or offset[t] (CSR: 4 like seed 000's rowPtr)
  int weight_bytes = 0;  // per-reference coefficient stored like the index (SpMV val: 8); 0: none
};

struct TransactionBreakdown {
  TransactionCount data;     // A through P, A' (dup), the padded copy, or sharing's staging
  TransactionCount index;    // P, Q (padding) or sharing's local indices
  TransactionCount weights;  // per-reference coefficients (zero unless weight_bytes > 0)
  TransactionCount lengths;  // len / offsets (and sharing's block bounds)
  TransactionCount total() const {
    TransactionCount c = data;
    c += index;
    c += weights;
    c += lengths;
    return c;
  }
};

// Gather through P: thread t, load j reads len (or offsets), index[pos(j,t)], weight[pos(j,t)],
// A[index[pos(j,t)]].
TransactionBreakdown count_breakdown_gather(const IrregularPattern& p,
                                            const TransactionModel& m = {});

// Duplication (seed 000 eq. 2) of rows j < dup_rows (-1: all rows), with A' stored per chunk of
// threads as its own rows-by-threads array (chunk [t0, t1) at t0 * dup_rows; element (j, t) at
// t0 * dup_rows + j * (t1 - t0) + (t - t0)); chunk_begin: nchunks+1 thread offsets from 0 to
// threads, empty = one chunk. Rows j >= dup_rows are gathered through P.
TransactionBreakdown count_breakdown_duplicated(const IrregularPattern& p,
                                                const TransactionModel& m = {}, int dup_rows = -1,
                                                const std::vector<std::int64_t>& chunk_begin = {});

// The sharing kernel of seed 001 Fig. 5 for `plan` (made from p by make_sharing_plan).
TransactionBreakdown count_breakdown_sharing(const IrregularPattern& p, const SharingPlan& plan,
                                             const TransactionModel& m = {});

// The padded kernel of seed 001 §3.3 for `plan` (made from p by make_padding_plan).
TransactionBreakdown count_breakdown_padded(const IrregularPattern& p, const PaddingPlan& plan,
                                            const TransactionModel& m = {});

}  // namespace mdremap::remap

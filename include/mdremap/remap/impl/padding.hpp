#pragma once
// The padding algorithm (seed 001 §3.3.2, Fig. 3): sort data by access frequency, regroup threads
// into warps in that order, then pack each warp's unique elements into segment-aligned slots,
// padding the rest of a segment with holes when the warp's set does not fit and duplicating an
// element only when warps whose sets land in different segments both need it. Every warp-load
// then touches the minimum number of segments (one when its set fits one segment).
//
// Multi-row patterns (MD neighbour rows) are an extension of the paper, which treats a single
// reference A[P[tid]]: frequencies count every active reference; threads are regrouped by the
// lexicographic order of their rows' data ranks (row 0 first, which is exactly the paper for one
// row); segments are filled warp by warp and, inside a warp, row by row, so consecutive rows of a
// warp may share a segment. Padding reorders threads, so it only suits kernels whose every
// reference follows this one pattern (seed 001 §3.3 "Limitation"); the caller decides that.
#include <cstdint>
#include <vector>

#include "mdremap/remap/pattern.hpp"
#include "mdremap/remap/pattern_ops.hpp"

namespace mdremap::remap {

struct PaddingOptions {
  int warp_size = 32;
  int segment_bytes = 128;      // must be a multiple of the pattern's elem_bytes
  bool regroup_threads = true;  // §3.3.2 step 2; false keeps the given thread order
  // Fig. 3 compares the warp's whole unique set with the free slots of the current segment
  // (default, reproduces Fig. 4(c)); true counts only elements not already in that segment,
  // which pads less but is not the published rule.
  bool reuse_resident = false;
};

struct PaddingPlan {
  ThreadPermutation thread_perm;          // new -> old (identity when not regrouping)
  std::vector<std::int32_t> newdata_src;  // slot -> old element; -1 = padding hole
  // Q, laid out like the thread-permuted pattern q = apply_thread_permutation(p, thread_perm)
  // (rows-by-threads: Q[j*T + nt]; CSR: Q[q.offset[nt] + j]): slot read by new thread nt at row j
  // (-1 where j >= len). Invariant: newdata_src[Q[q.pos(j, nt)]] == p.at(j, thread_perm[nt]).
  std::vector<std::int32_t> q;
  std::int64_t segment_elems = 0;  // slots per segment = segment_bytes / elem_bytes
  std::int64_t holes = 0;          // padding slots
  std::int64_t duplicates = 0;     // slots holding a second or later copy of an element
  std::int64_t extra_bytes =
      0;  // (slots - data_count) * elem_bytes; may be < 0 if some data unused
};

// seed 001 §3.3.2, Fig. 3. Throws mdremap::Error on an invalid pattern or options.
PaddingPlan make_padding_plan(const IrregularPattern& p, const PaddingOptions& opt = {});

// The pattern a padded kernel executes: threads in new order, index = Q, data = newdata_src
// (data_count = number of slots). Feed it to count_transactions to get the modelled traffic.
IrregularPattern padded_pattern(const IrregularPattern& p, const PaddingPlan& plan);

}  // namespace mdremap::remap

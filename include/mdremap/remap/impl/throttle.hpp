#pragma once
// The host plan of `throttle` (seed 002 §2-§4): the pattern's threads cut into cache-fit parts by
// Algorithm 1 (partition.hpp, threads granularity: a thread's references stay in one part, so a
// compute body that writes its thread's output once runs unchanged), the data renumbered by
// Algorithm 5 so each part's elements are packed together, the references copied in the parts'
// thread order with the packed numbering, and the parts cut into queue chunks (Algorithm 2).
#include <cstdint>
#include <vector>

#include "mdremap/remap/options.hpp"
#include "mdremap/remap/impl/partition.hpp"
#include "mdremap/remap/pattern.hpp"
#include "mdremap/remap/pattern_ops.hpp"

namespace mdremap::remap {

struct ThrottlePlan {
  ThreadPermutation order;               // new -> old thread: parts consecutive
  std::vector<std::int64_t> part_begin;  // nparts+1 offsets into order
  std::vector<PartitionNode> tree;       // the bisection (SJ-) tree; thread ranges index `order`
  DataPermutation data_old_to_new;       // Algorithm 5: packed numbering of A
  // The references in the new thread order, renumbered: thread order[i]'s entry j at
  // packed_index[start[order[i]] + j] = data_old_to_new[P[j][order[i]]]. Indexed by the old thread.
  std::vector<std::int32_t> packed_index;
  std::vector<std::int64_t> start;
  // Queue chunks: at most chunk_threads consecutive threads of `order`, never across a part.
  std::vector<std::int64_t> chunk_begin;       // nchunks+1 offsets into order
  std::vector<std::int64_t> part_chunk_begin;  // nparts+1: part q's chunks
  std::int64_t cache_bytes = 0;
  std::int64_t replication = 0, boundary_elems = 0;  // seed 002 eq. 2 over the parts
  Bisector bisector = Bisector::kd_tiling;

  std::int64_t parts() const { return static_cast<std::int64_t>(part_begin.size()) - 1; }
  std::int64_t chunks() const { return static_cast<std::int64_t>(chunk_begin.size()) - 1; }
  // Chunks of the tree node `n` (its parts' chunks).
  std::int64_t node_chunk_begin(const PartitionNode& n) const {
    return part_chunk_begin[n.part_begin];
  }
  std::int64_t node_chunk_end(const PartitionNode& n) const { return part_chunk_begin[n.part_end]; }
};

// Throws mdremap::Error on an invalid pattern or options (see partition_cache_fit).
ThrottlePlan make_throttle_plan(const IrregularPattern& p, const ThrottleOptions& o);

// The pattern the throttled kernel reads, for the transaction model: threads in the new order
// (warps of consecutive new threads), references renumbered into the packed copy (CSR).
IrregularPattern throttled_pattern(const IrregularPattern& p, const ThrottlePlan& plan);

}  // namespace mdremap::remap

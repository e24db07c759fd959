#pragma once
// A cache-fit partition (partition.hpp) turned into what a throttled kernel runs (seed 002 §3):
// the references of every part, relabelled to Algorithm 5's packed data numbering, plus the
// per-part row segments, a chunk queue, and the Split-Join tree recombination (Algorithm 3).
//
// How a scheduler uses it (SpMV y = A x over the pattern, weights w laid out like p.index):
//  - pack once per plan: x' = permute_data(x, pp.data_old_to_new) (A'[old_to_new[e]] = A[e]);
//    then reference k reads x'[pp.col[k]] with weight w[pp.ref[k]] and adds into y[pp.row[k]];
//  - CF (§3.1): one kernel per part q over references [part_begin[q], part_begin[q+1]), or over
//    its row segments [part_seg_begin[q], part_seg_begin[q+1]) (one thread or warp per segment);
//  - CF-Q (§3.2, Algorithm 2): one kernel over make_chunk_queue(pp, n): warps take chunks in
//    queue order; chunks never straddle a part, so a part's chunks run in consecutive time;
//  - SJ (§3.3): profile every tree node standalone (a node is the consecutive parts
//    [part_begin, part_end)), then split_join_cover() says which nodes to launch, in order;
//  - SJ-Q (§3.4): one kernel per chosen node, each over its own slice of the chunk queue
//    ([part_chunk_begin[node.part_begin], part_chunk_begin[node.part_end])).
// A thread whose references fall in several parts (edges granularity) has one segment per part;
// seg_shared marks them: their partial sums must be accumulated (y zeroed first, then += per
// segment; atomically where two such segments can run at once: CF-Q, SJ, SJ-Q).
#include <cstdint>
#include <vector>

#include "mdremap/remap/impl/partition.hpp"

namespace mdremap::remap {

struct PartitionedPattern {
  std::int64_t threads = 0, data_count = 0;
  int elem_bytes = 0;
  // The references in partition order (parts consecutive; inside a part by thread, then j).
  std::vector<std::int32_t> row;  // the thread (output index) of reference k
  std::vector<std::int32_t> col;  // its element in the packed numbering: data_old_to_new[P[j][t]]
  std::vector<std::int64_t> ref;  // p.pos(j, t): where it sits in p.index (and in the weights)
  std::vector<std::int64_t> part_begin;  // nparts+1 offsets into row / col / ref
  // Row segments: the consecutive references of one thread inside one part.
  std::vector<std::int64_t> seg_begin;       // nseg+1 offsets into row / col / ref
  std::vector<std::int32_t> seg_row;         // thread of segment s
  std::vector<std::uint8_t> seg_shared;      // 1: the thread has references in other parts too
  std::vector<std::int64_t> part_seg_begin;  // nparts+1 offsets into the segments
  std::vector<PartitionNode> tree;           // the bisection (SJ-) tree, ranges as above
  DataPermutation data_old_to_new;           // Algorithm 5's packing, as used for col

  std::int64_t parts() const { return static_cast<std::int64_t>(part_begin.size()) - 1; }
  std::int64_t segments() const { return static_cast<std::int64_t>(seg_row.size()); }
  std::int64_t references() const { return static_cast<std::int64_t>(row.size()); }
};

// From p and its partition cp (either granularity). Throws mdremap::Error when cp was not made
// for p, or when threads do not fit an int32.
PartitionedPattern make_partitioned_pattern(const IrregularPattern& p, const CacheFitPartition& cp);

// The work queue of CF-Q / SJ-Q (seed 002 §3.2, Algorithm 2): chunks of whole consecutive row
// segments of one part, each holding at least chunk_refs references unless its part ends first.
struct ChunkQueue {
  std::vector<std::int64_t> chunk_seg_begin;   // nchunks+1 offsets into the segments
  std::vector<std::int64_t> chunk_ref_begin;   // nchunks+1 offsets into the references
  std::vector<std::int32_t> chunk_part;        // part of chunk c
  std::vector<std::int64_t> part_chunk_begin;  // nparts+1: part q's chunks
  std::int64_t chunks() const { return static_cast<std::int64_t>(chunk_part.size()); }
};
ChunkQueue make_chunk_queue(const PartitionedPattern& pp, std::int64_t chunk_refs);

// seed 002 §3.3, Algorithm 3 (tree recombination): given each tree node's standalone time
// (stime, profiled), the set of nodes covering every leaf once with the least total time;
// btime(node) = min(stime(node), btime(left) + btime(right)), a leaf's btime is its stime; on a
// tie the merged node wins (fewer launches). Throws on a size mismatch or a negative / non-finite
// time.
struct SplitJoinCover {
  std::vector<std::int32_t> nodes;  // chosen nodes, in part order: one kernel each
  std::vector<double> btime;        // per tree node
  double time = 0.0;                // btime of the root
};
SplitJoinCover split_join_cover(const std::vector<PartitionNode>& tree,
                                const std::vector<double>& stime);

}  // namespace mdremap::remap

#pragma once
// The sharing algorithm's data plan (seed 001 §3.4, Fig. 5): threads are cut into blocks of B
// consecutive threads; each block's unique working set is packed contiguously (blockPos,
// blockSizes) so the block can stage it coalesced into shared memory and read it through local
// indices. Thread clustering (the first step of Fig. 5) is a separate thread permutation applied
// before this (see clustering.hpp); the plan itself keeps the given thread order.
//
// A block whose set exceeds the shared-memory capacity is split in halves, recursively, until
// every sub-block fits (seed 001 §3.4 "Notes": break the task of one block into smaller tasks);
// each halving counts as one split.
#include <cstdint>
#include <vector>

#include "mdremap/remap/pattern.hpp"
#include "mdremap/remap/transactions.hpp"

namespace mdremap::remap {

struct SharingOptions {
  int block_threads = 128;
  std::int64_t capacity_elems =
      0;                // max elements a block can stage (shared bytes / elem_bytes); 0 = no limit
  int align_elems = 1;  // each block's set starts at a multiple of this many slots
};

struct SharingPlan {
  std::vector<std::int64_t>
      block_begin;  // nblocks+1: block b runs threads [block_begin[b], block_begin[b+1])
  std::vector<std::int64_t>
      block_pos;  // nblocks+1: block b's set is packed_src[block_pos[b] .. + block_sizes[b])
  std::vector<std::int32_t> block_sizes;  // unique elements of block b (blockSizes)
  std::vector<std::int32_t> packed_src;   // packed slot -> old element; -1 = alignment hole
  // local[j*T+t]: position of index[j*T+t] in its block's set (-1 where j >= len[t]), so
  // packed_src[block_pos[b] + local[j*T+t]] == index[j*T+t].
  std::vector<std::int32_t> local;
  std::int64_t splits = 0;         // halvings done to respect capacity_elems
  std::int64_t max_block_set = 0;  // largest block_sizes[b]
  std::int64_t packed_elems = 0;   // packed_src.size(), holes included
  std::int64_t dup_elems = 0;  // what plain duplication allocates: threads * rows (seed 000 eq. 1)
  std::int64_t extra_bytes_vs_dup = 0;   // (packed_elems - dup_elems) * elem_bytes (< 0: saving)
  std::int64_t extra_bytes_vs_data = 0;  // (packed_elems - data_count) * elem_bytes

  std::int64_t blocks() const { return static_cast<std::int64_t>(block_sizes.size()); }
};

// seed 001 §3.4, Fig. 5 (second step). Throws mdremap::Error on an invalid pattern or options,
// or when a single thread's own set exceeds capacity_elems. Blocks are planned in parallel
// (OpenMP); the plan is exactly make_sharing_plan_serial's. Sets are sorted by element id.
SharingPlan make_sharing_plan(const IrregularPattern& p, const SharingOptions& opt);
// The same plan in one sequential pass, block after block: the reference the parallel host
// planner and the device planner (sharing_device_plan.hpp) are tested against.
SharingPlan make_sharing_plan_serial(const IrregularPattern& p, const SharingOptions& opt);

// Modelled global traffic of the sharing kernel: each block stages its set with coalesced
// warp-loads (the irregular reads then hit shared memory).
TransactionCount count_sharing_transactions(const SharingPlan& plan, int elem_bytes,
                                            int warp_size = 32);

// Unique elements referenced by each block of block_threads consecutive threads (last block may
// be partial), and their mean: the working-set measure clustering and partitioning reduce.
std::vector<std::int64_t> block_working_sets(const IrregularPattern& p, std::int64_t block_threads);
double mean_block_working_set(const IrregularPattern& p, std::int64_t block_threads);

}  // namespace mdremap::remap

// seed 002 Algorithm 1 (data-balanced recursive bisection, k-d tiling) and Algorithm 5.
#include <gtest/gtest.h>

#include "mdremap/error.hpp"
#include "mdremap/remap/partition.hpp"
#include "mdremap/remap/sharing.hpp"
#include "mdremap/remap/transactions.hpp"
#include "remap_test_util.hpp"

namespace mdremap::remap {
namespace {

using testing::make_pattern;
using testing::make_shuffled_lattice;

// A chain: thread t reads elements t and t+1 (t = 0..7, 9 elements of 4 bytes), at x = t.
IrregularPattern chain() {
  std::vector<std::vector<std::int32_t>> rows;
  for (int t = 0; t < 8; ++t) rows.push_back({t, t + 1});
  return make_pattern(rows, 9, 4);
}

void check_chain_result(const CacheFitPartition& cp) {
  // Capacity 12 bytes = 3 elements. Root: 9 elements > 3 -> median split on x: threads 0..3
  // ({0..4}, 5 > 3) and 4..7 (5 > 3); each splits again into pairs {0,1},{2,3},{4,5},{6,7},
  // reading {0,1,2},{2,3,4},{4,5,6},{6,7,8}: 3 elements each, cache-fit. 7 tree nodes.
  EXPECT_EQ(cp.capacity_elems, 3);
  EXPECT_EQ(cp.thread_perm, (ThreadPermutation{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(cp.part_begin, (std::vector<std::int64_t>{0, 2, 4, 6, 8}));
  EXPECT_EQ(cp.part_unique, (std::vector<std::int64_t>{3, 3, 3, 3}));
  EXPECT_EQ(cp.tree.size(), 7u);
  // Boundary elements 2, 4, 6 are each in 2 parts: replication (eq. 2) = 3.
  EXPECT_EQ(cp.boundary_elems, 3);
  EXPECT_EQ(cp.replication, 3);
  // Algorithm 5: private elements per part: P0 {0,1} 2, P1 {3} 1, P2 {5} 1, P3 {7,8} 2.
  // Rank ascending (stable): P1, P2, P0, P3. Private pass: 3, 5, 0, 1, 7, 8 -> new 0..5.
  // Boundary pass in the same order: P1 brings 2 then 4 -> 6, 7; P2 brings 6 -> 8.
  // old -> new: 0->2 1->3 2->6 3->0 4->7 5->1 6->8 7->4 8->5.
  EXPECT_EQ(cp.data_old_to_new, (DataPermutation{2, 3, 6, 0, 7, 1, 8, 4, 5}));
}

TEST(CacheFitPartition, HandWorkedChainWithCoordinates) {
  std::vector<float> coords;
  for (int t = 0; t < 8; ++t) coords.insert(coords.end(), {float(t), 0.f, 0.f});
  PartitionOptions opt;
  opt.cache_bytes = 12;
  check_chain_result(partition_cache_fit(chain(), opt, coords));
}

TEST(CacheFitPartition, HandWorkedChainWithoutCoordinates) {
  // Fallback keys (thread id, mean element) = (t, t + 0.5): both extents are 7, the first
  // dimension (thread id) wins the tie, so the splits are the same as with x = t.
  PartitionOptions opt;
  opt.cache_bytes = 12;
  check_chain_result(partition_cache_fit(chain(), opt));
}

TEST(CacheFitPartition, CacheSmallerThanOneThreadThrows) {
  PartitionOptions opt;
  opt.cache_bytes = 4;  // one element, but every thread reads two
  EXPECT_THROW(partition_cache_fit(chain(), opt), Error);
  opt.cache_bytes = 12;
  EXPECT_THROW(partition_cache_fit(chain(), opt, std::vector<float>(5, 0.f)), Error);
}

TEST(CacheFitPartition, ShuffledLatticeFitsCacheAndRegainsLocality) {
  const auto lat = make_shuffled_lattice(10, 5);
  const IrregularPattern& p = lat.pattern;
  PartitionOptions opt;
  opt.cache_bytes = 150 * 16;  // 150 positions of 16 bytes
  const CacheFitPartition cp = partition_cache_fit(p, opt, lat.coords);
  ASSERT_TRUE(is_permutation(cp.thread_perm));
  ASSERT_TRUE(is_permutation(cp.data_old_to_new));
  ASSERT_EQ(cp.part_begin.front(), 0);
  ASSERT_EQ(cp.part_begin.back(), p.threads);
  // Every part's footprint, recounted here from the permuted pattern, fits the cache.
  const IrregularPattern permuted = apply_thread_permutation(p, cp.thread_perm);
  for (std::int64_t q = 0; q < cp.parts(); ++q) {
    std::vector<char> seen(p.data_count, 0);
    std::int64_t n = 0;
    for (std::int64_t t = cp.part_begin[q]; t < cp.part_begin[q + 1]; ++t)
      for (int j = 0; j < permuted.len[t]; ++j) n += !seen[permuted.at(j, t)]++;
    EXPECT_EQ(n, cp.part_unique[q]);
    EXPECT_LE(n * p.elem_bytes, opt.cache_bytes) << "part " << q;
  }
  // Locality: fewer distinct elements per block, and (after Algorithm 5 packing) fewer
  // 128-byte segments per warp-load than the shuffled ids.
  const IrregularPattern remapped = apply_data_permutation(permuted, cp.data_old_to_new);
  for (int B : {32, 64, 128})
    EXPECT_LT(mean_block_working_set(remapped, B), mean_block_working_set(p, B)) << "B=" << B;
  EXPECT_LT(count_transactions(remapped).seg128, count_transactions(p).seg128);
}

TEST(CacheFitPartition, TilingOrdersThreadsInsideAPart) {
  // The cache holds all 1000 elements, so the root is already cache-fit: one part, a one-node
  // tree, no replication. With tile_threads = 0 the part keeps the given (shuffled) order, so the
  // permutation is the identity; with tiles of 32 the k-d order must shrink block working sets.
  const auto lat = make_shuffled_lattice(10, 8);
  PartitionOptions opt;
  opt.cache_bytes = 1000 * 16;
  opt.tile_threads = 0;
  const CacheFitPartition flat = partition_cache_fit(lat.pattern, opt, lat.coords);
  EXPECT_EQ(flat.parts(), 1);
  EXPECT_EQ(flat.tree.size(), 1u);
  EXPECT_EQ(flat.replication, 0);
  for (std::int64_t t = 0; t < lat.pattern.threads; ++t) ASSERT_EQ(flat.thread_perm[t], t);
  opt.tile_threads = 32;
  const CacheFitPartition tiled = partition_cache_fit(lat.pattern, opt, lat.coords);
  EXPECT_EQ(tiled.parts(), 1);
  const auto ordered = apply_thread_permutation(lat.pattern, tiled.thread_perm);
  EXPECT_LT(mean_block_working_set(ordered, 64), mean_block_working_set(lat.pattern, 64));
}

}  // namespace
}  // namespace mdremap::remap

// The partition made runnable (seed 002 §3): relabelled references per part, row segments, the
// CF-Q chunk queue, and Algorithm 3's tree recombination; an SpMV run part by part on the packed
// copy (Algorithm 5) against a serial SpMV over the original pattern.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "mdremap/error.hpp"
#include "mdremap/remap/impl/partitioned_pattern.hpp"
#include "remap_test_util.hpp"

namespace mdremap::remap {
namespace {

using testing::make_grid_laplacian;
using testing::make_shuffled_lattice;

// Serial y = A x over the original pattern: y[t] = sum_j w[pos(j,t)] * x[P[j][t]].
std::vector<double> spmv(const IrregularPattern& p, const std::vector<double>& w,
                         const std::vector<double>& x) {
  std::vector<double> y(p.threads, 0.0);
  for (std::int64_t t = 0; t < p.threads; ++t)
    for (int j = 0; j < p.len[t]; ++j) y[t] += w[p.pos(j, t)] * x[p.at(j, t)];
  return y;
}

// What a CF scheduler does: part by part, segment by segment, reading the packed copy of x and
// accumulating into y (small integers: every partial sum is exact, so any order gives the
// serial result bit for bit).
std::vector<double> spmv_by_parts(const PartitionedPattern& pp, const std::vector<double>& w,
                                  const std::vector<double>& x) {
  const std::vector<double> xp = permute_data(x, pp.data_old_to_new);
  std::vector<double> y(pp.threads, 0.0);
  for (std::int64_t q = 0; q < pp.parts(); ++q)
    for (std::int64_t s = pp.part_seg_begin[q]; s < pp.part_seg_begin[q + 1]; ++s) {
      double sum = 0.0;
      for (std::int64_t k = pp.seg_begin[s]; k < pp.seg_begin[s + 1]; ++k) {
        EXPECT_EQ(pp.row[k], pp.seg_row[s]);
        sum += w[pp.ref[k]] * xp[pp.col[k]];
      }
      y[pp.seg_row[s]] += sum;
    }
  return y;
}

void expect_partitioned_consistent(const IrregularPattern& p, const CacheFitPartition& cp,
                                   const PartitionedPattern& pp) {
  ASSERT_EQ(pp.references(), p.references());
  EXPECT_EQ(pp.part_begin, cp.part_edge_begin);
  std::set<std::int64_t> refs;
  std::map<std::int32_t, std::set<std::int64_t>> parts_of_row;
  for (std::int64_t q = 0; q < pp.parts(); ++q)
    for (std::int64_t k = pp.part_begin[q]; k < pp.part_begin[q + 1]; ++k) {
      EXPECT_TRUE(refs.insert(pp.ref[k]).second);
      EXPECT_EQ(pp.col[k], cp.data_old_to_new[p.index[pp.ref[k]]]);
      parts_of_row[pp.row[k]].insert(q);
    }
  // Segments tile each part, one per (part, thread) run; seg_shared marks split threads.
  EXPECT_EQ(pp.seg_begin.front(), 0);
  EXPECT_EQ(pp.seg_begin.back(), pp.references());
  EXPECT_EQ(static_cast<std::int64_t>(pp.seg_begin.size()), pp.segments() + 1);
  for (std::int64_t q = 0; q < pp.parts(); ++q) {
    EXPECT_EQ(pp.seg_begin[pp.part_seg_begin[q]], pp.part_begin[q]);
    EXPECT_EQ(pp.seg_begin[pp.part_seg_begin[q + 1]], pp.part_begin[q + 1]);
  }
  for (std::int64_t s = 0; s < pp.segments(); ++s)
    EXPECT_EQ(pp.seg_shared[s], parts_of_row[pp.seg_row[s]].size() > 1 ? 1 : 0);
}

std::vector<double> small_ints(std::size_t n, int mod, int shift) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>((i * 7 + shift) % mod) - 3.0;
  return v;
}

TEST(PartitionedPattern, SpmvByPartsOnPackedCopyMatchesSerial) {
  const IrregularPattern p = make_grid_laplacian(20, 4);  // CSR
  for (const IrregularPattern& pat : {p, to_rows_by_threads(p)}) {
    for (Bisector b : {Bisector::kd_tiling, Bisector::coarsened}) {
      PartitionOptions opt;
      opt.granularity = PartitionGranularity::edges;
      opt.bisector = b;
      opt.cache_bytes = 60 * 8 + 30 * 8;
      opt.out_bytes = 8;
      opt.coarsened.first_level_refs = 2;  // rows of 5 may then be split between parts
      const CacheFitPartition cp = partition_cache_fit(pat, opt);
      ASSERT_GT(cp.parts(), 4);
      const PartitionedPattern pp = make_partitioned_pattern(pat, cp);
      expect_partitioned_consistent(pat, cp, pp);
      EXPECT_GT(std::count(pp.seg_shared.begin(), pp.seg_shared.end(), 1), 0);  // split rows
      const std::vector<double> w = small_ints(pat.index.size(), 5, 1);
      const std::vector<double> x = small_ints(pat.data_count, 9, 2);
      EXPECT_EQ(spmv_by_parts(pp, w, x), spmv(pat, w, x));
    }
  }
}

TEST(PartitionedPattern, ThreadGranularityHasOneSegmentPerThread) {
  const auto lat = make_shuffled_lattice(6, 3);
  PartitionOptions opt;
  opt.cache_bytes = 80 * 16;
  const CacheFitPartition cp = partition_cache_fit(lat.pattern, opt);
  const PartitionedPattern pp = make_partitioned_pattern(lat.pattern, cp);
  expect_partitioned_consistent(lat.pattern, cp, pp);
  EXPECT_EQ(pp.segments(), lat.pattern.threads);
  for (std::int64_t s = 0; s < pp.segments(); ++s) {
    EXPECT_EQ(pp.seg_row[s], cp.thread_perm[s]);
    EXPECT_EQ(pp.seg_shared[s], 0);
  }
  const std::vector<double> w = small_ints(lat.pattern.index.size(), 5, 0);
  const std::vector<double> x = small_ints(lat.pattern.data_count, 7, 1);
  EXPECT_EQ(spmv_by_parts(pp, w, x), spmv(lat.pattern, w, x));
  // A partition of another pattern is refused.
  EXPECT_THROW(make_partitioned_pattern(make_grid_laplacian(4), cp), Error);
}

TEST(ChunkQueue, ChunksStayInsideAPartAndKeepWholeSegments) {
  const IrregularPattern p = make_grid_laplacian(16, 2);
  PartitionOptions opt;
  opt.granularity = PartitionGranularity::edges;
  opt.cache_bytes = 50 * 8;
  const PartitionedPattern pp = make_partitioned_pattern(p, partition_cache_fit(p, opt));
  const ChunkQueue cq = make_chunk_queue(pp, 16);
  ASSERT_EQ(static_cast<std::int64_t>(cq.part_chunk_begin.size()), pp.parts() + 1);
  EXPECT_EQ(cq.chunk_seg_begin.back(), pp.segments());
  EXPECT_EQ(cq.chunk_ref_begin.back(), pp.references());
  for (std::int64_t c = 0; c < cq.chunks(); ++c) {
    const std::int32_t q = cq.chunk_part[c];
    EXPECT_GE(cq.chunk_seg_begin[c], pp.part_seg_begin[q]);
    EXPECT_LE(cq.chunk_seg_begin[c + 1], pp.part_seg_begin[q + 1]);
    EXPECT_EQ(cq.chunk_ref_begin[c], pp.seg_begin[cq.chunk_seg_begin[c]]);
    const std::int64_t refs = cq.chunk_ref_begin[c + 1] - cq.chunk_ref_begin[c];
    const bool last_of_part = cq.chunk_seg_begin[c + 1] == pp.part_seg_begin[q + 1];
    if (!last_of_part) {
      EXPECT_GE(refs, 16);
      // Whole segments, and no more than needed: without its last segment it would be short.
      const std::int64_t last_seg = cq.chunk_seg_begin[c + 1] - 1;
      EXPECT_LT(pp.seg_begin[last_seg] - cq.chunk_ref_begin[c], 16);
    }
    if (c > 0) EXPECT_GE(q, cq.chunk_part[c - 1]);
  }
  for (std::int64_t q = 0; q < pp.parts(); ++q)
    for (std::int64_t c = cq.part_chunk_begin[q]; c < cq.part_chunk_begin[q + 1]; ++c)
      EXPECT_EQ(cq.chunk_part[c], q);
  EXPECT_THROW(make_chunk_queue(pp, 0), Error);
}

// seed 002 Algorithm 3 on a Figure 7 style SJ-tree (the figure's numbers are lost; these are
// worked by hand):
//            0 (stime 11)
//         /                \
//     1 (4)                2 (7)
//    /     \              /     \
//  3 (3)  4 (2)        5 (3)   6 (3)
// btime(1) = min(4, 3 + 2) = 4 (merge 3 and 4); btime(2) = min(7, 3 + 3) = 6 (keep 5, 6 apart);
// btime(0) = min(11, 4 + 6) = 10: launch node 1, then leaves 5 and 6.
std::vector<PartitionNode> fig7_tree() {
  std::vector<PartitionNode> t(7);
  auto inner = [&](int id, int l, int r) {
    t[id].left = l;
    t[id].right = r;
  };
  inner(0, 1, 2);
  inner(1, 3, 4);
  inner(2, 5, 6);
  const int leaf_ids[4] = {3, 4, 5, 6};
  for (int q = 0; q < 4; ++q) {
    t[leaf_ids[q]].part_begin = q;
    t[leaf_ids[q]].part_end = q + 1;
  }
  t[1].part_begin = 0, t[1].part_end = 2, t[2].part_begin = 2, t[2].part_end = 4;
  t[0].part_end = 4;
  return t;
}

TEST(SplitJoin, TreeRecombinationFigure7Style) {
  const auto tree = fig7_tree();
  const SplitJoinCover c = split_join_cover(tree, {11, 4, 7, 3, 2, 3, 3});
  EXPECT_EQ(c.nodes, (std::vector<std::int32_t>{1, 5, 6}));
  EXPECT_DOUBLE_EQ(c.time, 10.0);
  EXPECT_EQ(c.btime, (std::vector<double>{10, 4, 6, 3, 2, 3, 3}));
  // The chosen nodes cover every part exactly once, in part order.
  std::int32_t next = 0;
  for (std::int32_t id : c.nodes) {
    EXPECT_EQ(tree[id].part_begin, next);
    next = tree[id].part_end;
  }
  EXPECT_EQ(next, 4);
  // A cheap root wins outright; on a tie the merged node is taken (one launch, not several).
  EXPECT_EQ(split_join_cover(tree, {9, 4, 7, 3, 2, 3, 3}).nodes, (std::vector<std::int32_t>{0}));
  EXPECT_EQ(split_join_cover(tree, {10, 4, 7, 3, 2, 3, 3}).nodes, (std::vector<std::int32_t>{0}));
  // Everything expensive when merged: the leaves.
  EXPECT_EQ(split_join_cover(tree, {99, 99, 99, 1, 1, 1, 1}).nodes,
            (std::vector<std::int32_t>{3, 4, 5, 6}));
  EXPECT_THROW(split_join_cover(tree, {1, 2, 3}), Error);
  EXPECT_THROW(split_join_cover(tree, {1, 1, 1, 1, -1, 1, 1}), Error);
}

TEST(SplitJoin, CoverOfARealPartitionTree) {
  // stime = number of references of the node: every cover costs the same, so the root (a tie
  // everywhere, merged wins) is chosen; with a per-launch overhead as well it still is.
  const IrregularPattern p = make_grid_laplacian(16, 1);
  PartitionOptions opt;
  opt.granularity = PartitionGranularity::edges;
  opt.cache_bytes = 50 * 8;
  const CacheFitPartition cp = partition_cache_fit(p, opt);
  std::vector<double> st;
  for (const PartitionNode& x : cp.tree) st.push_back(double(x.edge_end - x.edge_begin) + 1.0);
  const SplitJoinCover c = split_join_cover(cp.tree, st);
  EXPECT_EQ(c.nodes, (std::vector<std::int32_t>{0}));
  // Merged nodes twice as slow per reference (thrashing): the leaves are chosen.
  for (std::size_t i = 0; i < st.size(); ++i)
    if (!cp.tree[i].leaf()) st[i] *= 2.0;
  const SplitJoinCover leaves = split_join_cover(cp.tree, st);
  EXPECT_EQ(static_cast<std::int64_t>(leaves.nodes.size()), cp.parts());
}

}  // namespace
}  // namespace mdremap::remap

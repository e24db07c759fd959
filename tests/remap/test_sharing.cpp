// seed 001 §3.4, Fig. 5 / Fig. 4(d): the sharing plan.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "mdremap/error.hpp"
#include "mdremap/remap/pattern_ops.hpp"
#include "mdremap/remap/impl/sharing.hpp"
#include "remap_test_util.hpp"

namespace mdremap::remap {
namespace {

using testing::make_pattern;
using testing::single_row;

void expect_local_invariant(const IrregularPattern& p, const SharingPlan& plan) {
  ASSERT_EQ(plan.block_begin.size(), plan.block_pos.size());
  ASSERT_EQ(plan.block_begin.front(), 0);
  ASSERT_EQ(plan.block_begin.back(), p.threads);
  for (std::int64_t b = 0; b < plan.blocks(); ++b)
    for (std::int64_t t = plan.block_begin[b]; t < plan.block_begin[b + 1]; ++t)
      for (int j = 0; j < p.len[t]; ++j) {
        const std::int32_t l = plan.local[p.pos(j, t)];
        ASSERT_GE(l, 0);
        ASSERT_LT(l, plan.block_sizes[b]);
        EXPECT_EQ(plan.packed_src[plan.block_pos[b] + l], p.at(j, t));
      }
}

// Fig. 4 with the original layout a c e g b d f h; 4 warps of 4 threads per block -> B = 16.
constexpr std::int32_t a = 0, c = 1, e = 2, g = 3, b = 4, d = 5, f = 6, h = 7;
IrregularPattern fig4() {
  return single_row({a, a, b, b, c, c, d, d, e, e, a, a, b, b, c, d, e, f, g, h, a, a}, 8, 8);
}

TEST(Sharing, Seed001Fig4dWithoutClustering) {
  // Block 0 = threads 0..15 reads {a,b,c,d,e} = {0,4,1,5,2} -> sorted 0 1 2 4 5 (5 elements).
  // Block 1 = threads 16..21 reads {e,f,g,h,a} = {2,6,3,7,0} -> 0 2 3 6 7 (5 elements).
  // packed = 10 slots; duplication would need 22 * 1 = 22 -> (10-22)*8 = -96 bytes;
  // vs data: (10-8)*8 = +16 bytes (a and e copied twice).
  SharingOptions opt;
  opt.block_threads = 16;
  const SharingPlan plan = make_sharing_plan(fig4(), opt);
  EXPECT_EQ(plan.blocks(), 2);
  EXPECT_EQ(plan.block_begin, (std::vector<std::int64_t>{0, 16, 22}));
  EXPECT_EQ(plan.block_pos, (std::vector<std::int64_t>{0, 5, 10}));
  EXPECT_EQ(plan.block_sizes, (std::vector<std::int32_t>{5, 5}));
  EXPECT_EQ(plan.packed_src, (std::vector<std::int32_t>{0, 1, 2, 4, 5, 0, 2, 3, 6, 7}));
  EXPECT_EQ(plan.splits, 0);
  EXPECT_EQ(plan.packed_elems, 10);
  EXPECT_EQ(plan.dup_elems, 22);
  EXPECT_EQ(plan.extra_bytes_vs_dup, -96);
  EXPECT_EQ(plan.extra_bytes_vs_data, 16);
  expect_local_invariant(fig4(), plan);
  EXPECT_EQ(block_working_sets(fig4(), 16), (std::vector<std::int64_t>{5, 5}));
  EXPECT_DOUBLE_EQ(mean_block_working_set(fig4(), 16), 5.0);
}

TEST(Sharing, Seed001Fig4dAfterClusteringSwap) {
  // "The clustering switches threads 9 and 10 with threads 21 and 22" (1-based): new thread 8,9
  // do old 20,21's work and vice versa. Block 0 then reads {a,b,c,d} and block 1 {e,f,g,h}:
  // 4 + 4 = 8 slots = the data itself: 0 extra bytes vs data, (8-22)*8 = -112 vs duplication.
  ThreadPermutation perm(22);
  for (std::int64_t t = 0; t < 22; ++t) perm[t] = t;
  std::swap(perm[8], perm[20]);
  std::swap(perm[9], perm[21]);
  const IrregularPattern p = apply_thread_permutation(fig4(), perm);
  SharingOptions opt;
  opt.block_threads = 16;
  const SharingPlan plan = make_sharing_plan(p, opt);
  EXPECT_EQ(plan.block_sizes, (std::vector<std::int32_t>{4, 4}));
  EXPECT_EQ(plan.packed_src, (std::vector<std::int32_t>{a, c, b, d, e, g, f, h}));  // sorted ids
  EXPECT_EQ(plan.extra_bytes_vs_data, 0);
  EXPECT_EQ(plan.extra_bytes_vs_dup, -112);
  expect_local_invariant(p, plan);
  // Staging traffic, 8-byte elements, warp 32: block 0 loads slots 0..3 = bytes 0..31 (one 32-
  // and one 128-byte segment); block 1 slots 4..7 = bytes 32..63 (one each). 2 loads, 2, 2.
  const auto tc = count_sharing_transactions(plan, 8, 32);
  EXPECT_EQ(tc.loads, 2);
  EXPECT_EQ(tc.seg32, 2);
  EXPECT_EQ(tc.seg128, 2);
}

TEST(Sharing, SplitsBlocksOverCapacity) {
  // Capacity 4 elements, unclustered Fig. 4 (threads: a a b b c c d d e e a a b b c d e f g h a a):
  //   [0,16) {a,b,c,d,e} 5 > 4 -> [0,8) {a,b,c,d} 4 ok; [8,16) {e,a,b,c,d} 5 -> [8,12) {e,a} 2,
  //   [12,16) {b,c,d} 3.  [16,22) {e,f,g,h,a} 5 -> [16,19) {e,f,g} 3, [19,22) {h,a} 2.
  // 3 splits, 5 blocks, sizes 4 2 3 3 2 -> 14 slots.
  SharingOptions opt;
  opt.block_threads = 16;
  opt.capacity_elems = 4;
  const SharingPlan plan = make_sharing_plan(fig4(), opt);
  EXPECT_EQ(plan.splits, 3);
  EXPECT_EQ(plan.block_begin, (std::vector<std::int64_t>{0, 8, 12, 16, 19, 22}));
  EXPECT_EQ(plan.block_sizes, (std::vector<std::int32_t>{4, 2, 3, 3, 2}));
  EXPECT_EQ(plan.packed_elems, 14);
  EXPECT_EQ(plan.max_block_set, 4);
  EXPECT_EQ(plan.extra_bytes_vs_data, (14 - 8) * 8);
  expect_local_invariant(fig4(), plan);
}

TEST(Sharing, AlignsBlockSetsWithHoles) {
  // align 4 slots: block 0's 5 elements take slots 0..4, holes 5..7; block 1 starts at 8,
  // holes 13..15 -> 16 slots.
  SharingOptions opt;
  opt.block_threads = 16;
  opt.align_elems = 4;
  const SharingPlan plan = make_sharing_plan(fig4(), opt);
  EXPECT_EQ(plan.block_pos, (std::vector<std::int64_t>{0, 8, 16}));
  EXPECT_EQ(plan.packed_elems, 16);
  for (int k : {5, 6, 7, 13, 14, 15}) EXPECT_EQ(plan.packed_src[k], -1) << k;
  expect_local_invariant(fig4(), plan);
}

TEST(Sharing, MultiRowBlocks) {
  // Two blocks of 2 threads: t0 reads 5,6,5; t1 reads 6,7 -> block 0 {5,6,7};
  // t2 reads 1; t3 reads nothing -> block 1 {1}. Duplication: 4 threads * 3 rows = 12.
  const auto p = make_pattern({{5, 6, 5}, {6, 7}, {1}, {}}, 8, 4);
  SharingOptions opt;
  opt.block_threads = 2;
  const SharingPlan plan = make_sharing_plan(p, opt);
  EXPECT_EQ(plan.packed_src, (std::vector<std::int32_t>{5, 6, 7, 1}));
  EXPECT_EQ(plan.local[0 * 4 + 0], 0);   // t0 row 0 -> 5 at 0
  EXPECT_EQ(plan.local[2 * 4 + 0], 0);   // t0 row 2 -> 5 again at 0
  EXPECT_EQ(plan.local[1 * 4 + 1], 2);   // t1 row 1 -> 7 at 2
  EXPECT_EQ(plan.local[1 * 4 + 3], -1);  // inactive
  EXPECT_EQ(plan.dup_elems, 12);
  EXPECT_EQ(plan.extra_bytes_vs_dup, (4 - 12) * 4);
  expect_local_invariant(p, plan);
}

TEST(Sharing, ThreadAloneOverCapacityThrows) {
  SharingOptions opt;
  opt.block_threads = 4;
  opt.capacity_elems = 1;
  EXPECT_THROW(make_sharing_plan(make_pattern({{0, 1}}, 2, 4), opt), Error);
}

TEST(Sharing, CsrLayoutGivesTheSamePlan) {
  // Random pattern with uneven rows: the plan (blocks, packing) does not depend on the layout;
  // local indices are laid out like each pattern.
  std::mt19937 rng(4);
  std::vector<std::vector<std::int32_t>> rows(300);
  for (auto& r : rows) {
    r.resize(rng() % 12);
    for (auto& e : r) e = static_cast<std::int32_t>(rng() % 500);
  }
  const IrregularPattern p = make_pattern(rows, 500, 16), c = to_csr(p);
  SharingOptions opt;
  opt.block_threads = 64;
  opt.capacity_elems = 200;
  const SharingPlan a = make_sharing_plan(p, opt), b = make_sharing_plan(c, opt);
  expect_local_invariant(p, a);
  expect_local_invariant(c, b);
  EXPECT_EQ(a.block_begin, b.block_begin);
  EXPECT_EQ(a.packed_src, b.packed_src);
  EXPECT_EQ(b.local.size(), c.index.size());
  for (std::int64_t t = 0; t < p.threads; ++t)
    for (int j = 0; j < p.len[t]; ++j) ASSERT_EQ(a.local[p.pos(j, t)], b.local[c.pos(j, t)]);
}

// Every field of two plans (the parallel planner must reproduce the serial one exactly).
void expect_same_plan(const SharingPlan& a, const SharingPlan& b) {
  EXPECT_EQ(a.block_begin, b.block_begin);
  EXPECT_EQ(a.block_pos, b.block_pos);
  EXPECT_EQ(a.block_sizes, b.block_sizes);
  EXPECT_EQ(a.packed_src, b.packed_src);
  EXPECT_EQ(a.local, b.local);
  EXPECT_EQ(a.splits, b.splits);
  EXPECT_EQ(a.max_block_set, b.max_block_set);
  EXPECT_EQ(a.packed_elems, b.packed_elems);
  EXPECT_EQ(a.dup_elems, b.dup_elems);
  EXPECT_EQ(a.extra_bytes_vs_dup, b.extra_bytes_vs_dup);
  EXPECT_EQ(a.extra_bytes_vs_data, b.extra_bytes_vs_data);
}

// Random rows of 0..max_len entries over data_count elements; some rows empty, some repeated
// elements (a thread may read one element twice).
IrregularPattern random_pattern(std::mt19937& rng, std::int64_t threads, int max_len,
                                std::int32_t data_count) {
  std::vector<std::vector<std::int32_t>> rows(threads);
  for (auto& r : rows) {
    r.resize(rng() % (max_len + 1));
    for (auto& e : r) e = static_cast<std::int32_t>(rng() % data_count);
  }
  return make_pattern(rows, data_count, 16);
}

// The OpenMP planner against the serial reference on random patterns: block sizes that do and
// do not divide the threads, capacities that force splits (several levels deep), alignment, both
// storage layouts. Where a thread alone exceeds the capacity, both refuse with the same message.
TEST(Sharing, ParallelPlannerMatchesSerialOnRandomPatterns) {
  std::mt19937 rng(20261123);
  int planned = 0, refused = 0, split = 0;
  for (int round = 0; round < 60; ++round) {
    const std::int64_t T = 1 + rng() % 900;
    const int max_len = 1 + static_cast<int>(rng() % 14);
    const IrregularPattern rows = random_pattern(rng, T, max_len, 1 + rng() % 700);
    SharingOptions opt;
    opt.block_threads = std::vector<int>{1, 3, 16, 37, 64, 128, 256}[rng() % 7];
    opt.capacity_elems = std::vector<std::int64_t>{0, 6, 12, 40, 150}[rng() % 5];
    opt.align_elems = std::vector<int>{1, 4, 8}[rng() % 3];
    for (const IrregularPattern& p : {rows, to_csr(rows)}) {
      SCOPED_TRACE("round " + std::to_string(round) + (p.csr() ? " csr" : " rows"));
      std::string serial_error, parallel_error;
      SharingPlan a, b;
      try {
        a = make_sharing_plan_serial(p, opt);
      } catch (const Error& e) {
        serial_error = e.what();
      }
      try {
        b = make_sharing_plan(p, opt);
      } catch (const Error& e) {
        parallel_error = e.what();
      }
      EXPECT_EQ(parallel_error, serial_error);
      if (!serial_error.empty()) {
        EXPECT_NE(serial_error.find("alone references"), std::string::npos) << serial_error;
        ++refused;
        continue;
      }
      expect_same_plan(b, a);
      expect_local_invariant(p, b);
      for (std::int64_t k = 0; k < b.blocks(); ++k) {
        // Sets are unique and sorted, within capacity, and start aligned.
        const auto* set = b.packed_src.data() + b.block_pos[k];
        for (int i = 1; i < b.block_sizes[k]; ++i) ASSERT_LT(set[i - 1], set[i]);
        if (opt.capacity_elems > 0) ASSERT_LE(b.block_sizes[k], opt.capacity_elems);
        ASSERT_EQ(b.block_pos[k] % opt.align_elems, 0);
      }
      ++planned;
      split += b.splits > 0;
    }
  }
  // The random cases cover what they are meant to.
  EXPECT_GT(planned, 40);
  EXPECT_GT(refused, 0);
  EXPECT_GT(split, 10);
}

}  // namespace
}  // namespace mdremap::remap

// seed 001 §3.3.2, Fig. 3 / Fig. 4(c): the padding algorithm.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "mdremap/error.hpp"
#include "mdremap/remap/impl/padding.hpp"
#include "mdremap/remap/transactions.hpp"
#include "remap_test_util.hpp"

namespace mdremap::remap {
namespace {

using testing::make_pattern;
using testing::single_row;

// Reading through Q gives what the original thread read.
void expect_invariant(const IrregularPattern& p, const PaddingPlan& plan) {
  ASSERT_TRUE(is_permutation(plan.thread_perm));
  const IrregularPattern permuted = apply_thread_permutation(p, plan.thread_perm);
  ASSERT_EQ(plan.q.size(), p.index.size());
  for (std::int64_t nt = 0; nt < p.threads; ++nt) {
    const std::int64_t t = plan.thread_perm[nt];
    for (int j = 0; j < p.len[t]; ++j) {
      const std::int32_t slot = plan.q[permuted.pos(j, nt)];
      ASSERT_GE(slot, 0);
      ASSERT_LT(slot, static_cast<std::int32_t>(plan.newdata_src.size()));
      EXPECT_EQ(plan.newdata_src[slot], p.at(j, t)) << "thread " << t << " row " << j;
    }
  }
}

// Original layout of Fig. 4(a): a c e g b d f h.
constexpr std::int32_t a = 0, c = 1, e = 2, g = 3, b = 4, d = 5, f = 6, h = 7;
IrregularPattern fig4() {
  return single_row({a, a, b, b, c, c, d, d, e, e, a, a, b, b, c, d, e, f, g, h, a, a}, 8, 8);
}

TEST(Padding, ReproducesSeed001Fig4c) {
  // Frequencies: a 6, b 4, c 3, d 3, e 3, f 1, g 1, h 1 (ties in first-access order) -> data
  // order a b c d e f g h. Threads (0-based) regrouped by that order:
  //   a: 0 1 10 11 20 21 | b: 2 3 12 13 | c: 4 5 14 | d: 6 7 15 | e: 8 9 16 | f 17 | g 18 | h 19
  // warps of 4: {a a a a} {a a b b} {b b c c} {c d d d} {e e e f} {g h}
  // packing 4 slots per segment:
  //   w0 {a}: [a]      w1 {a,b}: 2 <= 3 free -> [a b]     w2 {b,c}: 2 <= 2 -> [a b c]
  //   w3 {c,d}: 2 > 1 free -> pad x, new segment [c d]    w4 {e,f}: 2 <= 2 -> [c d e f]
  //   w5 {g,h}: 2 > 0 -> new segment [g h]
  // layout a b c x c d e f g h: 10 slots, 1 hole, 1 duplicate (c), 2 extra * 8 bytes = 16.
  const auto p = fig4();
  PaddingOptions opt;
  opt.warp_size = 4;
  opt.segment_bytes = 32;
  const PaddingPlan plan = make_padding_plan(p, opt);
  const ThreadPermutation want_perm = {0, 1,  10, 11, 20, 21, 2, 3,  12, 13, 4,
                                       5, 14, 6,  7,  15, 8,  9, 16, 17, 18, 19};
  EXPECT_EQ(plan.thread_perm, want_perm);
  const std::vector<std::int32_t> want_layout = {a, b, c, -1, c, d, e, f, g, h};
  EXPECT_EQ(plan.newdata_src, want_layout);
  EXPECT_EQ(plan.segment_elems, 4);
  EXPECT_EQ(plan.holes, 1);
  EXPECT_EQ(plan.duplicates, 1);
  EXPECT_EQ(plan.extra_bytes, 16);
  expect_invariant(p, plan);
  // Every warp now touches one segment: 6 loads, 6 transactions (10 before, see
  // Transactions.Seed001Fig4OriginalAndDuplicated).
  const auto tc = count_transactions(padded_pattern(p, plan), 4);
  EXPECT_EQ(tc.loads, 6);
  EXPECT_EQ(tc.seg32, 6);
}

TEST(Padding, ReuseResidentPadsLess) {
  // Counting only non-resident elements: w3 {c,d} needs 1 (c is resident) <= 1 free ->
  // [a b c d]; w4 {e,f} needs 2 > 0 -> [e f]; w5 {g,h} 2 <= 2 -> [e f g h]. No hole, no copy.
  const auto p = fig4();
  PaddingOptions opt;
  opt.warp_size = 4;
  opt.segment_bytes = 32;
  opt.reuse_resident = true;
  const PaddingPlan plan = make_padding_plan(p, opt);
  const std::vector<std::int32_t> want_layout = {a, b, c, d, e, f, g, h};
  EXPECT_EQ(plan.newdata_src, want_layout);
  EXPECT_EQ(plan.holes, 0);
  EXPECT_EQ(plan.duplicates, 0);
  EXPECT_EQ(plan.extra_bytes, 0);
  expect_invariant(p, plan);
  EXPECT_EQ(count_transactions(padded_pattern(p, plan), 4).seg32, 6);
}

TEST(Padding, WarpSetLargerThanSegmentStartsOnBoundary) {
  // 16-byte elements, 32-byte segments (2 slots), warp 4. Threads 0..5 read 10,11,12,13,13,14.
  // Frequencies: 13 -> 2, the rest 1 -> order 13,10,11,12,14. Regrouped threads: 3,4,0,1,2,5.
  // w0 = {13,13,10,11}: 3 unique > 2 slots -> from a boundary: [13 10 | 11 .], segment 1 current.
  // w1 = {12,14}: 2 > 1 free -> hole, new segment [12 14].
  // layout 13 10 11 x 12 14: 6 slots, 1 hole, extra (6 - 15 data) * 16 = -144 bytes.
  // Traffic: w0 bytes 0,0,16,32 -> 2 segments (= ceil(3*16/32), the minimum); w1 -> 1.
  const auto p = single_row({10, 11, 12, 13, 13, 14}, 15, 16);
  PaddingOptions opt;
  opt.warp_size = 4;
  opt.segment_bytes = 32;
  const PaddingPlan plan = make_padding_plan(p, opt);
  EXPECT_EQ(plan.thread_perm, (ThreadPermutation{3, 4, 0, 1, 2, 5}));
  EXPECT_EQ(plan.newdata_src, (std::vector<std::int32_t>{13, 10, 11, -1, 12, 14}));
  EXPECT_EQ(plan.holes, 1);
  EXPECT_EQ(plan.duplicates, 0);
  EXPECT_EQ(plan.extra_bytes, -144);
  expect_invariant(p, plan);
  EXPECT_EQ(count_transactions(padded_pattern(p, plan), 4).seg32, 3);
}

TEST(Padding, NoRegroupKeepsThreadOrder) {
  // Fig. 4 threads in their own order, warps {a a b b} {c c d d} {e e a a} {b b c d} {e f g h}
  // {a a}; ranks a b c d e f g h. Packing 4 per segment:
  //   w0 {a,b}: [a b]        w1 {c,d}: 2 <= 2 free -> [a b c d]
  //   w2 {a,e}: 2 > 0 free -> new segment [a e]           (a copied)
  //   w3 {b,c,d}: 3 > 2 free -> 2 holes, [b c d]          (b, c, d copied)
  //   w4 {e,f,g,h}: 4 > 1 free -> 1 hole, [e f g h]       (e copied)
  //   w5 {a}: 1 > 0 free -> [a]                           (a copied again)
  // layout a b c d | a e x x | b c d x | e f g h | a : 17 slots, 3 holes, 6 duplicates.
  const auto p = fig4();
  PaddingOptions opt;
  opt.warp_size = 4;
  opt.segment_bytes = 32;
  opt.regroup_threads = false;
  const PaddingPlan plan = make_padding_plan(p, opt);
  const std::vector<std::int32_t> want = {a, b, c, d, a, e, -1, -1, b, c, d, -1, e, f, g, h, a};
  EXPECT_EQ(plan.newdata_src, want);
  EXPECT_EQ(plan.holes, 3);
  EXPECT_EQ(plan.duplicates, 6);
  EXPECT_EQ(plan.extra_bytes, (17 - 8) * 8);
  expect_invariant(p, plan);
}

TEST(Padding, EveryWarpLoadHitsTheMinimumOnRandomMultiRowPatterns) {
  // The paper's guarantee: each warp-load touches ceil(unique * E / S) segments.
  std::mt19937 rng(3);
  for (int W : {4, 32}) {
    const std::int64_t T = 200, D = 150;
    std::vector<std::vector<std::int32_t>> rows(T);
    for (auto& r : rows) {
      r.resize(rng() % 6);
      for (auto& x : r) x = static_cast<std::int32_t>(rng() % (rng() % 2 ? 20 : D));
    }
    const auto p = make_pattern(rows, D, 16);
    PaddingOptions opt;
    opt.warp_size = W;
    opt.segment_bytes = 128;
    const PaddingPlan plan = make_padding_plan(p, opt);
    expect_invariant(p, plan);
    const auto q = padded_pattern(p, plan);
    std::int64_t minimum = 0;
    for (std::int64_t w0 = 0; w0 < T; w0 += W)
      for (int j = 0; j < p.rows; ++j) {
        std::set<std::int32_t> u;
        for (std::int64_t t = w0; t < std::min(T, w0 + W); ++t)
          if (j < q.len[t]) u.insert(plan.newdata_src[q.at(j, t)]);
        minimum += (static_cast<std::int64_t>(u.size()) * 16 + 127) / 128;
      }
    EXPECT_EQ(count_segments(q, 128, W), minimum) << "W=" << W;
  }
}

TEST(Padding, RejectsSegmentNotMultipleOfElement) {
  PaddingOptions opt;
  opt.segment_bytes = 100;
  EXPECT_THROW(make_padding_plan(single_row({0}, 1, 16), opt), Error);
}

TEST(Padding, CsrLayoutGivesTheSamePlan) {
  // Uneven multi-row pattern; Q follows the layout (the thread-permuted CSR offsets).
  std::mt19937 rng(8);
  std::vector<std::vector<std::int32_t>> rows(200);
  for (auto& r : rows) {
    r.resize(rng() % 6);
    for (auto& e : r) e = static_cast<std::int32_t>(rng() % 150);
  }
  const IrregularPattern p = make_pattern(rows, 150, 16), c = to_csr(p);
  const PaddingPlan a = make_padding_plan(p), b = make_padding_plan(c);
  expect_invariant(p, a);
  expect_invariant(c, b);
  EXPECT_EQ(a.thread_perm, b.thread_perm);
  EXPECT_EQ(a.newdata_src, b.newdata_src);
  EXPECT_EQ(b.q.size(), c.index.size());
  EXPECT_EQ(count_transactions(padded_pattern(p, a)).seg32,
            count_transactions(padded_pattern(c, b)).seg32);
}

}  // namespace
}  // namespace mdremap::remap

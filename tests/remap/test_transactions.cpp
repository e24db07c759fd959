// The papers' transaction metric (seed 001 §2.1, seed 000 §3.1). Expectations are worked by hand
// in the comments; element size 8 bytes makes a 32-byte segment hold 4 elements, which is the
// "segment of 4" of the papers' figures, and a 128-byte segment hold 16.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "mdremap/error.hpp"
#include "mdremap/remap/transactions.hpp"
#include "remap_test_util.hpp"

namespace mdremap::remap {
namespace {

using testing::make_pattern;
using testing::single_row;

// seed 001 Fig. 1(b)/(c): warp of 4, a segment holds 4 molecules' positions.
TEST(Transactions, Seed001Fig1RegularAndIrregularWarp) {
  // (b) neighbors = {4,5,6,7}: all in segment 1 (elements 4..7) -> 1 transaction.
  const auto regular = count_transactions(single_row({4, 5, 6, 7}, 128, 8), 4);
  EXPECT_EQ(regular.loads, 1);
  EXPECT_EQ(regular.seg32, 1);
  EXPECT_EQ(regular.seg128, 1);  // 128-byte segment 0 holds elements 0..15
  // (c) neighbors = {9,103,23,67}: 4-element segments 2, 25, 5, 16 -> 4 transactions.
  // 16-element segments: 0, 6, 1, 4 -> 4 as well.
  const auto irregular = count_transactions(single_row({9, 103, 23, 67}, 128, 8), 4);
  EXPECT_EQ(irregular.loads, 1);
  EXPECT_EQ(irregular.seg32, 4);
  EXPECT_EQ(irregular.seg128, 4);
}

// seed 001 §2.2.1: P = {8,23,46,93, 8,9,10,67, 5,11,41,67, 9,41,55,59}, S = W = 4.
TEST(Transactions, Seed001Section221Example) {
  // warp 0: 8,23,46,93 -> segments 2,5,11,23 -> 4
  // warp 1: 8,9,10,67  -> 2,2,2,16         -> 2
  // warp 2: 5,11,41,67 -> 1,2,10,16        -> 4
  // warp 3: 9,41,55,59 -> 2,10,13,14       -> 4     total 14 over 4 loads
  const auto P = single_row({8, 23, 46, 93, 8, 9, 10, 67, 5, 11, 41, 67, 9, 41, 55, 59}, 100, 8);
  const auto c = count_transactions(P, 4);
  EXPECT_EQ(c.loads, 4);
  EXPECT_EQ(c.seg32, 14);
  EXPECT_EQ(count_segments(P, 32, 4), 14);
  // Generic segment size: 8-byte segments hold one element -> distinct elements per warp:
  // 4 + 4 + 4 + 4 = 16.
  EXPECT_EQ(count_segments(P, 8, 4), 16);
}

// seed 000 Fig. 1 / Listing 1: val[rowPtr[tid] + k], rowPtr = {0,3,6,9,12}, warp = segment = 4.
TEST(Transactions, Seed000Fig1CsrVal) {
  // thread t, iteration k reads rowPtr[t] + k:
  // k=0: 0,3,6,9   -> segments 0,0,1,2 -> 3
  // k=1: 1,4,7,10  -> 0,1,1,2          -> 3
  // k=2: 2,5,8,11  -> 0,1,2,2          -> 3      total 9 = 3x the minimum of 3
  const auto p = make_pattern({{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 10, 11}}, 12, 8);
  const auto before = count_transactions(p, 4);
  EXPECT_EQ(before.loads, 3);
  EXPECT_EQ(before.seg32, 9);
  EXPECT_EQ(before.seg128, 3);  // all 12 elements in one 128-byte segment
  // Duplicated (eq. 2): row k reads new_A[k*4 + t] -> one segment per load -> 3.
  const auto after = count_transactions_duplicated(p, 4);
  EXPECT_EQ(after.loads, 3);
  EXPECT_EQ(after.seg32, 3);
  EXPECT_EQ(after.seg128, 3);
}

// seed 000 Fig. 4: A[B[tid] + i] with B = {0,3,7,9} (the figure is lost; we take B[4] = 12, so
// rows of length 3,4,2,3 and maxIterNum = 4). new_A is filled A[0],A[3],A[7],A[9] then
// A[1],A[4],A[8],A[10] as the text says.
TEST(Transactions, Seed000Fig4IndirectAccess) {
  // iter 0: 0,3,7,9   -> segments 0,0,1,2 -> 3
  // iter 1: 1,4,8,10  -> 0,1,2,2          -> 3
  // iter 2: 2,5,-,11  -> 0,1,2            -> 3   (thread 2 idle)
  // iter 3: -,6,-,-   -> 1                -> 1   total 10 over 4 loads
  const auto p = make_pattern({{0, 1, 2}, {3, 4, 5, 6}, {7, 8}, {9, 10, 11}}, 12, 8);
  const auto before = count_transactions(p, 4);
  EXPECT_EQ(before.loads, 4);
  EXPECT_EQ(before.seg32, 10);
  // After duplication (newSize = maxIterNum * rowSize = 16): one segment per iteration -> 4.
  const auto after = count_transactions_duplicated(p, 4);
  EXPECT_EQ(after.loads, 4);
  EXPECT_EQ(after.seg32, 4);
  EXPECT_EQ(count_segments_duplicated(p, 32, 4), 4);
}

// seed 001 Fig. 4(a)/(b): 22 threads read a a b b c c d d e e a a b b c d e f g h a a; the original
// layout is a c e g b d f h (a=0 c=1 e=2 g=3 b=4 d=5 f=6 h=7); 4 per segment, 4 per warp.
TEST(Transactions, Seed001Fig4OriginalAndDuplicated) {
  const std::int32_t a = 0, c = 1, e = 2, g = 3, b = 4, d = 5, f = 6, h = 7;
  const auto p =
      single_row({a, a, b, b, c, c, d, d, e, e, a, a, b, b, c, d, e, f, g, h, a, a}, 8, 8);
  // (a) warps: {a,a,b,b} -> segs 0,1 -> 2; {c,c,d,d} -> 0,1 -> 2; {e,e,a,a} -> 0 -> 1;
  //     {b,b,c,d} -> 1,0,1 -> 2; {e,f,g,h} -> 0,1,0,1 -> 2; {a,a} -> 1. Total 10 over 6 loads.
  const auto orig = count_transactions(p, 4);
  EXPECT_EQ(orig.loads, 6);
  EXPECT_EQ(orig.seg32, 10);
  EXPECT_EQ(orig.seg128, 6);  // 8 elements = 64 bytes: one 128-byte segment per load
  // (b) duplication: thread t reads A'[t] -> each warp one segment -> 6.
  const auto dup = count_transactions_duplicated(p, 4);
  EXPECT_EQ(dup.loads, 6);
  EXPECT_EQ(dup.seg32, 6);
  // 22 threads * 8 bytes = 176 bytes: warps 0-3 (bytes 0..127) segment 0, warps 4,5 segment 1.
  EXPECT_EQ(dup.seg128, 6);
}

TEST(Transactions, StraddlingAndMisalignedElements) {
  // 48-byte elements, 32-byte segments: element 0 = bytes 0..47 -> segments 0,1; element 1 =
  // bytes 48..95 -> 1,2. One warp of 2 lanes reading both -> {0,1,2} = 3.
  // 128-byte segments: bytes 0..95 -> 1.
  const auto big = count_transactions(single_row({0, 1}, 2, 48), 2);
  EXPECT_EQ(big.seg32, 3);
  EXPECT_EQ(big.seg128, 1);
  // 12-byte elements: element 2 = bytes 24..35 straddles 32-byte segments 0 and 1 -> 2;
  // element 10 = bytes 120..131 straddles 128-byte segments 0 and 1 -> 2.
  const auto mis = count_transactions(single_row({2}, 11, 12), 32);
  EXPECT_EQ(mis.seg32, 2);
  EXPECT_EQ(mis.seg128, 1);
  const auto mis128 = count_transactions(single_row({10}, 11, 12), 32);
  EXPECT_EQ(mis128.seg32, 2);  // bytes 120..131 -> 32-byte segments 3 and 4
  EXPECT_EQ(mis128.seg128, 2);
}

TEST(Transactions, InactiveLanesAndPartialWarp) {
  // 5 threads, warp 4, len = {2,0,1,0,0}: thread 0 reads 0 then 40, thread 2 reads 8.
  // warp 0 row 0: lanes 0,2 -> elements 0,8 -> 32-byte segments 0,2 -> 2
  // warp 0 row 1: lane 0 -> element 40 -> segment 10 -> 1
  // warp 1 (thread 4) reads nothing -> no load.            loads 2, seg32 3
  const auto p = make_pattern({{0, 40}, {}, {8}, {}, {}}, 41, 8);
  const auto c = count_transactions(p, 4);
  EXPECT_EQ(c.loads, 2);
  EXPECT_EQ(c.seg32, 3);
  // 128-byte segments: row 0: elements 0,8 -> segment 0 -> 1; row 1: 40 -> segment 2 -> 1.
  EXPECT_EQ(c.seg128, 2);
  // Duplicated: row 0 lanes 0,2 read A'[0], A'[2] -> 1; row 1 lane 0 reads A'[5] -> 1.
  const auto d = count_transactions_duplicated(p, 4);
  EXPECT_EQ(d.loads, 2);
  EXPECT_EQ(d.seg32, 2);
}

TEST(Transactions, ContiguousStaging) {
  // 40 elements of 16 bytes from element 3, warp 32:
  // load 0: elements 3..34 = bytes 48..559 -> 32-byte segs 1..17 (17), 128-byte segs 0..4 (5)
  // load 1: elements 35..42 = bytes 560..687 -> segs 17..21 (5), 128-byte segs 4..5 (2)
  const auto c = count_contiguous_transactions(3, 40, 16, 32);
  EXPECT_EQ(c.loads, 2);
  EXPECT_EQ(c.seg32, 22);
  EXPECT_EQ(c.seg128, 7);
  EXPECT_EQ(count_contiguous_transactions(0, 0, 16).loads, 0);
}

TEST(Transactions, RejectsBadArguments) {
  const auto p = single_row({0}, 1, 8);
  EXPECT_THROW(count_segments(p, 0), Error);
  EXPECT_THROW(count_transactions(p, 0), Error);
  auto broken = p;
  broken.len.push_back(1);
  EXPECT_THROW(count_transactions(broken), Error);
}

// Independent reference: std::set of segment ids per warp-load, straight from the definition.
std::int64_t brute_force(const IrregularPattern& p, int S, int W, bool duplicated) {
  std::int64_t total = 0;
  for (std::int64_t w0 = 0; w0 < p.threads; w0 += W)
    for (int j = 0; j < p.rows; ++j) {
      std::set<std::int64_t> segs;
      for (std::int64_t t = w0; t < std::min(p.threads, w0 + W); ++t) {
        if (j >= p.len[t]) continue;
        const std::int64_t k = duplicated ? j * p.threads + t : p.at(j, t);
        for (std::int64_t b = k * p.elem_bytes; b < (k + 1) * p.elem_bytes; ++b) segs.insert(b / S);
      }
      total += static_cast<std::int64_t>(segs.size());
    }
  return total;
}

TEST(Transactions, MatchesDefinitionOnRandomPatterns) {
  std::mt19937 rng(7);
  for (int elem_bytes : {4, 8, 12, 16, 48, 200}) {
    for (int W : {4, 32, 33}) {
      const std::int64_t T = 97, D = 300;
      const int R = 5;
      std::vector<std::vector<std::int32_t>> rows(T);
      for (auto& r : rows) {
        r.resize(rng() % (R + 1));
        for (auto& e : r) e = static_cast<std::int32_t>(rng() % D);
      }
      const auto p = make_pattern(rows, D, elem_bytes);
      const auto c = count_transactions(p, W);
      EXPECT_EQ(c.seg32, brute_force(p, 32, W, false)) << elem_bytes << " " << W;
      EXPECT_EQ(c.seg128, brute_force(p, 128, W, false)) << elem_bytes << " " << W;
      EXPECT_EQ(count_segments(p, 96, W), brute_force(p, 96, W, false));
      const auto d = count_transactions_duplicated(p, W);
      EXPECT_EQ(d.seg32, brute_force(p, 32, W, true));
      EXPECT_EQ(d.seg128, brute_force(p, 128, W, true));
      EXPECT_EQ(d.loads, c.loads);
    }
  }
}

}  // namespace
}  // namespace mdremap::remap

// Transactions as the papers' profilers counted them (seed 001 §2.1, seed 000 §3.1, Listing 1):
// data plus index, weight and length loads, per strategy shape, in both pattern layouts. The
// expectations are worked by hand in the comments (8-byte elements: 4 per 32-byte segment).
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "mdremap/error.hpp"
#include "mdremap/remap/transaction_breakdown.hpp"
#include "remap_test_util.hpp"

namespace mdremap::remap {
namespace {

using testing::make_pattern;
using testing::single_row;

void expect_count(const TransactionCount& c, std::int64_t loads, std::int64_t seg32,
                  std::int64_t seg128, const char* what) {
  EXPECT_EQ(c.loads, loads) << what;
  EXPECT_EQ(c.seg32, seg32) << what;
  EXPECT_EQ(c.seg128, seg128) << what;
}

// seed 000 Fig. 1 / Listing 1: rowPtr = {0,3,6,9,12}, 4 threads of 3 references, warp 4.
IrregularPattern listing1() {
  return make_pattern({{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 10, 11}}, 12, 8);
}
TransactionModel model4() {
  TransactionModel m;
  m.warp_size = 4;
  m.weight_bytes = 8;  // val[k], doubles
  return m;
}

TEST(TransactionBreakdown, GatherRowsByThreads) {
  const auto b = count_breakdown_gather(listing1(), model4());
  // len[0..3]: bytes 0..15 -> 1 load, 1 segment.
  expect_count(b.lengths, 1, 1, 1, "lengths");
  // index[j*4 + t], 4 bytes: load j reads bytes 16j..16j+15 -> 1 segment each, 3 loads.
  expect_count(b.index, 3, 3, 3, "index");
  // weights like the index, 8 bytes: load j reads bytes 32j..32j+31 -> 1 segment each.
  expect_count(b.weights, 3, 3, 3, "weights");
  // data (Transactions.Seed000Fig1CsrVal): 3 segments per load, 1 of 128 bytes.
  expect_count(b.data, 3, 9, 3, "data");
  expect_count(b.total(), 10, 16, 10, "total");
}

TEST(TransactionBreakdown, GatherCsr) {
  const auto b = count_breakdown_gather(to_csr(listing1()), model4());
  // offset[t] (bytes 0..15) and offset[t+1] (bytes 4..19): 2 loads of 1 segment.
  expect_count(b.lengths, 2, 2, 2, "lengths");
  // index[3t + j], 4 bytes: j=0 bytes 0,12,24,36 -> segments {0,1}; j=1 4,16,28,40 -> {0,1};
  // j=2 8,20,32,44 -> {0,1}: 6; one 128-byte segment per load.
  expect_count(b.index, 3, 6, 3, "index");
  // val[3t + j], 8 bytes: seed 000's example: 3 segments per load (0,24,48,72 -> {0,0,1,2}...).
  expect_count(b.weights, 3, 9, 3, "weights");
  expect_count(b.data, 3, 9, 3, "data");
  expect_count(b.total(), 11, 26, 11, "total");
}

TEST(TransactionBreakdown, DuplicatedNeverReadsTheIndex) {
  for (const IrregularPattern& p : {listing1(), to_csr(listing1())}) {
    const auto b = count_breakdown_duplicated(p, model4());
    // A'[4j + t]: 32 aligned bytes per load -> 1 segment; weights relaid out the same way;
    // only len[t] is needed (1 load, 1 segment), whatever the pattern's layout.
    expect_count(b.data, 3, 3, 3, "data");
    expect_count(b.weights, 3, 3, 3, "weights");
    expect_count(b.index, 0, 0, 0, "index");
    expect_count(b.lengths, 1, 1, 1, "lengths");
  }
}

TEST(TransactionBreakdown, PartialDuplicationGathersTheRestThroughP) {
  // dup_rows = 1: row 0 from A' (elements 0..3: 1 segment, weights 1), rows 1 and 2 through P.
  const auto r = count_breakdown_duplicated(listing1(), model4(), 1);
  // data: row 0 -> 1; row 1 elements 1,4,7,10 -> {0,1,1,2} 3; row 2 2,5,8,11 -> {0,1,2,2} 3.
  expect_count(r.data, 3, 7, 3, "data rbt");
  expect_count(r.index, 2, 2, 2, "index rbt");      // index[4j + t], j = 1, 2
  expect_count(r.weights, 3, 3, 3, "weights rbt");  // A' row 0, then val[4j + t]
  expect_count(r.lengths, 1, 1, 1, "lengths rbt");
  const auto c = count_breakdown_duplicated(to_csr(listing1()), model4(), 1);
  expect_count(c.data, 3, 7, 3, "data csr");
  expect_count(c.index, 2, 4, 2, "index csr");      // j = 1, 2 of GatherCsr: 2 + 2
  expect_count(c.weights, 3, 7, 3, "weights csr");  // 1 (A' row 0) + 3 + 3
  expect_count(c.lengths, 2, 2, 2, "lengths csr");  // gathered rows need the offsets
}

TEST(TransactionBreakdown, DuplicatedChunksAreLaidOutPerChunk) {
  // Chunks {0,1} and {2,3}, 3 rows each: chunk 1 starts at element 6. Load j reads elements
  // 2j, 2j+1, 6+2j, 7+2j: j=0 bytes 0..15, 48..63 -> {0,1}; j=1 16..31, 64..79 -> {0,2};
  // j=2 32..47, 80..95 -> {1,2}: 6 segments (3 with one chunk: chunks that do not start on a
  // warp boundary cost transactions, hence the strategy's warp-aligned chunks).
  const auto b = count_breakdown_duplicated(listing1(), model4(), -1, {0, 2, 4});
  expect_count(b.data, 3, 6, 3, "data");
  EXPECT_THROW(count_breakdown_duplicated(listing1(), model4(), -1, {0, 5}), Error);
}

TEST(TransactionBreakdown, SharingReadsLocalIndicesAndStages) {
  const IrregularPattern p = listing1();
  SharingOptions so;
  so.block_threads = 4;
  const SharingPlan one = make_sharing_plan(p, so);
  for (const IrregularPattern& q : {p, to_csr(p)}) {
    const SharingPlan plan = make_sharing_plan(q, so);
    const auto b = count_breakdown_sharing(q, plan, model4());
    // One block, set = elements 0..11 packed at 0..11: staged in 3 coalesced loads of 32 bytes.
    expect_count(b.data, 3, 3, 3, "staging");
    if (!q.csr()) {
      // len (1 load) + blockPos, blockSizes (2 loads): 3 segments; local[4j + t]: 3 x 1.
      expect_count(b.lengths, 3, 3, 3, "lengths");
      expect_count(b.index, 3, 3, 3, "local");
    } else {
      // offsets (2 loads, 2 segments) + block bounds (2); local[3t + j] like GatherCsr's index.
      expect_count(b.lengths, 4, 4, 4, "lengths");
      expect_count(b.index, 3, 6, 3, "local");
    }
    expect_count(b.weights, 3, q.csr() ? 9 : 3, 3, "weights");
  }
  // Blocks of 2 threads: block 0 stages elements 0..5 (bytes 0..47: loads of 4 + 2 elements,
  // 1 + 1 segments), block 1 elements 6..11 at slots 6..11 (bytes 48..79 -> 2 segments, 80..95
  // -> 1). Each block is one warp of 2 lanes: len 1 load + 2 bound loads per warp; local[4j+t]
  // of 2 lanes: 1 segment per warp and row.
  so.block_threads = 2;
  const SharingPlan two = make_sharing_plan(p, so);
  const auto b = count_breakdown_sharing(p, two, model4());
  expect_count(b.data, 4, 5, 4, "staging, 2 blocks");
  expect_count(b.lengths, 6, 6, 6, "lengths, 2 blocks");
  expect_count(b.index, 6, 6, 6, "local, 2 blocks");
  EXPECT_THROW(count_breakdown_sharing(single_row({0}, 1, 8), one, model4()), Error);
}

// seed 001 Fig. 4(c) (Padding.ReproducesSeed001Fig4c): 22 threads of one reference, 6 warps.
TEST(TransactionBreakdown, PaddedReadsLenQAndTheCopy) {
  const std::int32_t a = 0, c = 1, e = 2, g = 3, b = 4, d = 5, f = 6, h = 7;
  const auto p =
      single_row({a, a, b, b, c, c, d, d, e, e, a, a, b, b, c, d, e, f, g, h, a, a}, 8, 8);
  PaddingOptions po;
  po.warp_size = 4;
  po.segment_bytes = 32;
  TransactionModel m;
  m.warp_size = 4;
  for (const IrregularPattern& q : {p, to_csr(p)}) {
    const PaddingPlan plan = make_padding_plan(q, po);
    const auto bd = count_breakdown_padded(q, plan, m);
    // The padded copy: one segment per warp (6); Q[nt] (4 bytes, 16 per warp) 1 per warp.
    expect_count(bd.data, 6, 6, 6, "data");
    expect_count(bd.index, 6, 6, 6, "Q");
    if (!q.csr()) {
      expect_count(bd.lengths, 6, 6, 6, "len");
    } else {
      // offset[nt] for warp k: bytes 16k..16k+15 -> 1 segment; offset[nt+1]: 16k+4..16k+19 ->
      // 2 segments for odd k (1, 3), else 1; the last warp has 2 lanes (bytes 80..87, 84..91).
      expect_count(bd.lengths, 12, 14, 12, "offsets");
    }
  }
}

// Independent reference: the definition with std::set, per warp-load.
std::int64_t segs(const std::vector<std::pair<std::int64_t, std::int64_t>>& ranges, int S) {
  std::set<std::int64_t> s;
  for (auto [b0, b1] : ranges)
    for (std::int64_t x = b0; x < b1; ++x) s.insert(x / S);
  return static_cast<std::int64_t>(s.size());
}

TEST(TransactionBreakdown, GatherMatchesDefinitionOnRandomPatterns) {
  std::mt19937 rng(3);
  for (int W : {4, 32}) {
    const std::int64_t T = 77, D = 400;
    std::vector<std::vector<std::int32_t>> rows(T);
    for (auto& r : rows) {
      r.resize(rng() % 7);
      for (auto& x : r) x = static_cast<std::int32_t>(rng() % D);
    }
    for (const IrregularPattern& p :
         {make_pattern(rows, D, 12), to_csr(make_pattern(rows, D, 12))}) {
      TransactionModel m;
      m.warp_size = W;
      m.weight_bytes = 8;
      const auto b = count_breakdown_gather(p, m);
      std::int64_t idx32 = 0, w32 = 0, len32 = 0, idx_loads = 0;
      for (std::int64_t w0 = 0; w0 < T; w0 += W) {
        const std::int64_t w1 = std::min(T, w0 + W);
        for (int j = 0; j < p.rows; ++j) {
          std::vector<std::pair<std::int64_t, std::int64_t>> ir, wr;
          for (std::int64_t t = w0; t < w1; ++t)
            if (j < p.len[t]) {
              const auto k = static_cast<std::int64_t>(p.pos(j, t));
              ir.emplace_back(4 * k, 4 * k + 4);
              wr.emplace_back(8 * k, 8 * k + 8);
            }
          if (ir.empty()) continue;
          ++idx_loads;
          idx32 += segs(ir, 32);
          w32 += segs(wr, 32);
        }
        for (int k = 0; k < (p.csr() ? 2 : 1); ++k) {
          std::vector<std::pair<std::int64_t, std::int64_t>> lr;
          for (std::int64_t t = w0; t < w1; ++t) lr.emplace_back(4 * (t + k), 4 * (t + k) + 4);
          len32 += segs(lr, 32);
        }
      }
      EXPECT_EQ(b.index.loads, idx_loads);
      EXPECT_EQ(b.index.seg32, idx32);
      EXPECT_EQ(b.weights.seg32, w32);
      EXPECT_EQ(b.lengths.seg32, len32);
      EXPECT_EQ(b.data.seg32, count_transactions(p, W).seg32);
    }
  }
}

}  // namespace
}  // namespace mdremap::remap

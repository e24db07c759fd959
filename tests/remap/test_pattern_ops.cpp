// Permutation helpers and pattern validation.
#include <gtest/gtest.h>

#include "mdremap/error.hpp"
#include "mdremap/remap/pattern_ops.hpp"
#include "remap_test_util.hpp"

namespace mdremap::remap {
namespace {

using testing::make_csr_pattern;
using testing::make_pattern;

TEST(PatternOps, ThreadPermutationMovesColumns) {
  // t0 reads 4,5; t1 reads 6; t2 reads nothing. new -> old = {2,0,1}:
  // new t0 = old t2 (len 0), new t1 = old t0 (4,5), new t2 = old t1 (6).
  // index rows (3 threads): row 0 = [-1, 4, 6], row 1 = [-1, 5, -1].
  const auto p = make_pattern({{4, 5}, {6}, {}}, 7, 16);
  const auto q = apply_thread_permutation(p, {2, 0, 1});
  EXPECT_EQ(q.len, (std::vector<std::int32_t>{0, 2, 1}));
  EXPECT_EQ(q.index, (std::vector<std::int32_t>{-1, 4, 6, -1, 5, -1}));
  EXPECT_EQ(q.data_count, 7);
  EXPECT_THROW(apply_thread_permutation(p, {0, 0, 1}), Error);
  EXPECT_THROW(apply_thread_permutation(p, {0, 1}), Error);
}

TEST(PatternOps, DataPermutationRenamesActiveEntries) {
  // old -> new = {2,0,1}: 0 -> 2, 1 -> 0, 2 -> 1. t0 reads 0,1 -> 2,0; t1 reads 2 -> 1; t1's
  // inactive row-1 entry (-1) stays.
  const auto p = make_pattern({{0, 1}, {2}}, 3, 4);
  const auto q = apply_data_permutation(p, {2, 0, 1});
  EXPECT_EQ(q.index, (std::vector<std::int32_t>{2, 1, 0, -1}));
  EXPECT_THROW(apply_data_permutation(p, {0, 1}), Error);
  EXPECT_THROW(apply_data_permutation(p, {0, 1, 1}), Error);
}

TEST(PatternOps, InverseAndRoundTrip) {
  const ThreadPermutation perm = {3, 0, 2, 1};
  EXPECT_EQ(invert_permutation(perm), (ThreadPermutation{1, 3, 2, 0}));
  const DataPermutation dperm = {1, 2, 0};
  EXPECT_EQ(invert_permutation(dperm), (DataPermutation{2, 0, 1}));
  EXPECT_FALSE(is_permutation(std::vector<std::int64_t>{0, 2}));
  EXPECT_TRUE(is_permutation(std::vector<std::int32_t>{}));
  const auto p = make_pattern({{1, 2}, {0}, {2, 2}, {}}, 3, 8);
  const auto back =
      apply_thread_permutation(apply_thread_permutation(p, perm), invert_permutation(perm));
  EXPECT_EQ(back.index, p.index);
  EXPECT_EQ(back.len, p.len);
  const auto dback =
      apply_data_permutation(apply_data_permutation(p, dperm), invert_permutation(dperm));
  EXPECT_EQ(dback.index, p.index);
}

TEST(PatternOps, ValidateNamesTheProblem) {
  auto p = make_pattern({{0, 1}, {2}}, 3, 4);
  EXPECT_NO_THROW(validate_pattern(p));
  auto bad = p;
  bad.index[1] = 3;  // row 0, thread 1 -> outside data_count
  EXPECT_THROW(validate_pattern(bad), Error);
  bad = p;
  bad.len[1] = 3;  // longer than rows
  EXPECT_THROW(validate_pattern(bad), Error);
  bad = p;
  bad.index.pop_back();
  EXPECT_THROW(validate_pattern(bad), Error);
  bad = p;
  bad.index[3] = 99;  // row 1, thread 1: inactive, ignored
  EXPECT_NO_THROW(validate_pattern(bad));
}

TEST(PatternOps, LayoutConversionRoundTrip) {
  // t0 reads 4,5; t1 reads 6; t2 nothing. CSR: offset {0,2,3,3}, index {4,5,6}.
  const auto p = make_pattern({{4, 5}, {6}, {}}, 7, 16);
  const auto c = to_csr(p);
  EXPECT_TRUE(c.csr());
  EXPECT_EQ(c.offset, (std::vector<std::int64_t>{0, 2, 3, 3}));
  EXPECT_EQ(c.index, (std::vector<std::int32_t>{4, 5, 6}));
  EXPECT_EQ(c.rows, 2);
  EXPECT_EQ(c.references(), 3);
  EXPECT_EQ(c.pos(1, 0), 1u);
  EXPECT_EQ(c.at(0, 1), 6);
  const auto back = to_rows_by_threads(c);
  EXPECT_FALSE(back.csr());
  EXPECT_EQ(back.index, p.index);
  EXPECT_EQ(back.len, p.len);
  EXPECT_EQ(to_csr(c).index, c.index);  // already CSR: a copy
}

TEST(PatternOps, PermutationsInCsr) {
  // Same as ThreadPermutationMovesColumns / DataPermutationRenamesActiveEntries, in CSR.
  const auto p = make_csr_pattern({{4, 5}, {6}, {}}, 7, 16);
  const auto q = apply_thread_permutation(p, {2, 0, 1});
  EXPECT_EQ(q.len, (std::vector<std::int32_t>{0, 2, 1}));
  EXPECT_EQ(q.offset, (std::vector<std::int64_t>{0, 0, 2, 3}));
  EXPECT_EQ(q.index, (std::vector<std::int32_t>{4, 5, 6}));
  const auto d = make_csr_pattern({{0, 1}, {2}}, 3, 4);
  EXPECT_EQ(apply_data_permutation(d, {2, 0, 1}).index, (std::vector<std::int32_t>{2, 0, 1}));
}

TEST(PatternOps, ValidateCsr) {
  const auto p = make_csr_pattern({{0, 1}, {2}}, 3, 4);
  EXPECT_NO_THROW(validate_pattern(p));
  auto bad = p;
  bad.offset = {0, 1, 3};  // row 0 holds 1 entry but len says 2
  EXPECT_THROW(validate_pattern(bad), Error);
  bad = p;
  bad.offset = {0, 2, 4};  // ends past the index
  EXPECT_THROW(validate_pattern(bad), Error);
  bad = p;
  bad.index[2] = 3;  // outside data_count
  EXPECT_THROW(validate_pattern(bad), Error);
}

}  // namespace
}  // namespace mdremap::remap

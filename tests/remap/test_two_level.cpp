// Two-level irregular references A[B[C[t]]] (seed 000 §4.1, §4.2 Listings 2-3, §6.3.2): the
// host flatten into the one-level pattern, its transaction counts, malformed inputs, and the
// device two-level remap against a gather through the flattened pattern.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <random>
#include <string>
#include <vector>

#include "mdremap/error.hpp"
#include "mdremap/remap/pattern_ops.hpp"
#include "mdremap/remap/transactions.hpp"
#include "mdremap/remap/two_level.hpp"
#include "mdremap/remap/two_level_remap.hpp"

using namespace mdremap;
using namespace mdremap::remap;

namespace {

// SP-like hand example: 3 edges (threads), 3 variables (rows of B), 6 elements of A.
//   row 0 = inner[0..2) = {4, 1}; row 1 = inner[2..5) = {0, 3, 5}; row 2 = inner[5..6) = {2}
//   thread 0 -> row 2: {2}; thread 1 -> row 0: {4, 1}; thread 2 -> row 1: {0, 3, 5}
TwoLevelPattern hand_example() {
  TwoLevelPattern p;
  p.threads = 3;
  p.outer = {2, 0, 1};
  p.row_offset = {0, 2, 5, 6};
  p.inner = {4, 1, 0, 3, 5, 2};
  p.data_count = 6;
  p.elem_bytes = 16;
  return p;
}

template <class F>
void expect_error(const TwoLevelPattern& p, const F& f, const std::string& needle) {
  try {
    f(p);
    FAIL() << "expected mdremap::Error containing '" << needle << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

template <class V, class Vec>
V to_device(const char* name, const Vec& v) {
  V d(std::string(name), v.size());
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t k = 0; k < v.size(); ++k) h(k) = v[k];
  Kokkos::deep_copy(d, h);
  return d;
}

TwoLevelDeviceIndex to_device(const TwoLevelPattern& p) {
  return {to_device<Kokkos::View<std::int32_t*>>("outer", p.outer),
          to_device<Kokkos::View<std::int64_t*>>("row_offset", p.row_offset),
          to_device<Kokkos::View<std::int32_t*>>("inner", p.inner)};
}

using Elem = Kokkos::Array<double, 2>;  // 16-byte elements

Kokkos::View<const Elem*> make_data(std::int64_t n) {
  Kokkos::View<Elem*> d("A", n);
  auto h = Kokkos::create_mirror_view(d);
  for (std::int64_t e = 0; e < n; ++e) h(e) = Elem{{e * 0.5 + 1.0, -double(e)}};
  Kokkos::deep_copy(d, h);
  return d;
}

// A'[j*T+t] = A[flat.at(j, t)] for j < len[t], else trivial: the gather through the flattened
// pattern, on the host.
void expect_matches_flattened_gather(const TwoLevelPattern& p, const Elem& trivial) {
  const IrregularPattern flat = flatten(p);
  const auto data = make_data(p.data_count);
  const auto out = two_level_remap<Elem>(data, to_device(p), trivial);
  ASSERT_EQ(out.rows, flat.rows);
  ASSERT_EQ(out.threads, flat.threads);
  ASSERT_EQ(static_cast<std::int64_t>(out.dup.extent(0)), flat.rows * flat.threads);
  auto hd = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.dup);
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), data);
  auto hl = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.len);
  for (std::int64_t t = 0; t < flat.threads; ++t) {
    ASSERT_EQ(hl(t), flat.len[t]) << "t=" << t;
    for (int j = 0; j < flat.rows; ++j) {
      const Elem want = j < flat.len[t] ? ha(flat.at(j, t)) : trivial;
      const Elem got = hd(static_cast<std::size_t>(j) * flat.threads + t);
      ASSERT_EQ(got[0], want[0]) << "j=" << j << " t=" << t;
      ASSERT_EQ(got[1], want[1]) << "j=" << j << " t=" << t;
    }
  }
}

// A random CSR-like two-level pattern: nrows rows of 0..maxlen entries, T threads.
TwoLevelPattern random_two_level(std::int64_t T, std::int64_t nrows, int maxlen,
                                 std::int64_t data_count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  TwoLevelPattern p;
  p.threads = T;
  p.data_count = data_count;
  p.row_offset.push_back(0);
  for (std::int64_t r = 0; r < nrows; ++r)
    p.row_offset.push_back(p.row_offset.back() +
                           std::uniform_int_distribution<int>(0, maxlen)(rng));
  for (std::int64_t k = 0; k < p.row_offset.back(); ++k)
    p.inner.push_back(std::uniform_int_distribution<std::int32_t>(0, data_count - 1)(rng));
  for (std::int64_t t = 0; t < T; ++t)
    p.outer.push_back(std::uniform_int_distribution<std::int32_t>(0, nrows - 1)(rng));
  return p;
}

}  // namespace

// flatten() on the hand example equals the index written out by hand, in both layouts.
TEST(TwoLevel, FlattenHandExample) {
  const IrregularPattern f = flatten(hand_example(), HostLayout::rows_by_threads);
  EXPECT_EQ(f.threads, 3);
  EXPECT_EQ(f.rows, 3);
  EXPECT_EQ(f.data_count, 6);
  EXPECT_EQ(f.elem_bytes, 16);
  EXPECT_EQ(f.len, (std::vector<std::int32_t>{1, 2, 3}));
  EXPECT_FALSE(f.csr());
  // index[j*3+t]:        t=0  t=1  t=2
  const std::vector<std::int32_t> want = {2,  4,  0,   // j = 0
                                          -1, 1,  3,   // j = 1
                                          -1, -1, 5};  // j = 2
  EXPECT_EQ(f.index, want);
  EXPECT_NO_THROW(validate_pattern(f));
  // CSR (the default): thread 0 {2}, thread 1 {4, 1}, thread 2 {0, 3, 5}; no -1 padding.
  const IrregularPattern c = flatten(hand_example());
  EXPECT_TRUE(c.csr());
  EXPECT_EQ(c.rows, 3);
  EXPECT_EQ(c.len, (std::vector<std::int32_t>{1, 2, 3}));
  EXPECT_EQ(c.offset, (std::vector<std::int64_t>{0, 1, 3, 6}));
  EXPECT_EQ(c.index, (std::vector<std::int32_t>{2, 4, 1, 0, 3, 5}));
  EXPECT_NO_THROW(validate_pattern(c));
}

// One long row among short ones: CSR stores the references, not max len * threads.
TEST(TwoLevel, FlattenCsrStoresOnlyReferences) {
  TwoLevelPattern p;
  p.threads = 1000;
  p.data_count = 5000;
  p.row_offset = {0, 1, 5001};  // row 0: 1 entry, row 1: 5000 entries
  for (std::int32_t e = 0; e < 5001; ++e) p.inner.push_back(e % 5000);
  p.outer.assign(1000, 0);
  p.outer[7] = 1;  // one thread reads the long row
  const IrregularPattern c = flatten(p);
  EXPECT_EQ(c.rows, 5000);
  EXPECT_EQ(c.index.size(), 999u + 5000u);
  EXPECT_EQ(c.at(4998, 7), 4999);  // inner[1 + 4998]
  EXPECT_EQ(c.at(0, 8), 0);
  EXPECT_EQ(flatten(p, HostLayout::rows_by_threads).index.size(), 5000u * 1000u);
}

// Transactions of the flattened hand example, counted by hand (16-byte elements: 2 per 32-byte
// segment, 8 per 128-byte segment; all 6 elements lie in 128-byte segment 0).
TEST(TwoLevel, FlattenedTransactionsHandCount) {
  const IrregularPattern f = flatten(hand_example(), HostLayout::rows_by_threads);
  // The data counts do not depend on the layout.
  EXPECT_EQ(count_transactions(flatten(hand_example())).seg32, count_transactions(f).seg32);
  // Warp 32 (one warp). Row 0 reads {2,4,0}: 32-byte segments {1,2,0} = 3. Row 1 reads {1,3}:
  // segments {0,1} = 2. Row 2 reads {5}: segment {2} = 1. 128-byte: 1 per row.
  TransactionCount c = count_transactions(f, 32);
  EXPECT_EQ(c.loads, 3);
  EXPECT_EQ(c.seg32, 6);
  EXPECT_EQ(c.seg128, 3);
  // Warp 2: warps {t0,t1}, {t2}. Row 0: {2,4} -> 2 segs, {0} -> 1. Row 1: {1} -> 1, {3} -> 1.
  // Row 2: warp 0 has no active lane (no load), {5} -> 1. Loads 5, seg32 6, seg128 5.
  c = count_transactions(f, 2);
  EXPECT_EQ(c.loads, 5);
  EXPECT_EQ(c.seg32, 6);
  EXPECT_EQ(c.seg128, 5);
  // Duplicated (seed 000 eq. 2), warp 32: row j reads A' elements j*3+t of the active lanes.
  // Row 0: {0,1,2} = bytes [0,48) -> 32-byte segs {0,1} = 2; row 1: {4,5} = [64,96) -> {2} = 1;
  // row 2: {8} = [128,144) -> {4} = 1. 128-byte: {0}, {0}, {1} = 3.
  c = count_transactions_duplicated(f, 32);
  EXPECT_EQ(c.loads, 3);
  EXPECT_EQ(c.seg32, 4);
  EXPECT_EQ(c.seg128, 3);
}

// Empty threads and empty rows are fine.
TEST(TwoLevel, FlattenEdgeCases) {
  TwoLevelPattern p;
  p.row_offset = {0};
  IrregularPattern f = flatten(p);
  EXPECT_EQ(f.threads, 0);
  EXPECT_EQ(f.rows, 0);
  p = hand_example();
  p.row_offset = {0, 0, 0, 0};  // every row empty
  f = flatten(p);
  EXPECT_EQ(f.rows, 0);
  EXPECT_EQ(f.len, (std::vector<std::int32_t>{0, 0, 0}));
  EXPECT_TRUE(f.index.empty());
}

TEST(TwoLevel, MalformedInputsRejected) {
  const auto fl = [](const TwoLevelPattern& p) { flatten(p); };
  TwoLevelPattern p = hand_example();
  p.outer = {2, 0};
  expect_error(p, fl, "outer has 2 entries");
  p = hand_example();
  p.outer = {2, 3, 1};
  expect_error(p, fl, "outer[1] = 3 is outside [0, nrows = 3)");
  p = hand_example();
  p.outer = {-1, 0, 1};
  expect_error(p, fl, "outer[0] = -1");
  p = hand_example();
  p.row_offset = {};
  expect_error(p, fl, "row_offset is empty");
  p = hand_example();
  p.row_offset = {-1, 2, 5, 6};
  expect_error(p, fl, "row_offset[0] = -1 is negative");
  p = hand_example();
  p.row_offset = {0, 3, 2, 6};
  expect_error(p, fl, "row_offset decreases at row 1");
  p = hand_example();
  p.row_offset = {0, 2, 5, 7};
  expect_error(p, fl, "row_offset ends at 7 but inner has only 6 entries");
  p = hand_example();
  p.inner[3] = 6;
  expect_error(p, fl, "inner[3] = 6 is outside [0, data_count = 6)");
  p = hand_example();
  p.inner[0] = -2;
  expect_error(p, fl, "inner[0] = -2");
  p = hand_example();
  p.elem_bytes = 0;
  expect_error(p, fl, "elem_bytes > 0");
}

// The device two-level remap equals the gather through the flattened pattern: hand example
// (with a non-zero trivial value, so idle slots are visible) and random CSR-like patterns.
TEST(TwoLevel, DeviceRemapMatchesFlattenedGather) {
  expect_matches_flattened_gather(hand_example(), Elem{{-7.0, -9.0}});
  expect_matches_flattened_gather(random_two_level(1000, 300, 20, 5000, 42), Elem{{0.0, 0.0}});
  expect_matches_flattened_gather(random_two_level(33, 5, 40, 17, 7), Elem{{-1.0, 1.0}});
}

// The hand example's A' element by element (A[e] = (e/2 + 1, -e), trivial = (-7, -9)).
TEST(TwoLevel, DeviceRemapHandExample) {
  const Elem z{{-7.0, -9.0}};
  const auto out = two_level_remap<Elem>(make_data(6), to_device(hand_example()), z);
  EXPECT_EQ(out.rows, 3);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.dup);
  auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.start);
  EXPECT_EQ(hs(0), 5);  // new_row_off: row_offset[outer[t]]
  EXPECT_EQ(hs(1), 0);
  EXPECT_EQ(hs(2), 2);
  const std::vector<double> want0 = {2, 3, 1, -7, 1.5, 2.5, -7, -7, 3.5};  // A[e][0] = e/2 + 1
  ASSERT_EQ(h.extent(0), want0.size());
  for (std::size_t k = 0; k < want0.size(); ++k) EXPECT_EQ(h(k)[0], want0[k]) << "k=" << k;
}

// Reusing the output (same shape) and a different data type (float).
TEST(TwoLevel, DeviceRemapReuseAndScalarType) {
  const TwoLevelPattern p = hand_example();
  const TwoLevelDeviceIndex ix = to_device(p);
  Kokkos::View<float*> a("A", 6);
  Kokkos::deep_copy(a, 1.0f);
  TwoLevelDuplicate<float> out;
  two_level_remap<float>(out, a, ix);
  const float* first = out.dup.data();
  Kokkos::deep_copy(a, 2.0f);
  two_level_remap<float>(out, a, ix);
  EXPECT_EQ(out.dup.data(), first);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.dup);
  const std::vector<float> want = {2, 2, 2, 0, 2, 2, 0, 0, 2};
  for (std::size_t k = 0; k < want.size(); ++k) EXPECT_EQ(h(k), want[k]) << "k=" << k;
}

// Malformed device index arrays are refused with a clear message, not read out of bounds.
TEST(TwoLevel, DeviceRemapMalformedRejected) {
  const auto data = make_data(6);
  const auto dev = [&](const TwoLevelPattern& p) { two_level_remap<Elem>(data, to_device(p)); };
  TwoLevelPattern p = hand_example();
  p.outer = {2, 3, 1};
  expect_error(p, dev, "1 threads have outer outside [0, nrows)");
  p = hand_example();
  p.row_offset = {0, 3, 2, 6};  // thread 2 reads row 1 = [3, 2)
  expect_error(p, dev, "row_offset range");
  p = hand_example();
  p.row_offset = {0, 2, 5, 7};  // thread 0 reads row 2 = [5, 7), past inner
  expect_error(p, dev, "leaves inner");
  p = hand_example();
  p.inner[3] = 6;
  expect_error(p, dev, "1 referenced inner entries are outside [0, data_count = 6)");
  p = hand_example();
  p.row_offset = {};
  expect_error(p, dev, "row_offset is empty");
}

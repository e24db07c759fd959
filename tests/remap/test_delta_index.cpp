// The gather's 16-bit index (remap.index_bits 16, delta_index.hpp): every reference decodes to
// the 32-bit index's, in order, whatever the differences (escapes at +-32768 and beyond, jumps
// back, empty and odd rows, row-major strides); the escapes are the differences int16 cannot
// hold, counted here on the host; the gather through it gives the 32-bit gather's sums bit for
// bit; patterns and kernels it cannot serve are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "mdremap/remap/delta_index.hpp"
#include "mdremap/remap/gather_reduce.hpp"
#include "mdremap/remap/gather_strategy.hpp"
#include "remap_test_util.hpp"

using namespace mdremap;
using namespace mdremap::remap;
using mdremap::remap::testing::make_pattern;

namespace {

using Rows = std::vector<std::vector<std::int32_t>>;

// The pattern on the device, column-major (stride_j = threads) or row-major (stride_t = rows).
struct DevicePattern {
  PatternView pv;
  explicit DevicePattern(const Rows& rows, bool row_major = false) {
    const std::int64_t n = static_cast<std::int64_t>(rows.size());
    int r = 0;
    for (const auto& row : rows) r = std::max(r, static_cast<int>(row.size()));
    Kokkos::View<int*> idx("idx", std::max<std::int64_t>(std::int64_t(r) * n, 1)), len("len", n);
    auto hi = Kokkos::create_mirror_view(idx);
    auto hl = Kokkos::create_mirror_view(len);
    const std::int64_t sj = row_major ? 1 : n, st = row_major ? r : 1;
    for (std::int64_t t = 0; t < n; ++t) {
      hl(t) = static_cast<int>(rows[t].size());
      for (std::size_t k = 0; k < rows[t].size(); ++k)
        hi(std::int64_t(k) * sj + t * st) = rows[t][k];
    }
    Kokkos::deep_copy(idx, hi);
    Kokkos::deep_copy(len, hl);
    pv.index = idx;
    pv.len = len;
    pv.threads = n;
    pv.rows = r;
    pv.stride_j = sj;
    pv.stride_t = st;
  }
};

// What the accessor walks: out[k * threads + t] = the index reference k of thread t decodes to
// (the data are A[e] = e).
Rows decode(const DeltaIndex& d, const PatternView& pv, std::int64_t data_count) {
  Kokkos::View<int*> a("A", data_count);
  Kokkos::parallel_for(
      "a", data_count, KOKKOS_LAMBDA(const std::int64_t e) { a(e) = static_cast<int>(e); });
  const auto acc = DeltaGatherAccess<int, GatherPath::ReadOnly>::of(d, pv, a);
  const std::int64_t n = pv.threads;
  Kokkos::View<int*> out("out", std::max<std::int64_t>(std::int64_t(pv.rows) * n, 1));
  Kokkos::parallel_for(
      "decode", n, KOKKOS_LAMBDA(const std::int64_t t) {
        int k = 0;
        acc.for_each(t, [&](const int e) { out(std::int64_t(k++) * n + t) = e; });
      });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  auto hl = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pv.len);
  Rows rows(n);
  for (std::int64_t t = 0; t < n; ++t)
    for (int k = 0; k < hl(t); ++k) rows[t].push_back(h(std::int64_t(k) * n + t));
  return rows;
}

// Differences int16 cannot hold (the escape code itself, -32768, included), from the thread's
// own index for the first reference.
std::int64_t host_escapes(const Rows& rows) {
  std::int64_t e = 0;
  for (std::size_t t = 0; t < rows.size(); ++t) {
    std::int64_t prev = static_cast<std::int64_t>(t);
    for (const std::int32_t j : rows[t]) {
      const std::int64_t d = j - prev;
      if (d < -32767 || d > 32767) ++e;
      prev = j;
    }
  }
  return e;
}

void expect_round_trip(const Rows& rows, std::int64_t data_count, bool row_major = false) {
  const DevicePattern p(rows, row_major);
  DeltaIndex d;
  encode_delta16(p.pv, d);
  EXPECT_EQ(decode(d, p.pv, data_count), rows);
  EXPECT_EQ(d.escapes, host_escapes(rows));
  std::int64_t refs = 0;
  for (const auto& r : rows) refs += static_cast<std::int64_t>(r.size());
  EXPECT_EQ(d.references, refs);
}

}  // namespace

TEST(DeltaIndex, NearReferencesNeedNoEscapes) {
  // Each thread's references near its own index, in ascending and descending runs.
  std::mt19937 rng(3);
  const int n = 5000;
  Rows rows(n);
  for (int t = 0; t < n; ++t) {
    const int cnt = static_cast<int>(rng() % 40);
    for (int k = 0; k < cnt; ++k)
      rows[t].push_back(std::clamp(t + static_cast<int>(rng() % 2001) - 1000, 0, n - 1));
  }
  expect_round_trip(rows, n);
  EXPECT_EQ(host_escapes(rows), 0);
}

TEST(DeltaIndex, DifferencesAtAndBeyondTheInt16Limits) {
  const int n = 200000;
  Rows rows(4);
  // Thread 0: +32767 (a code), +32768 (escape), -32767 (code), -32768 (escape: the escape code's
  // own value), 0 (a repeat), the largest index, back to 0.
  rows[0] = {32767, 65535, 32768, 0, 0, n - 1, 0};
  rows[1] = {};                      // empty row
  rows[2] = {2};                     // one reference equal to the thread itself
  rows[3] = {150000, 150001, 3, 4};  // first reference far from the thread
  expect_round_trip(rows, n);
  EXPECT_EQ(host_escapes(rows), 2 + 2 + 0 + 2);
}

TEST(DeltaIndex, RandomReferencesEscapeAndLongRows) {
  // Uniform over 10M elements: nearly every difference escapes; one row far longer than the
  // others (the far table's rows follow the worst thread); odd and even lengths.
  std::mt19937 rng(11);
  const int n = 3000, m = 10000000;
  Rows rows(n);
  for (int t = 0; t < n; ++t) {
    const int cnt = t == 17 ? 1001 : static_cast<int>(rng() % 9);
    for (int k = 0; k < cnt; ++k) rows[t].push_back(static_cast<int>(rng() % m));
  }
  expect_round_trip(rows, m);
  EXPECT_GT(host_escapes(rows), 900);
}

TEST(DeltaIndex, RowMajorPatternAndReencodeIntoLargerRows) {
  std::mt19937 rng(5);
  Rows rows(700);
  for (std::size_t t = 0; t < rows.size(); ++t)
    for (int k = 0; k < static_cast<int>(t % 13); ++k)
      rows[t].push_back(static_cast<int>((t * 37 + rng() % 100000) % 100000));
  expect_round_trip(rows, 100000, /*row_major=*/true);
  // One DeltaIndex re-encoded (a list rebuilt): first small rows, then rows that need more
  // words and more far rows; the arrays grow and the second decode is exact.
  DeltaIndex d;
  Rows small(700, std::vector<std::int32_t>{1, 2});
  const DevicePattern p1(small);
  encode_delta16(p1.pv, d);
  EXPECT_EQ(decode(d, p1.pv, 100000), small);
  const DevicePattern p2(rows);
  encode_delta16(p2.pv, d);
  EXPECT_EQ(decode(d, p2.pv, 100000), rows);
  EXPECT_EQ(d.escapes, host_escapes(rows));
}

TEST(DeltaIndex, OffsetsPatternsRefused) {
  PatternView pv;
  pv.layout = PatternLayout::Offsets;
  DeltaIndex d;
  EXPECT_THROW(encode_delta16(pv, d), std::invalid_argument);
}

namespace {

using Elem = Kokkos::Array<double, 2>;

// A body that sums each thread's elements' first component in reference order (through the
// 16-bit index's for_each, else by position): the sums are bit-identical only if the order is.
struct InOrderSum {
  static constexpr int kReferencePatterns = 1;
  static constexpr bool kWalksRowsInOrder = true;
  Kokkos::View<double*> out;
  template <bool EV, class Access>
  KOKKOS_INLINE_FUNCTION void thread(const std::int64_t t, const Access& a, Sums2& s) const {
    double sum = 0;
    if constexpr (IsDeltaGather<Access>::value) {
      a.for_each(t, [&](const Elem& e) { sum += e[0] * (1.0 + 1e-3 * sum); });
    } else {
      for (int j = 0; j < a.count(t); ++j) sum += a(j, t)[0] * (1.0 + 1e-3 * sum);
    }
    out(t) = sum;
    if constexpr (EV) s.s0 += sum;
  }
};

struct First {
  KOKKOS_INLINE_FUNCTION double operator()(const Elem& e) const { return e[0]; }
};

Kokkos::View<Elem*> make_data(const int m) {
  Kokkos::View<Elem*> data("A", m);
  Kokkos::parallel_for(
      "fill", m, KOKKOS_LAMBDA(const int e) {
        data(e) = Elem{{1.0 / (e + 1.0), -double(e)}};
      });
  return data;
}

std::vector<double> run_gather(int bits, const PatternView& pv, Kokkos::View<Elem*> data,
                               RemapReport* rep = nullptr) {
  RemapOptions o;
  o.index_bits = bits;
  GatherStrategy<Elem> g(o);
  g.plan(pv, nullptr);
  g.set_data(data, false);
  Kokkos::View<double*> out("out", pv.threads);
  Sums2 sums;
  g.execute(InOrderSum{out}, true, sums);
  Kokkos::fence();
  if (rep) *rep = g.report();
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  return std::vector<double>(h.data(), h.data() + h.extent(0));
}

}  // namespace

TEST(DeltaIndex, GatherThroughItEqualsTheGatherBitForBit) {
  std::mt19937 rng(7);
  const int n = 20000, m = 120000;
  Rows rows(n);
  for (int t = 0; t < n; ++t) {
    const int cnt = static_cast<int>(rng() % 70);
    for (int k = 0; k < cnt; ++k)
      rows[t].push_back(rng() % 8 == 0 ? static_cast<int>(rng() % m)  // some escapes
                                       : std::min(m - 1, t + static_cast<int>(rng() % 300)));
  }
  const DevicePattern p(rows);
  const Kokkos::View<Elem*> data = make_data(m);
  RemapReport rep;
  const std::vector<double> a = run_gather(32, p.pv, data);
  const std::vector<double> b = run_gather(16, p.pv, data, &rep);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t t = 0; t < a.size(); ++t) ASSERT_EQ(a[t], b[t]) << "thread " << t;
  EXPECT_EQ(rep.strategy, "gather(index16)");
  EXPECT_EQ(rep.index_escapes, host_escapes(rows));
  EXPECT_GT(rep.index_escapes, 0);
  EXPECT_GT(rep.extra_bytes, 0);
}

TEST(DeltaIndex, KernelsThatReadByPositionRefused) {
  Rows rows(64, std::vector<std::int32_t>{1, 2, 3});
  const DevicePattern p(rows);
  Kokkos::View<Elem*> data("A", 64);
  RemapOptions o;
  o.index_bits = 16;
  GatherStrategy<Elem> g(o);
  g.plan(p.pv, nullptr);
  g.set_data(data, false);
  Kokkos::View<double*> out("out", 64);
  Sums2 sums;
  EXPECT_THROW(g.execute(GatherReduceBody<Elem, First>{out, First{}}, false, sums), mdremap::Error);
  o.index_bits = 12;
  EXPECT_THROW(GatherStrategy<Elem>{o}, mdremap::Error);
}

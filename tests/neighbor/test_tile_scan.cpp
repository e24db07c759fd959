// TileScan (include/neighbor/tile_scan.hpp): the prefix sums of its counters against a serial
// count, at sizes around its tile and across many tiles, on every compiled space. (The checks are
// free functions: a GPU lambda may not live in a test's private TestBody.)
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "neighbor/tile_scan.hpp"
#include "neighbor/neighbor_test_spaces.hpp"

using namespace mdremap;
using test::on_host;

template <class Space>
class TileScanTest : public ::testing::Test {};
TYPED_TEST_SUITE(TileScanTest, test::NeighborSpaces, test::SpaceName);

namespace {
// Past 255 tiles a GPU thread of the offsets' team sums several tiles (600,001 and 4M + 3).
const std::vector<std::int64_t> kSizes = {
    1, 2, 255, 2047, 2048, 2049, 4096, 70001, 300000, 600001, (std::int64_t(1) << 22) + 3};
}  // namespace

// Five kinds (a migration's destinations): each entry's slot among the entries of its kind before
// it, and the totals per kind. Kinds drawn unevenly so some tiles lack some kinds.
template <class TypeParam>
void check_kinds() {
  using Scan = TileScan<5, TypeParam>;
  Scan scan;  // one object over every size: its scratch grows and is reused
  std::mt19937_64 gen(3);
  for (const std::int64_t n : kSizes) {
    std::vector<unsigned char> kinds(n);
    std::discrete_distribution<int> pick({80, 5, 5, 1, 9});
    for (auto& k : kinds) k = static_cast<unsigned char>(pick(gen));
    // Whole tiles of the last kind (its field the top one, full to 2,048): no carry between fields.
    for (std::int64_t i = 2048; i < n && i < 3 * 2048; ++i) kinds[i] = 4;
    Kokkos::View<unsigned char*, TypeParam> kind("kind", n);
    Kokkos::View<int*, TypeParam> slot("slot", n);
    auto hk = Kokkos::create_mirror_view(kind);
    for (std::int64_t i = 0; i < n; ++i) hk(i) = kinds[i];
    Kokkos::deep_copy(kind, hk);
    const auto total = scan.run(
        "test_tile_scan_kinds", n,
        KOKKOS_LAMBDA(const std::int64_t i) { return Scan::one(kind(i)); },
        KOKKOS_LAMBDA(const std::int64_t i, const typename Scan::Counts& before,
                      const typename Scan::Counts&) { slot(i) = int(before.at(kind(i))); });
    auto hs = on_host(slot);
    std::int64_t seen[5] = {0, 0, 0, 0, 0};
    for (std::int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(hs(i), seen[kinds[i]]) << "n " << n << " entry " << i;
      ++seen[kinds[i]];
    }
    for (int k = 0; k < 5; ++k) EXPECT_EQ(total.n[k], seen[k]) << "n " << n << " kind " << k;
  }
}

// Two counters that one entry may both add to (a ghost shell on either face), and the totals
// handed to every write: an index list per counter, the second after the first.
template <class TypeParam>
void check_two_counters() {
  using Scan = TileScan<2, TypeParam>;
  Scan scan;
  std::mt19937_64 gen(5);
  for (std::size_t size = 0; size < kSizes.size(); ++size) {
    const std::int64_t n = kSizes[size];
    std::uniform_int_distribution<int> bits(0, 3);
    std::vector<unsigned char> marks(n);
    for (auto& m : marks) m = static_cast<unsigned char>(bits(gen));
    // Whole tiles in both shells (both fields full to 2,048).
    for (std::int64_t i = 2048; i < n && i < 3 * 2048; ++i) marks[i] = 3;
    Kokkos::View<unsigned char*, TypeParam> mark("mark", n);
    Kokkos::View<std::int64_t*, TypeParam> list("list", 2 * n);
    auto hm = Kokkos::create_mirror_view(mark);
    for (std::int64_t i = 0; i < n; ++i) hm(i) = marks[i];
    Kokkos::deep_copy(mark, hm);
    const auto inc = KOKKOS_LAMBDA(const std::int64_t i) {
      const unsigned m = mark(i);
      return (m & 1u) * Scan::one(0) + (m >> 1) * Scan::one(1);
    };
    const auto write = KOKKOS_LAMBDA(const std::int64_t i, const typename Scan::Counts& before,
                                     const typename Scan::Counts& all) {
      const unsigned m = mark(i);
      if (m & 1u) list(before.n[0]) = i;
      if (m & 2u) list(all.n[0] + before.n[1]) = i;
    };
    // Every second size through launch (no totals on the host; the writes still get them).
    const bool waits = size % 2 == 0;
    typename Scan::Counts total;
    if (waits)
      total = scan.run("test_tile_scan_bits", n, inc, write);
    else
      scan.launch("test_tile_scan_bits", n, inc, write);
    std::vector<std::int64_t> want;
    for (int bit = 0; bit < 2; ++bit)
      for (std::int64_t i = 0; i < n; ++i)
        if (marks[i] >> bit & 1) want.push_back(i);
    auto hl = on_host(list);
    if (waits)
      ASSERT_EQ(total.n[0] + total.n[1], static_cast<std::int64_t>(want.size())) << "n " << n;
    for (std::size_t k = 0; k < want.size(); ++k) ASSERT_EQ(hl(k), want[k]) << "n " << n;
  }
}

// One counter of 64 bits taking counts, not 0/1 (offsets from per-entry counts, as the ghosts'),
// including counts whose sum over a tile passes 2^32.
template <class TypeParam>
void check_large_counts() {
  using Scan = TileScan<1, TypeParam>;
  Scan scan;
  std::mt19937_64 gen(7);
  for (const std::int64_t n : kSizes) {
    std::uniform_int_distribution<std::int64_t> c(0, n % 2 ? 26 : (std::int64_t(1) << 22));
    std::vector<std::int64_t> counts(n);
    for (auto& v : counts) v = c(gen);
    Kokkos::View<std::int64_t*, TypeParam> count("count", n), offset("offset", n);
    auto hc = Kokkos::create_mirror_view(count);
    for (std::int64_t i = 0; i < n; ++i) hc(i) = counts[i];
    Kokkos::deep_copy(count, hc);
    const auto total = scan.run(
        "test_tile_scan_counts", n,
        KOKKOS_LAMBDA(const std::int64_t i) { return static_cast<std::uint64_t>(count(i)); },
        KOKKOS_LAMBDA(const std::int64_t i, const typename Scan::Counts& before,
                      const typename Scan::Counts&) { offset(i) = before.n[0]; });
    auto ho = on_host(offset);
    std::int64_t sum = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(ho(i), sum) << "n " << n << " entry " << i;
      sum += counts[i];
    }
    EXPECT_EQ(total.n[0], sum);
  }
  EXPECT_EQ(
      scan.run(
              "test_tile_scan_empty", 0, KOKKOS_LAMBDA(std::int64_t) { return std::uint64_t(1); },
              KOKKOS_LAMBDA(std::int64_t, const typename Scan::Counts&,
                            const typename Scan::Counts&){})
          .n[0],
      0);
}

TYPED_TEST(TileScanTest, SlotsAmongTheirKindMatchASerialCount) {
  check_kinds<TypeParam>();
}
TYPED_TEST(TileScanTest, TwoCountersListTheirEntriesInOrder) {
  check_two_counters<TypeParam>();
}
TYPED_TEST(TileScanTest, OneCounterTakesLargeCounts) {
  check_large_counts<TypeParam>();
}

// Atom orders: permutations that bring atoms close in space to close indices.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "mdremap/error.hpp"
#include "neighbor/neighbor_test_spaces.hpp"
#include "neighbor/spatial_order.hpp"

using namespace mdremap;
using test::on_host;

template <class Space>
class SpatialSort : public ::testing::Test {};
TYPED_TEST_SUITE(SpatialSort, test::NeighborSpaces, test::SpaceName);

TYPED_TEST(SpatialSort, CurvesAndCellsArePermutationsThatImproveLocality) {
  const int n = 4000;
  std::mt19937_64 gen(5);
  std::uniform_real_distribution<double> u(0.0, 20.0);
  Kokkos::View<Vec4<double>*, TypeParam> x("x", n);
  auto hx = Kokkos::create_mirror_view(x);
  for (int i = 0; i < n; ++i) hx(i) = Vec4<double>{u(gen), u(gen), u(gen), 0};
  Kokkos::deep_copy(x, hx);
  const double lo[3] = {0, 0, 0}, L[3] = {20, 20, 20};
  const auto box = Box<double>::make(lo, L);
  auto mean_step = [&](auto perm) {
    double s = 0;
    for (int k = 1; k < n; ++k) {
      const auto a = hx(perm(k - 1)), b = hx(perm(k));
      s += std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) +
                     (a.z - b.z) * (a.z - b.z));
    }
    return s / (n - 1);
  };
  auto ident = [](int k) { return k; };
  const double random_step = mean_step(ident);
  using neighbor::AtomSort;
  for (const auto order : {AtomSort::Morton, AtomSort::Hilbert, AtomSort::Cells}) {
    auto perm = on_host(neighbor::spatial_order<double, TypeParam>(x, box, order, 2.8));
    std::vector<int> seen(n, 0);
    for (int k = 0; k < n; ++k) ++seen[perm(k)];
    for (int k = 0; k < n; ++k) ASSERT_EQ(seen[k], 1);
    // Cells of 2.8 (7^3 of them, about 12 atoms each) bound a step less tightly than a curve.
    const double bound = order == AtomSort::Cells ? 0.5 : 0.25;
    EXPECT_LT(mean_step([&](int k) { return perm(k); }), bound * random_step)
        << neighbor::to_string(order);
  }
}

// Cells order: atoms by cell (x fastest), the old order kept inside a cell.
TYPED_TEST(SpatialSort, CellsOrderIsCellMajorAndStableInsideACell) {
  const int n = 2000;
  std::mt19937_64 gen(9);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double lo[3] = {-2, 1, 0.5}, L[3] = {11, 13, 17};
  Kokkos::View<Vec4<double>*, TypeParam> x("x", n);
  auto hx = Kokkos::create_mirror_view(x);
  for (int i = 0; i < n; ++i)
    hx(i) = Vec4<double>{lo[0] + L[0] * u(gen), lo[1] + L[1] * u(gen), lo[2] + L[2] * u(gen), 0};
  Kokkos::deep_copy(x, hx);
  const auto box = Box<double>::make(lo, L);
  const double cell = 3.0;  // 3 x 4 x 5 cells
  auto perm =
      on_host(neighbor::spatial_order<double, TypeParam>(x, box, neighbor::AtomSort::Cells, cell));
  auto key = [&](int i) {
    const double c[3] = {hx(i).x, hx(i).y, hx(i).z};
    long k = 0;
    for (int d = 2; d >= 0; --d) {
      const int m = static_cast<int>(L[d] / cell);
      k = k * m + std::min(m - 1, static_cast<int>((c[d] - lo[d]) / (L[d] / m)));
    }
    return k;
  };
  for (int k = 1; k < n; ++k) {
    const long a = key(perm(k - 1)), b = key(perm(k));
    ASSERT_LE(a, b) << k;
    if (a == b) ASSERT_LT(perm(k - 1), perm(k)) << k;
  }
}

TYPED_TEST(SpatialSort, NoneAndAutoNameNoOrder) {
  Kokkos::View<Vec4<double>*, TypeParam> x("x", 4);
  const double lo[3] = {0, 0, 0}, L[3] = {10, 10, 10};
  const auto box = Box<double>::make(lo, L);
  for (const auto order : {neighbor::AtomSort::None, neighbor::AtomSort::Auto})
    EXPECT_THROW((neighbor::spatial_order<double, TypeParam>(x, box, order, 2.8)), Error);
}

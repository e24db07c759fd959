// Neighbour lists against an O(N^2) brute-force search on random boxes, small boxes included.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <type_traits>

#include "md/md_test_util.hpp"
#include "mdremap/error.hpp"
#include "neighbor/neighbor_list.hpp"

using namespace mdremap;

namespace {

struct Case {
  double L[3];
  int n;
  bool half;
  bool column_major = true;
  double bin_frac = 0.5;  // cell edge / list cutoff
};

template <class T>
void check_against_brute_force(const Case& c, std::uint64_t seed, int initial_maxneigh = 0) {
  const double rlist = 2.8;
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Kokkos::View<Vec4<T>*> x("x", c.n);
  auto hx = Kokkos::create_mirror_view(x);
  std::vector<double> px(3 * c.n);
  const double lo[3] = {-1.5, 0.25, 3.0};
  for (int i = 0; i < c.n; ++i) {
    for (int d = 0; d < 3; ++d) px[3 * i + d] = lo[d] + u(gen) * c.L[d];
    hx(i) = Vec4<T>{T(px[3 * i]), T(px[3 * i + 1]), T(px[3 * i + 2]), T(0)};
  }
  Kokkos::deep_copy(x, hx);
  const auto box = Box<T>::make(lo, c.L);
  neighbor::GhostAtoms g;
  neighbor::build_ghosts<T>(x, c.n, box, rlist, g);
  Kokkos::View<Vec4<T>*> xall("xall", c.n + g.nghost);
  neighbor::update_positions<T, T>(x, g, box, xall);
  neighbor::VerletListBuilder<T> builder(rlist, c.half, c.column_major, c.bin_frac * rlist);
  neighbor::NeighborList list;
  list.maxneigh = initial_maxneigh;
  builder.build(xall, g, box, list);
  if (initial_maxneigh > 0) EXPECT_GT(builder.regrows(), 0);

  auto nb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list.neighbors);
  auto cnt = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list.counts);
  auto owner = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.owner);
  // Pairs near the cutoff can go either way by rounding: left out of the comparison.
  const double eps = std::is_same_v<T, float> ? 1e-4 : 1e-9;
  auto dist = [&](int i, int j) {
    double r2 = 0;
    for (int d = 0; d < 3; ++d) {
      double dx = px[3 * i + d] - px[3 * j + d];
      dx -= c.L[d] * std::round(dx / c.L[d]);
      r2 += dx * dx;
    }
    return std::sqrt(r2);
  };
  std::set<std::pair<int, int>> listed;
  for (int i = 0; i < c.n; ++i)
    for (int k = 0; k < cnt(i); ++k) {
      int j = nb(list.slot(k, i));
      if (j >= c.n) j = owner(j - c.n);
      ASSERT_NE(i, j);
      const auto key =
          c.half ? std::make_pair(std::min(i, j), std::max(i, j)) : std::make_pair(i, j);
      ASSERT_TRUE(listed.insert(key).second) << "pair listed twice: " << i << " " << j;
      ASSERT_LT(dist(i, j), rlist + eps);
    }
  int missing = 0, expected = 0;
  for (int i = 0; i < c.n; ++i)
    for (int j = c.half ? i + 1 : 0; j < c.n; ++j) {
      if (i == j) continue;
      const double r = dist(i, j);
      if (r < rlist - eps) {
        ++expected;
        if (!listed.count({i, j})) ++missing;
      }
    }
  EXPECT_EQ(missing, 0);
  EXPECT_GT(expected, 0);
  // The CSR copy holds the same entries.
  list.build_csr();
  auto rp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list.row_ptr);
  auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list.col);
  for (int i = 0; i < c.n; ++i) {
    ASSERT_EQ(rp(i + 1) - rp(i), cnt(i));
    for (int k = 0; k < cnt(i); ++k) ASSERT_EQ(col(rp(i) + k), nb(list.slot(k, i)));
  }
}

const Case kCases[] = {
    {{5.61, 5.61, 5.61}, 120, false},  // just above 2*(rc+skin) = 5.6
    {{5.61, 5.61, 5.61}, 120, true},
    {{7.0, 8.5, 12.9}, 600, false},  // orthorhombic, 2-4 cells per axis
    {{7.0, 8.5, 12.9}, 600, true},
    {{17.0, 17.0, 17.0}, 3000, false},  // many cells
    {{17.0, 17.0, 17.0}, 3000, true},
    {{7.0, 8.5, 12.9}, 600, false, false},  // row-major layout
    {{7.0, 8.5, 12.9}, 600, true, false},
    {{17.0, 17.0, 17.0}, 3000, false, true, 1.0},  // full-cutoff cells (GPU default)
    {{17.0, 17.0, 17.0}, 3000, true, true, 1.0 / 3.0},
    {{5.61, 5.61, 5.61}, 120, false, true, 1.0},
};

}  // namespace

TEST(NeighborList, MatchesBruteForceDouble) {
  std::uint64_t seed = 1;
  for (const auto& c : kCases) check_against_brute_force<double>(c, seed++);
}

TEST(NeighborList, MatchesBruteForceFloat) {
  std::uint64_t seed = 100;
  for (const auto& c : kCases) check_against_brute_force<float>(c, seed++);
}

TEST(NeighborList, OverflowGrowsInsteadOfDropping) {
  check_against_brute_force<double>(kCases[4], 7, 3);
  check_against_brute_force<double>(kCases[5], 8, 3);
  check_against_brute_force<double>(kCases[7], 9, 3);
}

// The GPU's two list kernels (lanes on candidates, lanes on atoms) build the same lists entry for
// entry: same candidate order. Dense random boxes with cells over 32 atoms (several passes per
// cell), full and half, both layouts, and a list that has to grow.
template <class T>
void check_gpu_kernels_agree(double L, int n, bool half, bool column_major, int maxneigh0,
                             std::uint64_t seed) {
  const double rlist = 2.8;
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(0.0, L);
  Kokkos::View<Vec4<T>*> x("x", n);
  auto hx = Kokkos::create_mirror_view(x);
  for (int i = 0; i < n; ++i) hx(i) = Vec4<T>{T(u(gen)), T(u(gen)), T(u(gen)), T(0)};
  Kokkos::deep_copy(x, hx);
  const double lo[3] = {0, 0, 0}, len[3] = {L, L, L};
  const auto box = Box<T>::make(lo, len);
  neighbor::GhostAtoms g;
  neighbor::build_ghosts<T>(x, n, box, rlist, g);
  Kokkos::View<Vec4<T>*> xall("xall", n + g.nghost);
  neighbor::update_positions<T, T>(x, g, box, xall);
  auto build = [&](neighbor::GpuBuildKernel k) {
    neighbor::VerletListBuilder<T> b(rlist, half, column_major, rlist);
    b.set_gpu_kernel(k);
    neighbor::NeighborList list;
    list.maxneigh = maxneigh0;
    b.build(xall, g, box, list);
    EXPECT_EQ(b.last_gpu_kernel(), k);
    if (maxneigh0 > 0) EXPECT_GT(b.regrows(), 0);
    return list;
  };
  const auto a = build(neighbor::GpuBuildKernel::CellCandidates);
  const auto b = build(neighbor::GpuBuildKernel::CellAtoms);
  ASSERT_EQ(a.maxneigh, b.maxneigh);
  ASSERT_EQ(a.max_count, b.max_count);
  auto ca = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.counts);
  auto cb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.counts);
  auto na = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.neighbors);
  auto nb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.neighbors);
  std::int64_t entries = 0;
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(ca(i), cb(i)) << "atom " << i;
    for (int k = 0; k < ca(i); ++k) ASSERT_EQ(na(a.slot(k, i)), nb(b.slot(k, i))) << i << " " << k;
    entries += ca(i);
  }
  EXPECT_GT(entries, std::int64_t(n) * (half ? 20 : 40));
}

// GPU builds only: the host has one list kernel, so on a CPU build there is nothing to compare
// (compiled out rather than skipped, so a CPU run reports no skip).
#if defined(KOKKOS_ENABLE_CUDA)
TEST(NeighborList, GpuKernelsBuildTheSameLists) {
  static_assert(!std::is_same_v<ExecSpace, Kokkos::DefaultHostExecutionSpace>);
  // Density 1.6: cells of 2.8 hold about 35 atoms, so some cells need two passes of 32.
  for (bool half : {false, true})
    for (bool cm : {true, false}) {
      check_gpu_kernels_agree<float>(22.0, 17000, half, cm, 0, 11 + half + 2 * cm);
      check_gpu_kernels_agree<double>(22.0, 17000, half, cm, 0, 21 + half + 2 * cm);
    }
  check_gpu_kernels_agree<float>(22.0, 17000, false, true, 5, 31);
  check_gpu_kernels_agree<double>(16.9, 4000, true, true, 5, 32);
}
#endif

TEST(NeighborList, BoxBelowTwiceTheListCutoffIsRejected) {
  try {
    test::params("inputs/lj_bench.yaml", {"system.lattice.cells=[3, 3, 3]"});
    FAIL() << "a 5.04 box with cutoff+skin 2.8 was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cutoff larger than half the box"), std::string::npos)
        << e.what();
  }
}

TEST(SpatialSort, HilbertAndMortonArePermutationsThatImproveLocality) {
  const int n = 4000;
  std::mt19937_64 gen(5);
  std::uniform_real_distribution<double> u(0.0, 20.0);
  Kokkos::View<Vec4<double>*> x("x", n);
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
  for (const std::string curve : {"morton", "hilbert"}) {
    auto perm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                    neighbor::spatial_order<double>(x, box, curve));
    std::vector<int> seen(n, 0);
    for (int k = 0; k < n; ++k) ++seen[perm(k)];
    for (int k = 0; k < n; ++k) ASSERT_EQ(seen[k], 1);
    EXPECT_LT(mean_step([&](int k) { return perm(k); }), 0.25 * random_step) << curve;
  }
}

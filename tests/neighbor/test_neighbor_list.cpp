// Neighbour lists against an O(N^2) brute-force search on random boxes, small boxes included, and
// every build kernel compiled for a space against the others, entry for entry.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>
#include <type_traits>
#include <vector>

#include "neighbor/avx512.hpp"  // MDREMAP_HOST_AVX512: which host kernels exist
#include "mdremap/error.hpp"
#include "neighbor/neighbor_test_spaces.hpp"
#include "neighbor/verlet_builder.hpp"

using namespace mdremap;
using test::on_host;

namespace mdremap::neighbor {
void PrintTo(BuildKernel k, std::ostream* os) {
  *os << to_string(k);
}
}  // namespace mdremap::neighbor

namespace {

struct Case {
  double L[3];
  int n;
  bool half;
  bool column_major = true;
  double bin_frac = 0.5;  // cell edge / list cutoff
};

template <class T, class Space>
void check_against_brute_force(const Case& c, std::uint64_t seed, int initial_maxneigh = 0) {
  const double rlist = 2.8;
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Kokkos::View<Vec4<T>*, Space> x("x", c.n);
  auto hx = Kokkos::create_mirror_view(x);
  std::vector<double> px(3 * c.n);
  const double lo[3] = {-1.5, 0.25, 3.0};
  for (int i = 0; i < c.n; ++i) {
    for (int d = 0; d < 3; ++d) px[3 * i + d] = lo[d] + u(gen) * c.L[d];
    hx(i) = Vec4<T>{T(px[3 * i]), T(px[3 * i + 1]), T(px[3 * i + 2]), T(0)};
  }
  Kokkos::deep_copy(x, hx);
  const auto box = Box<T>::make(lo, c.L);
  neighbor::BasicGhostAtoms<Space> g;
  neighbor::build_ghosts<T, Space>(x, c.n, box, rlist, g);
  Kokkos::View<Vec4<T>*, Space> xall("xall", c.n + g.nghost);
  neighbor::update_positions<T, T, Space>(x, g, box, xall);
  neighbor::VerletListBuilder<T, Space> builder(rlist, c.half, c.column_major, c.bin_frac * rlist);
  neighbor::BasicNeighborList<Space> list;
  list.maxneigh = initial_maxneigh;
  builder.build(xall, g, box, list);
  if (initial_maxneigh > 0) EXPECT_GT(builder.regrows(), 0);

  auto nb = on_host(list.neighbors);
  auto cnt = on_host(list.counts);
  auto owner = on_host(g.owner);
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
  auto rp = on_host(list.row_ptr);
  auto col = on_host(list.col);
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

// The kernels each space must have: the GPU's two, the host's AVX-512 one where compiled in
// and the portable one.
template <class Space>
std::vector<neighbor::BuildKernel> expected_kernels() {
  using neighbor::BuildKernel;
  if constexpr (!neighbor::is_host_space_v<Space>) {
    return {BuildKernel::CellCandidates, BuildKernel::CellAtoms};
  } else {
#ifdef MDREMAP_HOST_AVX512
    return {BuildKernel::HostAvx512, BuildKernel::Portable};
#else
    return {BuildKernel::Portable};
#endif
  }
}

// The kernels the registry has for Space and this list shape (an Error names a missing one).
template <class T, class Space>
std::vector<neighbor::BuildKernel> compiled_kernels(bool half, bool column_major) {
  using neighbor::BuildKernel;
  std::vector<BuildKernel> found;
  for (auto k : {BuildKernel::CellCandidates, BuildKernel::CellAtoms, BuildKernel::HostAvx512,
                 BuildKernel::Portable}) {
    try {
      neighbor::pick_list_kernel<T, Space>(k, half, column_major);
      found.push_back(k);
    } catch (const Error&) {
    }
  }
  return found;
}

// Every kernel compiled for Space builds the same lists entry for entry (same candidate order),
// on a dense random box with cells over 32 atoms (several GPU passes per cell).
template <class T, class Space>
void check_kernels_agree(double L, int n, bool half, bool column_major, int maxneigh0,
                         std::uint64_t seed) {
  const auto kernels = compiled_kernels<T, Space>(half, column_major);
  ASSERT_EQ(kernels, expected_kernels<Space>());
  const double rlist = 2.8;
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(0.0, L);
  Kokkos::View<Vec4<T>*, Space> x("x", n);
  auto hx = Kokkos::create_mirror_view(x);
  for (int i = 0; i < n; ++i) hx(i) = Vec4<T>{T(u(gen)), T(u(gen)), T(u(gen)), T(0)};
  Kokkos::deep_copy(x, hx);
  const double lo[3] = {0, 0, 0}, len[3] = {L, L, L};
  const auto box = Box<T>::make(lo, len);
  neighbor::BasicGhostAtoms<Space> g;
  neighbor::build_ghosts<T, Space>(x, n, box, rlist, g);
  Kokkos::View<Vec4<T>*, Space> xall("xall", n + g.nghost);
  neighbor::update_positions<T, T, Space>(x, g, box, xall);
  auto build = [&](neighbor::BuildKernel k) {
    neighbor::VerletListBuilder<T, Space> b(rlist, half, column_major, rlist, k);
    EXPECT_EQ(b.kernel(), k);
    neighbor::BasicNeighborList<Space> list;
    list.maxneigh = maxneigh0;
    b.build(xall, g, box, list);
    EXPECT_EQ(b.last_kernel(), k);
    if (maxneigh0 > 0) EXPECT_GT(b.regrows(), 0);
    return list;
  };
  const auto a = build(kernels.front());
  auto ca = on_host(a.counts);
  auto na = on_host(a.neighbors);
  std::int64_t entries = 0;
  for (int i = 0; i < n; ++i) entries += ca(i);
  EXPECT_GT(entries, std::int64_t(n) * (half ? 20 : 40));
  for (size_t q = 1; q < kernels.size(); ++q) {
    const auto b = build(kernels[q]);
    ASSERT_EQ(a.maxneigh, b.maxneigh);
    ASSERT_EQ(a.max_count, b.max_count);
    auto cb = on_host(b.counts);
    auto nb = on_host(b.neighbors);
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(ca(i), cb(i)) << "atom " << i;
      for (int k = 0; k < ca(i); ++k)
        ASSERT_EQ(na(a.slot(k, i)), nb(b.slot(k, i))) << i << " " << k;
    }
  }
}

}  // namespace

template <class Space>
class NeighborList : public ::testing::Test {};
TYPED_TEST_SUITE(NeighborList, test::NeighborSpaces, test::SpaceName);

TYPED_TEST(NeighborList, MatchesBruteForceDouble) {
  std::uint64_t seed = 1;
  for (const auto& c : kCases) check_against_brute_force<double, TypeParam>(c, seed++);
}

TYPED_TEST(NeighborList, MatchesBruteForceFloat) {
  std::uint64_t seed = 100;
  for (const auto& c : kCases) check_against_brute_force<float, TypeParam>(c, seed++);
}

TYPED_TEST(NeighborList, OverflowGrowsInsteadOfDropping) {
  check_against_brute_force<double, TypeParam>(kCases[4], 7, 3);
  check_against_brute_force<double, TypeParam>(kCases[5], 8, 3);
  check_against_brute_force<double, TypeParam>(kCases[7], 9, 3);
}

// Density 1.6: cells of 2.8 hold about 35 atoms, so some GPU cells need two passes of 32. Full
// and half, both layouts, and lists that have to grow.
TYPED_TEST(NeighborList, EveryCompiledKernelBuildsTheSameLists) {
  for (bool half : {false, true})
    for (bool cm : {true, false}) {
      check_kernels_agree<float, TypeParam>(22.0, 17000, half, cm, 0, 11 + half + 2 * cm);
      check_kernels_agree<double, TypeParam>(22.0, 17000, half, cm, 0, 21 + half + 2 * cm);
    }
  check_kernels_agree<float, TypeParam>(22.0, 17000, false, true, 5, 31);
  check_kernels_agree<double, TypeParam>(16.9, 4000, true, true, 5, 32);
}

// A sub-box of a decomposed run: ghosts from other ranks (not images) binned where their
// coordinates put them, some of them exactly on the hi faces or a rounding inside (an fcc
// lattice plane on the face of the sub-box: 16M atoms on 2 GPUs). They are candidates, never
// rows (the GPU's candidate kernel wrote a row for them past the end of the list), and every
// kernel lists every local atom's neighbours, locals and ghosts, as a brute-force search does.
template <class T, class Space>
void check_ghosts_on_the_faces(std::uint64_t seed) {
  const double rlist = 2.8, lo[3] = {1.0, -2.0, 0.5}, len[3] = {9.0, 8.4, 11.3};
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> p;
  const int nlocal = 2200;
  for (int i = 0; i < nlocal; ++i)
    for (int d = 0; d < 3; ++d) p.push_back(lo[d] + u(gen) * len[d]);
  // Ghosts: in the shell beyond a face, on a face, and a rounding inside one.
  int nghost = 0;
  for (int k = 0; k < 1800; ++k, ++nghost) {
    const int face = k % 6, d = face / 2;
    for (int e = 0; e < 3; ++e) {
      if (e != d) {
        p.push_back(lo[e] - rlist + u(gen) * (len[e] + 2 * rlist));
        continue;
      }
      const double hi = lo[d] + len[d];
      double c = face % 2 ? hi + u(gen) * rlist : lo[d] - u(gen) * rlist;
      if (k % 5 == 0) c = face % 2 ? hi : std::nextafter(lo[d], -1e9);
      if (k % 7 == 0 && face % 2) c = std::nextafter(hi, -1e9);
      p.push_back(c);
    }
  }
  const int ntotal = nlocal + nghost;
  Kokkos::View<Vec4<T>*, Space> xall("xall", ntotal);
  auto hx = Kokkos::create_mirror_view(xall);
  for (int i = 0; i < ntotal; ++i)
    hx(i) = Vec4<T>{T(p[3 * i]), T(p[3 * i + 1]), T(p[3 * i + 2]), T(0)};
  Kokkos::deep_copy(xall, hx);
  const auto box = Box<T>::make(lo, len);
  neighbor::BasicGhostAtoms<Space> g;
  g.nlocal = nlocal;
  g.nghost = nghost;
  g.images = false;
  const double eps = std::is_same_v<T, float> ? 1e-4 : 1e-9;
  auto dist = [&](int i, int j) {
    double r2 = 0;
    for (int d = 0; d < 3; ++d) r2 += (p[3 * i + d] - p[3 * j + d]) * (p[3 * i + d] - p[3 * j + d]);
    return std::sqrt(r2);
  };
  for (auto k : compiled_kernels<T, Space>(false, true)) {
    neighbor::VerletListBuilder<T, Space> b(rlist, false, true, 0.5 * rlist, k);
    neighbor::BasicNeighborList<Space> list;
    b.build(xall, g, box, list);
    ASSERT_EQ(list.counts.extent(0), static_cast<size_t>(nlocal));
    auto cnt = on_host(list.counts);
    auto nb = on_host(list.neighbors);
    int missing = 0;
    for (int i = 0; i < nlocal; ++i) {
      std::set<int> listed;
      for (int q = 0; q < cnt(i); ++q) {
        const int j = nb(list.slot(q, i));
        ASSERT_TRUE(j >= 0 && j < ntotal && j != i)
            << neighbor::to_string(k) << " " << i << " " << j;
        ASSERT_TRUE(listed.insert(j).second);
        ASSERT_LT(dist(i, j), rlist + eps);
      }
      for (int j = 0; j < ntotal; ++j)
        if (j != i && dist(i, j) < rlist - eps && !listed.count(j)) ++missing;
    }
    EXPECT_EQ(missing, 0) << neighbor::to_string(k);
  }
}

TYPED_TEST(NeighborList, GhostsOfOtherRanksOnTheFacesAreCandidatesNotRows) {
  check_ghosts_on_the_faces<double, TypeParam>(41);
  check_ghosts_on_the_faces<float, TypeParam>(42);
}

// A builder kept over builds (as a run keeps it) lists what a fresh one lists: after the atoms
// clump (cells with about 8x the candidates: the GPU kernel's shared memory, sized from the last
// build's count, is short, so it builds again with the count it found) and after they spread
// out again.
template <class T, class Space>
void check_kept_builder(std::uint64_t seed) {
  const double rlist = 2.8, L = 17.0;
  const int n = 3000;
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Vec4<T>> spread(n), clumped(n);
  for (int i = 0; i < n; ++i) {
    spread[i] = Vec4<T>{T(L * u(gen)), T(L * u(gen)), T(L * u(gen)), T(0)};
    clumped[i] = i % 10 == 0
                     ? Vec4<T>{T(6 + 4 * u(gen)), T(6 + 4 * u(gen)), T(6 + 4 * u(gen)), T(0)}
                     : spread[i];
  }
  const double lo[3] = {0, 0, 0}, len[3] = {L, L, L};
  const auto box = Box<T>::make(lo, len);
  neighbor::VerletListBuilder<T, Space> kept(rlist, false, true, 0.5 * rlist);
  neighbor::BasicNeighborList<Space> kept_list;
  int builds = 0;
  for (const auto* pos : {&spread, &clumped, &spread}) {
    Kokkos::View<Vec4<T>*, Space> x("x", n);
    auto hx = Kokkos::create_mirror_view(x);
    for (int i = 0; i < n; ++i) hx(i) = (*pos)[i];
    Kokkos::deep_copy(x, hx);
    neighbor::BasicGhostAtoms<Space> g;
    neighbor::build_ghosts<T, Space>(x, n, box, rlist, g);
    Kokkos::View<Vec4<T>*, Space> xall("xall", n + g.nghost);
    neighbor::update_positions<T, T, Space>(x, g, box, xall);
    kept.build(xall, g, box, kept_list);
    neighbor::VerletListBuilder<T, Space> fresh(rlist, false, true, 0.5 * rlist);
    neighbor::BasicNeighborList<Space> fresh_list;
    fresh.build(xall, g, box, fresh_list);
    EXPECT_EQ(kept.last_kernel(), fresh.last_kernel());
    EXPECT_EQ(fresh.candidate_rebuilds(), 0);
    ASSERT_EQ(kept_list.max_count, fresh_list.max_count) << "build " << builds;
    auto ck = on_host(kept_list.counts);
    auto cf = on_host(fresh_list.counts);
    auto nk = on_host(kept_list.neighbors);
    auto nf = on_host(fresh_list.neighbors);
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(ck(i), cf(i)) << "build " << builds << " atom " << i;
      for (int k = 0; k < ck(i); ++k)
        ASSERT_EQ(nk(kept_list.slot(k, i)), nf(fresh_list.slot(k, i))) << i << " " << k;
    }
    ++builds;
    // The clumped build needed more candidates than the first build's count and its margin.
    const bool counts_candidates = fresh.last_kernel() == neighbor::BuildKernel::CellCandidates;
    EXPECT_EQ(kept.candidate_rebuilds(), counts_candidates && builds >= 2 ? 1 : 0)
        << "build " << builds;
  }
  if constexpr (!neighbor::is_host_space_v<Space>)
    EXPECT_EQ(kept.last_kernel(), neighbor::BuildKernel::CellCandidates);
}

TYPED_TEST(NeighborList, KeptBuilderListsWhatAFreshOneLists) {
  check_kept_builder<double, TypeParam>(51);
  check_kept_builder<float, TypeParam>(52);
}

TYPED_TEST(NeighborList, KernelNotCompiledForTheSpaceIsAnError) {
  using neighbor::BuildKernel;
  const auto want =
      neighbor::is_host_space_v<TypeParam> ? BuildKernel::CellAtoms : BuildKernel::Portable;
  try {
    neighbor::VerletListBuilder<double, TypeParam> b(2.8, false, true, 2.8, want);
    FAIL() << "a " << neighbor::to_string(want) << " kernel was set up on " << TypeParam::name();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(neighbor::to_string(want)), std::string::npos) << e.what();
  }
}

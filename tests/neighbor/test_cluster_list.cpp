// Cluster-pair lists (neighbor/cluster_list.hpp) against an O(N^2) brute-force search: every
// atom in exactly one cluster (local atoms in the i-clusters, ghosts in the others), every pair
// within the list cutoff selected by exactly one mask bit, no pair beyond it, no atom with
// itself; for every cluster size, both precisions, boxes near the 2 x (cutoff + skin) limit.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <type_traits>
#include <vector>

#include "mdremap/error.hpp"
#include "neighbor/cluster_builder.hpp"
#include "neighbor/neighbor_test_spaces.hpp"

using namespace mdremap;
using test::on_host;

namespace {

struct Case {
  double L[3];
  int n;
  int m;  // cluster size
};

template <class T, class Space>
void check_clusters(const Case& c, std::uint64_t seed, int initial_max_pairs = 0) {
  const double rlist = 2.8;
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Kokkos::View<Vec4<T>*, Space> x("x", c.n);
  auto hx = Kokkos::create_mirror_view(x);
  std::vector<double> px(3 * c.n);
  const double lo[3] = {-1.5, 0.25, 3.0};
  for (int i = 0; i < c.n; ++i) {
    for (int d = 0; d < 3; ++d) px[3 * i + d] = lo[d] + u(gen) * c.L[d];
    hx(i) = Vec4<T>{T(px[3 * i]), T(px[3 * i + 1]), T(px[3 * i + 2]), T(i % 2)};
  }
  Kokkos::deep_copy(x, hx);
  const auto box = Box<T>::make(lo, c.L);
  neighbor::BasicGhostAtoms<Space> g;
  neighbor::build_ghosts<T, Space>(x, c.n, box, rlist, g);
  Kokkos::View<Vec4<T>*, Space> xall("xall", c.n + g.nghost);
  neighbor::update_positions<T, T, Space>(x, g, box, xall);
  neighbor::ClusterListBuilder<T, Space> builder(rlist, c.m);
  ASSERT_EQ(builder.cluster_size(), c.m);
  neighbor::BasicClusterList<Space> list;
  list.max_pairs = initial_max_pairs;
  builder.build(xall, g, box, list);
  if (initial_max_pairs > 0) EXPECT_GT(builder.regrows(), 0);
  ASSERT_EQ(list.m, c.m);
  ASSERT_EQ(list.words, neighbor::cluster_mask_words(c.m));

  const int M = c.m, n_ic = list.n_iclusters;
  const std::int64_t ntotal = c.n + g.nghost;
  auto atom = on_host(list.atom);
  auto cnt = on_host(list.count);
  auto cj = on_host(list.cj);
  auto mask = on_host(list.mask);
  auto owner = on_host(g.owner);
  // Every atom (local and ghost) in one slot; local atoms in i-clusters, ghosts after them.
  std::vector<int> seen(ntotal, 0);
  std::int64_t padding = 0;
  for (std::int64_t s = 0; s < std::int64_t(list.n_clusters) * M; ++s) {
    const int a = atom(s);
    if (a < 0) {
      padding += s < std::int64_t(n_ic) * M;
      continue;
    }
    ASSERT_LT(a, ntotal);
    ASSERT_EQ(s < std::int64_t(n_ic) * M, a < c.n) << "slot " << s << " atom " << a;
    ++seen[a];
  }
  for (std::int64_t a = 0; a < ntotal; ++a) ASSERT_EQ(seen[a], 1) << "atom " << a;
  EXPECT_EQ(padding, list.padding);
  for (int cl = 0; cl < list.n_clusters; ++cl) EXPECT_GE(atom(std::int64_t(cl) * M), 0);

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
  std::int64_t bits = 0, pairs = 0, rows = 0;
  // Each i atom slot's non-empty rows in row order, packed as the GPU's per-atom form.
  std::vector<std::vector<std::uint32_t>> packed(std::size_t(n_ic) * M);
  int longest = 0;
  for (int ic = 0; ic < n_ic; ++ic) {
    longest = std::max(longest, cnt(ic));
    std::set<int> js;
    for (int k = 0; k < cnt(ic); ++k) {
      const std::int64_t e = std::int64_t(ic) * list.max_pairs + k;
      const int jc = cj(e);
      ASSERT_TRUE(js.insert(jc).second) << "j-cluster listed twice";
      ASSERT_LT(jc, list.n_clusters);
      bool any = false;
      for (int ii = 0; ii < M; ++ii) {
        std::uint32_t row = 0;
        for (int jj = 0; jj < M; ++jj) {
          const int b0 = ii * M + jj;
          row |= ((mask(e * list.words + b0 / 32) >> (b0 % 32)) & 1u) << jj;
        }
        if (row != 0) {
          ++rows;
          packed[std::size_t(ic) * M + ii].push_back((std::uint32_t(jc) << 8) | row);
        }
        for (int jj = 0; jj < M; ++jj) {
          const int b = ii * M + jj;
          if (!((mask(e * list.words + b / 32) >> (b % 32)) & 1u)) continue;
          any = true;
          ++bits;
          const int i = atom(std::int64_t(ic) * M + ii);
          int j = atom(std::int64_t(jc) * M + jj);
          ASSERT_GE(i, 0);
          ASSERT_GE(j, 0);
          if (j >= c.n) j = owner(j - c.n);
          ASSERT_NE(i, j);
          ASSERT_TRUE(listed.insert({i, j}).second) << "pair listed twice: " << i << " " << j;
          ASSERT_LT(dist(i, j), rlist + eps);
        }
      }
      EXPECT_TRUE(any) << "cluster pair with an empty mask";
      ++pairs;
    }
  }
  EXPECT_EQ(longest, list.max_count);
  EXPECT_EQ(pairs, list.cluster_pairs);
  EXPECT_EQ(neighbor::count_cluster_atom_pairs(list), bits);
  EXPECT_EQ(list.atom_rows, rows);
  if (list.packed) {  // the GPU's per-atom rows: the same rows, in the same order
    ASSERT_LE(M, 8);
    auto entry = on_host(list.entry);
    auto entries = on_host(list.entries);
    for (std::int64_t sl = 0; sl < std::int64_t(n_ic) * M; ++sl) {
      const auto& want = packed[std::size_t(sl)];
      ASSERT_EQ(entries(sl), static_cast<int>(want.size())) << "slot " << sl;
      for (std::size_t k = 0; k < want.size(); ++k)
        ASSERT_EQ(
            entry(neighbor::packed_entry_index(sl, static_cast<int>(k), std::int64_t(n_ic) * M)),
            want[k])
            << "slot " << sl;
    }
  }
  int missing = 0, expected = 0;
  for (int i = 0; i < c.n; ++i)
    for (int j = 0; j < c.n; ++j) {
      if (i == j) continue;
      if (dist(i, j) < rlist - eps) {
        ++expected;
        if (!listed.count({i, j})) ++missing;
      }
    }
  EXPECT_EQ(missing, 0);
  EXPECT_GT(expected, 0);
}

const Case kCases[] = {
    {{5.61, 5.61, 5.61}, 150, 8},  // just above 2*(rc+skin) = 5.6
    {{5.61, 5.61, 5.61}, 150, 4},
    {{5.61, 5.61, 5.61}, 150, 16},
    {{7.0, 8.5, 12.9}, 650, 8},  // orthorhombic
    {{7.0, 8.5, 12.9}, 650, 4},
    {{7.0, 8.5, 12.9}, 650, 16},
    {{17.0, 13.0, 21.0}, 3900, 8},  // many columns, long columns
    {{17.0, 13.0, 21.0}, 3900, 16},
    {{11.0, 11.0, 11.0}, 60, 8},  // dilute: columns of one or no cluster
};

}  // namespace

template <class Space>
class ClusterList : public ::testing::Test {};
TYPED_TEST_SUITE(ClusterList, test::NeighborSpaces, test::SpaceName);

TYPED_TEST(ClusterList, MatchesBruteForceDouble) {
  std::uint64_t seed = 1;
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.n);
    check_clusters<double, TypeParam>(c, seed++);
  }
}

TYPED_TEST(ClusterList, MatchesBruteForceFloat) {
  std::uint64_t seed = 100;
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.n);
    check_clusters<float, TypeParam>(c, seed++);
  }
}

TYPED_TEST(ClusterList, OverflowGrowsInsteadOfDropping) {
  check_clusters<double, TypeParam>(kCases[6], 7, 3);
  check_clusters<float, TypeParam>(kCases[4], 8, 1);
}

TYPED_TEST(ClusterList, DefaultAndInvalidClusterSizes) {
  const int m = neighbor::ClusterListBuilder<double, TypeParam>(2.8).cluster_size();
  EXPECT_TRUE(neighbor::valid_cluster_size(m));
  if constexpr (!neighbor::is_host_space_v<TypeParam>) EXPECT_EQ(m, 8);
  for (int bad : {1, 2, 6, 32, -4}) {
    try {
      neighbor::ClusterListBuilder<float, TypeParam> b(2.8, bad);
      FAIL() << "cluster size " << bad << " accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("cluster_size"), std::string::npos) << e.what();
    }
  }
}

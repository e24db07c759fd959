// The device multilevel label-propagation order (remap/graph_order.hpp): a permutation of the
// nodes for every graph shape (grids, several components, isolated nodes, self loops, a hub with
// more neighbours than a node weighs, one node, none); the same order for the same input; the
// locality of a randomly renumbered grid given back (edges spanning a small part of the order,
// as the grid's own numbering does, where the renumbering spans a third); clusters of about the
// asked size at level 1; levels until the top has at most cluster_nodes nodes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "mdremap/error.hpp"
#include "mdremap/remap/graph_order.hpp"

using namespace mdremap;
using namespace mdremap::remap;

namespace {

using Adjacency = std::vector<std::vector<int>>;

struct OnDevice {
  Kokkos::View<std::int64_t*> off;
  Kokkos::View<int*> adj;
  std::int64_t n = 0;
  explicit OnDevice(const Adjacency& a) : n(static_cast<std::int64_t>(a.size())) {
    std::vector<std::int64_t> o{0};
    std::vector<int> e;
    for (const auto& row : a) {
      e.insert(e.end(), row.begin(), row.end());
      o.push_back(static_cast<std::int64_t>(e.size()));
    }
    off = Kokkos::View<std::int64_t*>("off", o.size());
    adj = Kokkos::View<int*>("adj", e.size());
    Kokkos::deep_copy(off,
                      Kokkos::View<const std::int64_t*, Kokkos::HostSpace>(o.data(), o.size()));
    Kokkos::deep_copy(adj, Kokkos::View<const int*, Kokkos::HostSpace>(e.data(), e.size()));
  }
  DeviceGraph graph() const { return {off, adj, n}; }
};

std::vector<int> host_order(const GraphOrder& g) {
  std::vector<int> h(g.order.extent(0));
  Kokkos::deep_copy(Kokkos::View<int*, Kokkos::HostSpace>(h.data(), h.size()), g.order);
  return h;
}

bool is_permutation_of_nodes(const std::vector<int>& order, std::int64_t n) {
  if (static_cast<std::int64_t>(order.size()) != n) return false;
  std::vector<char> seen(n, 0);
  for (int u : order) {
    if (u < 0 || u >= n || seen[u]) return false;
    seen[u] = 1;
  }
  return true;
}

// nx x ny 5-point grid, node (i, j) numbered i + nx j, then renumbered by `perm` (old -> new).
Adjacency grid(int nx, int ny, const std::vector<int>& perm = {}) {
  Adjacency a(static_cast<std::size_t>(nx) * ny);
  auto id = [&](int i, int j) { return perm.empty() ? i + nx * j : perm[i + nx * j]; };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      auto& row = a[id(i, j)];
      row.push_back(id(i, j));  // the diagonal: a matrix pattern's self loop
      if (i > 0) row.push_back(id(i - 1, j));
      if (i + 1 < nx) row.push_back(id(i + 1, j));
      if (j > 0) row.push_back(id(i, j - 1));
      if (j + 1 < ny) row.push_back(id(i, j + 1));
    }
  return a;
}

std::vector<int> shuffled(int n, unsigned seed) {
  std::vector<int> p(n);
  std::iota(p.begin(), p.end(), 0);
  std::shuffle(p.begin(), p.end(), std::mt19937(seed));
  return p;
}

// Mean |position(u) - position(v)| over the edges, positions given by a new -> old order.
double mean_edge_span(const Adjacency& a, const std::vector<int>& order) {
  std::vector<std::int64_t> pos(a.size());
  for (std::size_t i = 0; i < order.size(); ++i) pos[order[i]] = static_cast<std::int64_t>(i);
  double sum = 0;
  std::int64_t edges = 0;
  for (std::size_t u = 0; u < a.size(); ++u)
    for (int v : a[u])
      if (v != static_cast<int>(u)) {
        sum += std::abs(static_cast<double>(pos[u] - pos[v]));
        ++edges;
      }
  return edges ? sum / edges : 0.0;
}

}  // namespace

TEST(GraphOrder, IsAPermutationForEveryShape) {
  std::vector<Adjacency> graphs;
  graphs.push_back(grid(37, 41));
  graphs.push_back(grid(60, 50, shuffled(3000, 3)));
  {  // two grids side by side (two components) and 50 isolated nodes, one with only a self loop
    Adjacency a = grid(20, 20);
    const Adjacency b = grid(15, 30);
    for (auto row : b) {
      for (int& v : row) v += 400;
      a.push_back(row);
    }
    for (int k = 0; k < 50; ++k) a.push_back(k == 0 ? std::vector<int>{850} : std::vector<int>{});
    graphs.push_back(a);
  }
  {  // a hub joined to 500 leaves (more neighbours than a node weighs), leaves in a ring
    Adjacency a(501);
    for (int k = 1; k <= 500; ++k) {
      a[0].push_back(k);
      a[k] = {0, 1 + (k % 500), 1 + ((k + 498) % 500)};
    }
    graphs.push_back(a);
  }
  graphs.push_back(Adjacency(1));    // one node, no edge
  graphs.push_back(Adjacency(100));  // no edges at all
  graphs.push_back({{1}, {0}});      // one edge
  for (const auto& a : graphs) {
    const OnDevice d(a);
    for (int c : {2, 8, 64}) {
      GraphOrderOptions o;
      o.cluster_nodes = c;
      const GraphOrder g = multilevel_label_order(d.graph(), o);
      EXPECT_TRUE(is_permutation_of_nodes(host_order(g), d.n)) << d.n << " nodes, clusters " << c;
      ASSERT_FALSE(g.level_nodes.empty());
      EXPECT_EQ(g.level_nodes[0], d.n);
      EXPECT_EQ(g.level_rounds.size() + 1, g.level_nodes.size());
    }
  }
  const GraphOrder empty = multilevel_label_order(OnDevice(Adjacency{}).graph());
  EXPECT_EQ(empty.order.extent(0), 0u);
}

TEST(GraphOrder, SameInputSameOrderAndTheSeedMatters) {
  const OnDevice d(grid(80, 70, shuffled(5600, 11)));
  GraphOrderOptions o;
  o.cluster_nodes = 16;
  const auto a = host_order(multilevel_label_order(d.graph(), o));
  const auto b = host_order(multilevel_label_order(d.graph(), o));
  EXPECT_EQ(a, b);
  o.seed = 2;
  EXPECT_NE(a, host_order(multilevel_label_order(d.graph(), o)));
}

TEST(GraphOrder, GivesARenumberedGridItsLocalityBack) {
  const int nx = 200, ny = 150, n = nx * ny;
  const Adjacency natural = grid(nx, ny);
  const auto perm = shuffled(n, 5);
  const Adjacency renumbered = grid(nx, ny, perm);
  std::vector<int> identity(n);
  std::iota(identity.begin(), identity.end(), 0);
  const double span_natural = mean_edge_span(natural, identity);        // (1 + nx) / 2 ~ 100
  const double span_renumbered = mean_edge_span(renumbered, identity);  // ~ n / 3
  ASSERT_GT(span_renumbered, n / 4.0);
  for (int c : {8, 64, 128}) {
    GraphOrderOptions o;
    o.cluster_nodes = c;
    const GraphOrder g = multilevel_label_order(OnDevice(renumbered).graph(), o);
    const double span = mean_edge_span(renumbered, host_order(g));
    EXPECT_LT(span, 0.03 * n) << "clusters of " << c << ": natural " << span_natural;
    EXPECT_LT(span, span_renumbered / 10) << "clusters of " << c;
    // About n / c clusters at level 1: seeds one in c, and as many again at most where the
    // fronts left gaps.
    EXPECT_GT(g.clusters(), n / (2 * c)) << c;
    EXPECT_LT(g.clusters(), 3 * n / c) << c;
    // Levels until the top has at most c nodes.
    EXPECT_LE(g.level_nodes.back(), c);
    for (std::size_t l = 1; l < g.level_nodes.size(); ++l)
      EXPECT_LT(g.level_nodes[l], g.level_nodes[l - 1]);
  }
}

TEST(GraphOrder, RefusesBadOptions) {
  const OnDevice d(grid(4, 4));
  GraphOrderOptions o;
  o.cluster_nodes = 1;
  EXPECT_THROW(multilevel_label_order(d.graph(), o), Error);
  o.cluster_nodes = 8;
  o.max_levels = 0;
  EXPECT_THROW(multilevel_label_order(d.graph(), o), Error);
}

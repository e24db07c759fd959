#pragma once
// A locality order of a graph's nodes computed on the device: seed 001 §3.4's clustering by label
// propagation, applied level over level (multilevel), so that a permutation that destroyed the
// locality of a mesh's numbering is undone where the data already lives, in milliseconds.
//
// Level 0 is the input graph. At each level, nodes picked by a hash (about one in
// `cluster_nodes`) are seeds with their own cluster ids; each propagation round, every node not
// yet labelled takes the most frequent label among its neighbours labelled in earlier rounds
// (ties: the smallest id; rounds are synchronous, so the result does not depend on thread
// timing). A round that labels nothing (a component without a seed) seeds it the same way with a
// new hash, else at its nodes of locally smallest id. Nodes with no neighbour form one last
// cluster. The clusters and the edges between them are the next level's graph, until a level
// has at most `cluster_nodes` nodes. The order is then built top down: the nodes of a cluster
// consecutive, clusters in the order their parents were given, and inside a cluster by the round
// a node was labelled at (rings around its seed), then by id.
//
// The host `LabelPropagationClustering` (clustering.hpp) is the single-level form on the
// thread-element graph with the clusters laid out by a depth-first walk; this one needs a
// symmetric adjacency (both directions of each edge listed; self loops ignored), as a symmetric
// sparse matrix's pattern is.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <vector>

namespace mdremap::remap {

struct DeviceGraph {
  Kokkos::View<const std::int64_t*> offsets;  // nodes + 1: node u's neighbours are
  Kokkos::View<const int*> adj;               // adj[offsets[u] .. offsets[u + 1])
  std::int64_t nodes = 0;
};

struct GraphOrderOptions {
  int cluster_nodes = 64;  // mean cluster size at every level (>= 2)
  std::uint64_t seed = 1;  // the seed hash's salt: the order is a function of (graph, seed)
  int max_levels = 8;
};

struct GraphOrder {
  Kokkos::View<int*> order;               // new -> old
  std::vector<std::int64_t> level_nodes;  // nodes of each level's graph, level 0 the input's
  std::vector<int> level_rounds;          // propagation rounds at each level
  std::vector<double> level_seconds;      // each level's propagation and coarsening (fenced)
  double order_seconds = 0;               // the top-down ordering (fenced)
  std::int64_t clusters() const { return level_nodes.size() > 1 ? level_nodes[1] : 0; }
};

// Throws mdremap::Error for options out of range or a graph whose order keys do not fit 64 bits
// (more than about 2^31 nodes). An empty graph gives an empty order.
GraphOrder multilevel_label_order(const DeviceGraph& g, const GraphOrderOptions& o = {});

}  // namespace mdremap::remap

#pragma once
// Graph clustering by label propagation (seed 001 §3.4, first step of Fig. 5): threads are graph
// nodes, connected when they share data; randomly chosen seed nodes get distinct cluster ids,
// which then propagate to neighbours until every node has one. The output is a thread
// permutation that puts each cluster's threads in consecutive positions, so consecutive blocks
// share data (fewer unique elements per block for `sharing`, fewer segments for `dup`/`gather`).
//
// The thread graph is never built (an MD atom with 80 neighbours has ~6400 two-hop neighbours):
// labels travel through the bipartite thread-element graph instead, one hop = element step then
// thread step, each O(references). A node reached by several clusters in the same hop takes the
// most frequent label among its labelled neighbours (ties: smallest id). Seeds are spaced so the
// mean cluster has about `cluster_threads` threads; a component no seed reaches gets a new seed.
// Clusters are laid out in depth-first order of the cluster adjacency graph, strongest link first
// (neighbouring clusters end up adjacent, so a block straddling two clusters still has a compact
// set), and the threads of a cluster in order of the hop they were labelled at, then by old id.
#include <cstdint>
#include <vector>

#include "mdremap/remap/pattern.hpp"
#include "mdremap/remap/pattern_ops.hpp"

namespace mdremap::remap {

struct LabelPropagationOptions {
  std::int64_t cluster_threads = 64;  // target mean cluster size (e.g. the thread block size)
  std::uint64_t seed = 1;             // RNG seed for choosing seed nodes (deterministic output)
};

struct ThreadClustering {
  ThreadPermutation thread_perm;            // new -> old; clusters consecutive
  std::vector<std::int64_t> cluster_begin;  // nclusters+1 offsets into the new thread order
  std::vector<std::int32_t> label;          // old thread -> cluster (index into cluster_begin)
  int hops = 0;                             // propagation rounds until every thread was labelled
  std::int64_t clusters() const { return static_cast<std::int64_t>(cluster_begin.size()) - 1; }
};

class LabelPropagationClustering {
 public:
  explicit LabelPropagationClustering(LabelPropagationOptions opt = {}) : opt_(opt) {}
  // seed 001 §3.4. Threads with no reference form one last cluster. Throws on an invalid pattern.
  ThreadClustering cluster(const IrregularPattern& p) const;

 private:
  LabelPropagationOptions opt_;
};

}  // namespace mdremap::remap

#pragma once
// Data-balanced work partition into cache-fit parts (seed 002 §2, Algorithm 1: the V-EP model of
// Definition 2.1) and data remapping by partition (seed 002 §4.2, Algorithm 5).
//
// The work graph (seed 002 §2.1): every reference "thread t reads element e = P[j][t]" is an edge
// (a 2-tuple) between the thread's output vertex y_t and the data vertex x_e. A part's data
// footprint is its unique elements * elem_bytes, plus (out_bytes > 0) its unique threads *
// out_bytes for the output vector; a part is cache-fit when the footprint is <= cache_bytes.
// Algorithm 1 bisects every part that is not cache-fit, recursively; each bisection halves the
// part's edges: the larger side of w edges holds at most w/2 + m/2 of them, m being the heaviest
// work item (k-d tiling: 1 for an edge, len for a thread), and for coarsened bisection at most
// max((1 + imbalance) * w/2, w/2 + m/2), m being the heaviest finest-level entity (a thread, or
// up to first_level_refs references of one thread).
//
// Two granularities of the same framework:
//  - edges: the work items are the references themselves (V-EP as written; a thread's references
//    may land in several parts, so its output is accumulated: SpMV's y[t] += partial sums);
//  - threads: all references of a thread stay in one part (a kernel that writes out[t] once, like
//    MD's full-list force, cannot split a thread); edges are balanced by weighting each thread with
//    its len.
// Two bisectors (seed 002 §4.1):
//  - k-d tiling: points split at the median (quickselect) of their widest coordinate; an edge is
//    the point (thread, element) of the sparse-matrix view; a thread is its given coordinates (3
//    floats, e.g. an atom position) or (thread id, mean element id);
//  - coarsened bisection (Algorithm 4, after the multilevel SPAC of Li et al., seed 002 refs
//    [24-26]): entities (sets of edges; at the finest level up to first_level_refs references of
//    one thread, or a whole thread) are merged with their heaviest neighbour (most shared
//    vertices) level by level, the coarsest graph is bisected by greedy graph growing (GGGP,
//    Karypis & Kumar, SIAM J. Sci. Comput. 20(1), 1998), balanced by edge count, and the split is
//    projected back, refined by positive-gain boundary moves except at the finest
//    `unrefined_levels` levels (seed 002 §4.1: skipping the last five to seven refinement levels
//    costs little locality and saves most of the partition time). It follows connectivity, so it
//    wins where ids carry no locality; it costs O(references * min(readers, max_vertex_scan)) per
//    level, which is heavy for dense two-hop graphs (MD neighbour lists: use k-d tiling on the
//    positions there).
#include <cstdint>
#include <string>
#include <vector>

#include "mdremap/error.hpp"
#include "mdremap/remap/pattern.hpp"
#include "mdremap/remap/pattern_ops.hpp"

namespace mdremap::remap {

enum class PartitionGranularity { threads, edges };
enum class Bisector { kd_tiling, coarsened };

struct CoarsenedBisectionOptions {
  int max_levels = 40;                // coarsening levels at most
  int unrefined_levels = 5;           // no refinement at the finest levels (seed 002 §4.1)
  int refine_passes = 2;              // boundary passes per refined level
  double imbalance = 0.02;            // a side may hold (1 + imbalance) * half of the edges
  std::int64_t coarse_entities = 64;  // stop coarsening at or below this many entities
  // Readers scanned per shared vertex when looking for an entity's heaviest neighbour, so a hub
  // element read by thousands of edges costs O(max_vertex_scan), not O(readers^2).
  int max_vertex_scan = 32;
  // edges granularity: the finest level's entities are up to this many consecutive references
  // of one thread (seed 002 §4.1: the input is already a coarsened graph, its first level
  // coarsened while the data are read); 1 starts from single references.
  int first_level_refs = 8;
};

struct PartitionOptions {
  std::int64_t cache_bytes = 0;  // capacity a part's footprint must fit (default_partition_bytes())
  std::int64_t out_bytes = 0;    // bytes per unique thread's output counted in the footprint
  PartitionGranularity granularity = PartitionGranularity::threads;
  Bisector bisector = Bisector::kd_tiling;
  // threads granularity with k-d tiling: inside a cache-fit part the tiling continues, for
  // ordering only, down to tiles of at most tile_threads threads (consecutive warps stay close);
  // <= 0 keeps the given order inside parts.
  std::int64_t tile_threads = 32;
  CoarsenedBisectionOptions coarsened;
};

// A node of the bisection tree (the SJ-tree of seed 002 §3.3). Node 0 is the root; children
// split their parent's range; leaves are the parts.
struct PartitionNode {
  std::int64_t edge_begin = 0, edge_end = 0;      // edges in partition order
  std::int64_t thread_begin = 0, thread_end = 0;  // threads granularity: range of thread_perm
  std::int32_t part_begin = 0, part_end = 0;      // the parts (leaves) it covers
  std::int32_t left = -1, right = -1;
  std::int32_t depth = 0;
  std::int64_t unique_elems = 0, unique_threads = 0;
  bool leaf() const { return left < 0; }
};

struct CacheFitPartition {
  PartitionGranularity granularity = PartitionGranularity::threads;
  // Partition order of the references: parts consecutive. threads granularity: the threads of
  // thread_perm in order, each with its references j = 0..len-1 (edge_pos/edge_thread are left
  // empty: they would cost 16 bytes per reference for what thread_perm says). edges granularity:
  // reference k sits at index position edge_pos[k] (= p.pos(j, t)) of thread edge_thread[k];
  // inside a part the references keep their storage order by thread, then j.
  std::vector<std::int64_t> edge_pos;
  std::vector<std::int64_t> edge_thread;
  std::vector<std::int64_t> part_edge_begin;  // nparts+1 offsets into the partition order
  ThreadPermutation thread_perm;              // threads granularity: new -> old; else empty
  std::vector<std::int64_t> part_begin;       // threads granularity: nparts+1 into thread_perm
  std::vector<std::int64_t> part_unique;      // unique elements per part
  std::vector<std::int64_t> part_threads;     // unique threads per part
  DataPermutation data_old_to_new;            // Algorithm 5 on the parts (old -> new)
  std::int64_t capacity_bytes = 0;            // cache_bytes
  std::int64_t capacity_elems = 0;            // cache_bytes / elem_bytes
  // seed 002 eq. 2 over the data vertices: sum over elements of (parts reading it - 1), and over
  // the thread vertices (a thread split over parts; always 0 for threads granularity).
  std::int64_t replication = 0;
  std::int64_t thread_replication = 0;
  std::int64_t boundary_elems = 0;    // elements read by more than one part
  std::int64_t boundary_threads = 0;  // threads with references in more than one part
  std::vector<PartitionNode> tree;
  int coarsen_levels = 0;  // coarsened bisection: levels built for the root's bisection
  int refined_levels = 0;  // ... and how many of them were refined
  std::int64_t parts() const { return static_cast<std::int64_t>(part_edge_begin.size()) - 1; }
};

// seed 002 Algorithm 1 + Algorithm 5. coords: empty, or 3 floats per thread (threads granularity
// with k-d tiling only). Throws mdremap::Error on an invalid pattern, bad options or coords, or a
// work item that alone exceeds cache_bytes (a thread for threads granularity, one element plus one
// output for edges).
CacheFitPartition partition_cache_fit(const IrregularPattern& p, const PartitionOptions& opt,
                                      const std::vector<float>& coords = {});

// seed 002 Algorithm 5 on its own: rank parts by their count of private elements (ascending,
// stable), append each part's private elements (first-access order) and then, part by part in the
// same ranking, the boundary ones; elements no thread reads go last in their old order. Returns
// old -> new. Parts given as consecutive thread ranges of p (part_begin), or as a partition of p.
DataPermutation remap_data_by_partition(const IrregularPattern& p,
                                        const std::vector<std::int64_t>& part_begin);
DataPermutation remap_data_by_partition(const IrregularPattern& p, const CacheFitPartition& cp);

// The packed copy an app reads after Algorithm 5: out[old_to_new[e]] = a[e]. (On the device:
// a parallel_for over e with the permutation uploaded; the pattern is renumbered once with
// apply_data_permutation or make_partitioned_pattern.)
template <class V>
std::vector<V> permute_data(const std::vector<V>& a, const DataPermutation& old_to_new) {
  if (old_to_new.size() != a.size() || !is_permutation(old_to_new))
    throw Error("permute_data: need a permutation of the " + std::to_string(a.size()) +
                " data elements (old -> new)");
  std::vector<V> out(a.size());
  for (std::size_t e = 0; e < a.size(); ++e) out[old_to_new[e]] = a[e];
  return out;
}

}  // namespace mdremap::remap

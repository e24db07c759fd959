#pragma once
// Data-balanced work partition into cache-fit parts (seed 002 §2.3, Algorithm 1, the V-EP model
// of §2.2) and data remapping by partition (seed 002 §4.2, Algorithm 5).
//
// Work items are threads (a thread's references are the "edges" of seed 002's work graph, its
// elements the vertices). A part is cache-fit when its unique elements * elem_bytes <= cache_bytes.
// Parts that are not are bisected, recursively, with k-d tiling (seed 002 §4.1): split the part's
// threads at the median (quickselect) of the coordinate with the largest extent, half the threads
// on each side. With per-thread coordinates (3 floats per thread, e.g. atom positions) the tiling
// is spatial. Without them each thread gets the 2-D point (thread id, mean element index), the
// sparse-matrix view seed 002 §4.1 tiles (row, column); it only helps when ids carry locality.
// Inside a cache-fit part the same tiling continues, for ordering only, down to tiles of at most
// `tile_threads` threads, so consecutive threads (warps, blocks) are close too; threads inside
// a final tile keep their given relative order.
#include <cstdint>
#include <vector>

#include "mdremap/remap/pattern.hpp"
#include "mdremap/remap/pattern_ops.hpp"

namespace mdremap::remap {

struct PartitionOptions {
  std::int64_t cache_bytes = 0;    // capacity a part's data footprint must fit (e.g. L2 share)
  std::int64_t tile_threads = 32;  // ordering tiles inside a part; <= 0: keep given order in parts
};

struct CacheFitPartition {
  ThreadPermutation thread_perm;          // new -> old; parts consecutive, in bisection-tree order
  std::vector<std::int64_t> part_begin;   // nparts+1 offsets into the new thread order
  std::vector<std::int64_t> part_unique;  // unique elements per part (footprint / elem_bytes)
  DataPermutation data_old_to_new;        // Algorithm 5: parts' private data packed contiguously
  std::int64_t capacity_elems = 0;        // cache_bytes / elem_bytes
  std::int64_t replication = 0;     // seed 002 eq. 2: sum over elements of (parts reading it - 1)
  std::int64_t boundary_elems = 0;  // elements read by more than one part
  // Bisection tree (for Split-Join recombination, seed 002 Algorithm 3): node 0 is the root; a
  // node covers new threads [begin, end); leaves (left == -1) are the parts.
  struct Node {
    std::int64_t begin = 0, end = 0;
    std::int32_t left = -1, right = -1;
    std::int64_t unique = 0;
  };
  std::vector<Node> tree;
  std::int64_t parts() const { return static_cast<std::int64_t>(part_begin.size()) - 1; }
};

// seed 002 Algorithm 1 + Algorithm 5. coords: empty, or 3 floats per thread (x, y, z).
// Throws mdremap::Error on an invalid pattern, a bad coords size, cache_bytes < elem_bytes, or a
// single thread whose own footprint exceeds cache_bytes.
CacheFitPartition partition_cache_fit(const IrregularPattern& p, const PartitionOptions& opt,
                                      const std::vector<float>& coords = {});

// seed 002 Algorithm 5 on its own: given parts as consecutive thread ranges of p (part_begin),
// rank parts by their count of private elements (ascending, stable), append each part's private
// elements (first-access order) and then, part by part in the same ranking, the boundary ones;
// elements no thread reads go last in their old order. Returns old -> new.
DataPermutation remap_data_by_partition(const IrregularPattern& p,
                                        const std::vector<std::int64_t>& part_begin);

}  // namespace mdremap::remap

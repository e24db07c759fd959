#pragma once
// The coarsened bisection of seed 002 §4.1 (Algorithm 4) on an entity graph; used by
// partition_cache_fit (partition.cpp). Internal to mdremap_remap.
#include <cstdint>
#include <vector>

#include "mdremap/remap/impl/partition.hpp"

namespace mdremap::remap::detail {

// n entities (sets of edges of the work graph), each with a weight (its edge count) and the
// sorted, distinct vertices (compact ids in [0, nvertices)) its edges touch. Two entities are
// neighbours when they share a vertex; the weight of that link is the number of shared vertices
// (merging them removes that many vertex replicas, seed 002 eq. 2).
struct EntityGraph {
  std::int64_t nvertices = 0;
  std::vector<std::int64_t> weight;  // n
  std::vector<std::int64_t> off;     // n+1 offsets into vtx
  std::vector<std::int32_t> vtx;
  std::int64_t size() const { return static_cast<std::int64_t>(weight.size()); }
};

struct BisectionStats {
  int levels = 0;   // coarsening levels built (0: the input graph was bisected directly)
  int refined = 0;  // levels (coarsest included) whose split was refined
};

// seed 002 Algorithm 4: side (0 or 1) per entity, both sides non-empty when n >= 2; each side
// holds at most (1 + imbalance) * half of the total weight when no single entity is heavier than
// imbalance * half of it.
std::vector<std::uint8_t> coarsened_bisection(const EntityGraph& g,
                                              const CoarsenedBisectionOptions& opt,
                                              BisectionStats* stats = nullptr);

}  // namespace mdremap::remap::detail

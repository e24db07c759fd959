#include "mdremap/remap/impl/partitioned_pattern.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "mdremap/error.hpp"

namespace mdremap::remap {

PartitionedPattern make_partitioned_pattern(const IrregularPattern& p,
                                            const CacheFitPartition& cp) {
  validate_pattern(p);
  const std::int64_t T = p.threads, nref = p.references(), nparts = cp.parts();
  const bool edges = cp.granularity == PartitionGranularity::edges;
  bool ok = nparts >= 0 && cp.part_edge_begin.front() == 0 && cp.part_edge_begin.back() == nref &&
            std::is_sorted(cp.part_edge_begin.begin(), cp.part_edge_begin.end()) &&
            static_cast<std::int64_t>(cp.data_old_to_new.size()) == p.data_count;
  if (edges)
    ok = ok && static_cast<std::int64_t>(cp.edge_pos.size()) == nref &&
         cp.edge_thread.size() == cp.edge_pos.size();
  else
    ok = ok && static_cast<std::int64_t>(cp.thread_perm.size()) == T &&
         static_cast<std::int64_t>(cp.part_begin.size()) == nparts + 1 &&
         is_permutation(cp.thread_perm);
  if (!ok || !is_permutation(cp.data_old_to_new))
    throw Error("partitioned pattern: the cache-fit partition was not made for this pattern");
  if (T > std::numeric_limits<std::int32_t>::max())
    throw Error("partitioned pattern: more than 2^31 threads are not supported");

  PartitionedPattern pp;
  pp.threads = T;
  pp.data_count = p.data_count;
  pp.elem_bytes = p.elem_bytes;
  pp.part_begin = cp.part_edge_begin;
  pp.tree = cp.tree;
  pp.data_old_to_new = cp.data_old_to_new;
  pp.row.resize(nref);
  pp.col.resize(nref);
  pp.ref.resize(nref);
  if (edges) {
    for (std::int64_t k = 0; k < nref; ++k) {
      pp.row[k] = static_cast<std::int32_t>(cp.edge_thread[k]);
      pp.ref[k] = cp.edge_pos[k];
    }
  } else {
    std::int64_t k = 0;
    for (std::int64_t t : cp.thread_perm)
      for (int j = 0; j < p.len[t]; ++j, ++k) {
        pp.row[k] = static_cast<std::int32_t>(t);
        pp.ref[k] = static_cast<std::int64_t>(p.pos(j, t));
      }
  }
  for (std::int64_t k = 0; k < nref; ++k) pp.col[k] = cp.data_old_to_new[p.index[pp.ref[k]]];

  // Row segments per part, and the threads that appear in more than one part.
  std::vector<std::int32_t> nparts_of(T, 0);
  pp.seg_begin.push_back(0);
  pp.part_seg_begin.push_back(0);
  for (std::int64_t q = 0; q < nparts; ++q) {
    for (std::int64_t k = pp.part_begin[q]; k < pp.part_begin[q + 1]; ++k) {
      if (k == pp.part_begin[q] || pp.row[k] != pp.row[k - 1]) {
        if (k > pp.part_begin[q]) pp.seg_begin.push_back(k);
        pp.seg_row.push_back(pp.row[k]);
        ++nparts_of[pp.row[k]];
      }
    }
    if (pp.part_begin[q + 1] > pp.part_begin[q]) pp.seg_begin.push_back(pp.part_begin[q + 1]);
    pp.part_seg_begin.push_back(static_cast<std::int64_t>(pp.seg_row.size()));
  }
  pp.seg_shared.resize(pp.seg_row.size());
  for (std::size_t s = 0; s < pp.seg_row.size(); ++s)
    pp.seg_shared[s] = nparts_of[pp.seg_row[s]] > 1 ? 1 : 0;
  return pp;
}

ChunkQueue make_chunk_queue(const PartitionedPattern& pp, std::int64_t chunk_refs) {
  if (chunk_refs < 1) throw Error("chunk queue: chunk_refs must be >= 1");
  ChunkQueue cq;
  cq.chunk_seg_begin.push_back(0);
  cq.chunk_ref_begin.push_back(0);
  cq.part_chunk_begin.push_back(0);
  for (std::int64_t q = 0; q < pp.parts(); ++q) {
    const std::int64_t s1 = pp.part_seg_begin[q + 1];
    for (std::int64_t s = pp.part_seg_begin[q]; s < s1;) {
      const std::int64_t r0 = pp.seg_begin[s];
      while (s < s1 && pp.seg_begin[s] - r0 < chunk_refs) ++s;  // whole segments only
      cq.chunk_seg_begin.push_back(s);
      cq.chunk_ref_begin.push_back(pp.seg_begin[s]);
      cq.chunk_part.push_back(static_cast<std::int32_t>(q));
    }
    cq.part_chunk_begin.push_back(cq.chunks());
  }
  return cq;
}

// seed 002 §3.3, Algorithm 3: BESTCONFIG in post-order (children have larger ids than their
// parent in the trees partition_cache_fit builds, but any order is handled).
SplitJoinCover split_join_cover(const std::vector<PartitionNode>& tree,
                                const std::vector<double>& stime) {
  const std::size_t n = tree.size();
  if (stime.size() != n)
    throw Error("split-join cover: " + std::to_string(stime.size()) + " times for " +
                std::to_string(n) + " tree nodes");
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(stime[i]) || stime[i] < 0.0)
      throw Error("split-join cover: stime[" + std::to_string(i) +
                  "] = " + std::to_string(stime[i]) + " is not a finite time >= 0");
    const PartitionNode& x = tree[i];
    if ((x.left < 0) != (x.right < 0) || x.left >= static_cast<std::int32_t>(n) ||
        x.right >= static_cast<std::int32_t>(n))
      throw Error("split-join cover: node " + std::to_string(i) + " has bad children");
  }
  SplitJoinCover out;
  if (n == 0) return out;
  out.btime.assign(n, 0.0);
  std::vector<std::uint8_t> take(n, 0);  // node's own stime chosen over its children's cover
  // Iterative post-order from the root.
  std::vector<std::pair<std::int32_t, bool>> stack{{0, false}};
  std::size_t visited = 0;
  while (!stack.empty()) {
    auto [id, expanded] = stack.back();
    stack.pop_back();
    const PartitionNode& x = tree[id];
    if (x.leaf()) {
      out.btime[id] = stime[id];
      take[id] = 1;
      ++visited;
      continue;
    }
    if (!expanded) {
      if (++visited > n) throw Error("split-join cover: the tree has a cycle");
      stack.push_back({id, true});
      stack.push_back({x.right, false});
      stack.push_back({x.left, false});
      continue;
    }
    const double split = out.btime[x.left] + out.btime[x.right];
    take[id] = stime[id] <= split ? 1 : 0;
    out.btime[id] = std::min(stime[id], split);
  }
  out.time = out.btime[0];
  // The cover: descend from the root, stopping at taken nodes (left before right: part order).
  std::vector<std::int32_t> walk{0};
  while (!walk.empty()) {
    const std::int32_t id = walk.back();
    walk.pop_back();
    if (take[id]) {
      out.nodes.push_back(id);
    } else {
      walk.push_back(tree[id].right);
      walk.push_back(tree[id].left);
    }
  }
  return out;
}

}  // namespace mdremap::remap

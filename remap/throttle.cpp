#include "mdremap/remap/impl/throttle.hpp"

#include <algorithm>

#include "mdremap/error.hpp"
#include "mdremap/remap/device_cache.hpp"

namespace mdremap::remap {

ThrottlePlan make_throttle_plan(const IrregularPattern& p, const ThrottleOptions& o) {
  if (o.chunk_threads < 1) throw Error("throttle: chunk_threads must be at least 1");
  PartitionOptions po;
  po.cache_bytes = o.cache_bytes > 0 ? o.cache_bytes : default_partition_bytes();
  po.granularity = PartitionGranularity::threads;
  po.bisector = o.bisector_set ? o.bisector : (p.csr() ? Bisector::coarsened : Bisector::kd_tiling);
  const CacheFitPartition cp = partition_cache_fit(p, po);

  ThrottlePlan plan;
  plan.cache_bytes = po.cache_bytes;
  plan.bisector = po.bisector;
  plan.order = cp.thread_perm;
  plan.part_begin = cp.part_begin;
  plan.tree = cp.tree;
  plan.data_old_to_new = cp.data_old_to_new;
  plan.replication = cp.replication;
  plan.boundary_elems = cp.boundary_elems;
  const std::int64_t T = p.threads;
  plan.start.assign(T, 0);
  plan.packed_index.resize(p.references());
  std::int64_t k = 0;
  for (const std::int64_t t : plan.order) {
    plan.start[t] = k;
    for (int j = 0; j < p.len[t]; ++j) plan.packed_index[k++] = plan.data_old_to_new[p.at(j, t)];
  }
  plan.chunk_begin.push_back(0);
  plan.part_chunk_begin.push_back(0);
  for (std::int64_t q = 0; q < plan.parts(); ++q) {
    for (std::int64_t i = plan.part_begin[q]; i < plan.part_begin[q + 1]; i += o.chunk_threads)
      plan.chunk_begin.push_back(std::min(i + o.chunk_threads, plan.part_begin[q + 1]));
    plan.part_chunk_begin.push_back(plan.chunks());
  }
  return plan;
}

IrregularPattern throttled_pattern(const IrregularPattern& p, const ThrottlePlan& plan) {
  IrregularPattern q;
  q.threads = p.threads;
  q.rows = p.rows;
  q.data_count = p.data_count;
  q.elem_bytes = p.elem_bytes;
  q.len.resize(p.threads);
  q.offset.assign(p.threads + 1, 0);
  for (std::int64_t i = 0; i < p.threads; ++i) {
    q.len[i] = p.len[plan.order[i]];
    q.offset[i + 1] = q.offset[i] + q.len[i];
  }
  q.index = plan.packed_index;  // already in the new thread order
  return q;
}

}  // namespace mdremap::remap

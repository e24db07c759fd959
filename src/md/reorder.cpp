#include "md/reorder.hpp"

#include "md/force.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "mdremap/error.hpp"
#include "mdremap/remap/clustering.hpp"
#include "mdremap/remap/device_cache.hpp"
#include "mdremap/remap/device_pattern.hpp"
#include "mdremap/remap/partition.hpp"
#include "mdremap/remap/pattern_ops.hpp"

namespace mdremap::md {

namespace {

remap::PatternView pattern_of(const neighbor::NeighborList& list, std::int64_t data_count) {
  remap::PatternView pv;
  pv.index = list.neighbors;
  pv.len = list.counts;
  pv.threads = list.n;
  pv.rows = list.max_count;
  pv.stride_j = list.stride_j;
  pv.stride_t = list.stride_i;
  pv.data_count = data_count;
  return pv;
}

}  // namespace

remap::RemapOptions remap_options(const MdParams& p) {
  remap::RemapOptions o;
  o.chunks = p.remap_chunks;
  o.streams = p.remap_streams;
  o.dup_fraction = p.dup_fraction;
  o.cache = p.remap_cache;
  // auto (seed 003 Algorithm 3) is decided from the first neighbour list (md/memory_paths.hpp).
  o.path = p.gather_path == GatherPathSetting::Global    ? remap::GatherPath::Global
           : p.gather_path == GatherPathSetting::Texture ? remap::GatherPath::Texture
           : p.gather_path == GatherPathSetting::Split   ? remap::GatherPath::Split
                                                         : remap::GatherPath::ReadOnly;
  o.index_bits = p.index_bits;
  o.lanes = p.lanes > 0 ? p.lanes : 1;  // auto: the force engine decides at its first list
  o.block_threads = p.remap_block;
  o.plan_overlap =
      p.plan_overlap == "on" ||
      (p.plan_overlap == "auto" &&
       !std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::DefaultHostExecutionSpace>);
  o.overlap_executions = p.plan_overlap_steps;
  o.smem_bytes = p.smem_bytes;
  o.profile_steps = p.profile_steps;
  o.reference_patterns = kForceReferencePatterns;
  // The run auto predicts over: the setup's force evaluation and one per step, a re-plan at
  // every list build (every `neighbor.every` steps; with `check` at most that often).
  o.horizon.executions = p.steps + 1;
  o.horizon.plan_every = p.every;
  o.kernel =
      "the MD force kernel (it reads pos[i] and writes f[i] besides the gather "
      "pos[neighbors[j][i]])";
  return o;
}

template <class C>
Kokkos::View<std::int64_t*> reorder_permutation(const MdParams& p,
                                                const neighbor::NeighborList& list,
                                                std::int64_t data_count,
                                                Kokkos::View<const Vec4<C>*> xlocal) {
  const remap::IrregularPattern host =
      remap::host_pattern(pattern_of(list, data_count), sizeof(Vec4<C>));
  remap::ThreadPermutation perm;
  if (p.reorder == Reorder::LabelProp) {
    // seed 001 §3.4: clusters of about one thread block.
    remap::LabelPropagationOptions o;
    o.cluster_threads = p.remap_block;
    perm = remap::LabelPropagationClustering(o).cluster(host).thread_perm;
  } else if (p.reorder == Reorder::Partition) {
    // seed 002 Algorithm 1 with k-d tiling on the atom positions.
    auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), xlocal);
    std::vector<float> coords(3 * host.threads);
    for (std::int64_t t = 0; t < host.threads; ++t) {
      coords[3 * t] = static_cast<float>(hx(t).x);
      coords[3 * t + 1] = static_cast<float>(hx(t).y);
      coords[3 * t + 2] = static_cast<float>(hx(t).z);
    }
    remap::PartitionOptions o;
    o.cache_bytes = p.partition_bytes > 0 ? p.partition_bytes : remap::default_partition_bytes();
    perm = remap::partition_cache_fit(host, o, coords).thread_perm;
  } else {
    throw Error("reorder_permutation: '" + to_string(p.reorder) +
                "' is not a pattern-based reordering");
  }
  Kokkos::View<std::int64_t*> d("reorder_perm", perm.size());
  auto hd = Kokkos::create_mirror_view(d);
  for (std::size_t k = 0; k < perm.size(); ++k) hd(k) = perm[k];
  Kokkos::deep_copy(d, hd);
  return d;
}

template Kokkos::View<std::int64_t*> reorder_permutation<double>(const MdParams&,
                                                                 const neighbor::NeighborList&,
                                                                 std::int64_t,
                                                                 Kokkos::View<const Vec4<double>*>);
template Kokkos::View<std::int64_t*> reorder_permutation<float>(const MdParams&,
                                                                const neighbor::NeighborList&,
                                                                std::int64_t,
                                                                Kokkos::View<const Vec4<float>*>);

}  // namespace mdremap::md

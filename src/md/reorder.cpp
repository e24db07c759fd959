#include "md/reorder.hpp"

#include "md/force.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "mdremap/remap/device_pattern.hpp"
#include "mdremap/remap/pattern_ops.hpp"
#include "mdremap/remap/reorders.hpp"

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
  remap::RemapOptions o = p.remap.options;
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
  // seed 002 Algorithm 1 tiles the atoms by their positions (k-d tiling).
  remap::ReorderHints hints;
  if (p.remap.reorder == Reorder::Partition) {
    auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), xlocal);
    hints.coords.resize(3 * host.threads);
    for (std::int64_t t = 0; t < host.threads; ++t) {
      hints.coords[3 * t] = static_cast<float>(hx(t).x);
      hints.coords[3 * t + 1] = static_cast<float>(hx(t).y);
      hints.coords[3 * t + 2] = static_cast<float>(hx(t).z);
    }
  }
  const remap::ThreadPermutation perm = remap::reorder_threads(p.remap, host, hints);
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

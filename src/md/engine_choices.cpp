#include "md/engine_choices.hpp"

#include <type_traits>

#include "md/reorder.hpp"
#include "neighbor/avx512.hpp"  // MDREMAP_HOST_AVX512: the list kind a CPU runs by default
#include "mdremap/types.hpp"

namespace mdremap::md {

Backend Backend::compiled() {
  Backend b;
  b.host = std::is_same_v<ExecSpace, Kokkos::DefaultHostExecutionSpace>;
#ifdef MDREMAP_HOST_AVX512
  b.host_avx512 = true;
#endif
  return b;
}

EngineChoices choose_engine(const MdParams& p, const Backend& b) {
  EngineChoices c;
  c.rlist = p.pairs.max_cutoff() + p.skin;
  c.decomposed = p.exchange_ghosts;
  // A GPU warp reads row j of 32 atoms at once (full list, column-major, no write conflicts).
  // A CPU thread walks one atom's row (row-major): with AVX-512 a full row, 8 neighbours per
  // step (src/md/lj_avx512.hpp; faster than the scalar half list, docs/benchmarks.md); without
  // it, the half list (scalar, Newton's third law).
  // Exchanged ghosts: full lists (a half list would need their forces sent back).
  c.half = !c.decomposed && (p.list == neighbor::ListKind::Half ||
                             (p.list == neighbor::ListKind::Auto && b.host && !b.host_avx512));
  // Atom order: list-cell order on the GPU (a warp's atoms share a cell: the list build's
  // stores coalesce, and the rebuild measured faster than in Hilbert order); Hilbert order on
  // the CPU, which measured no gain from cell order.
  c.sort = p.sort;
  if (c.sort == neighbor::AtomSort::Auto)
    c.sort = b.host ? neighbor::AtomSort::Hilbert : neighbor::AtomSort::Cells;
  c.column_major = p.layout == neighbor::ListLayout::Column ||
                   (p.layout == neighbor::ListLayout::Auto && !b.host);
  // Full-cutoff cells measured faster than half-cutoff ones on the CPU and equal on the GPU
  // (docs/benchmarks.md): fewer, longer cell loops.
  c.bin = p.bin_size > 0 ? p.bin_size : c.rlist;
  // neighbor.list cluster: cluster pairs instead (the plain builder still gives the cell size
  // of the `cells` atom order).
  c.cluster = p.list == neighbor::ListKind::Cluster;
  // parallel.overlap: the per-step ghost update on a stream of its own beside the forces of
  // the atoms that need no ghosts; only a strategy that reads the positions in place can run
  // the forces in two parts (the deck reader refuses `on` with another).
  c.overlap_wanted = c.decomposed && (p.overlap == "on" || (p.overlap == "auto" && !b.host));
  c.overlap_required = c.decomposed && p.overlap == "on";
  // The force kernel's gathers are served by the remap layer, the plain gather included
  // (BRIEF section 5): one force engine whatever remap.mode says.
  PairSetup& ps = c.pair;
  ps.style = p.potential;
  ps.coeffs = p.pairs;
  ps.shift = p.shift;
  ps.half = c.half;
  ps.cluster = c.cluster;
  ps.cluster_newton = p.cluster_newton;
  ps.remap = remap_options(p);
  ps.mode = p.remap.mode;
  ps.auto_path = p.remap.path_auto;
  ps.auto_lanes = p.remap.lanes_auto;
  return c;
}

}  // namespace mdremap::md

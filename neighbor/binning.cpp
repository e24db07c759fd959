#include "neighbor/cells.hpp"

#include <cmath>

namespace mdremap::neighbor {

namespace {
// Atom i's slot in cell order: its cell's first slot plus the atoms of the cell (`filled`, in
// the atomic fill's order) with a smaller index.
template <class View>
KOKKOS_INLINE_FUNCTION int ranked_slot(const View& filled, const View& cell_of, const View& offset,
                                       const int i) {
  const int c = cell_of(i), b = offset(c), e = offset(c + 1);
  int r = b;
  for (int q = b; q < e; ++q) r += filled(q) < i;
  return r;
}
}  // namespace

// Cells tile the periodic box exactly (m cells of len/m per axis, m = floor(len / cell_size)) and
// extend `reach` whole cells beyond each face for the ghosts. A ghost is binned from its owner's
// cell shifted by m cells per box image (integer arithmetic, not its rounded coordinate), so the
// cell offset between atom a and an image of b is exactly minus the offset between b and the
// matching image of a: the half stencil then finds every physical pair from exactly one side.
template <class T, class Space>
void CellBinning<T, Space>::bin(Kokkos::View<const Vec4<T>*, Space> x,
                                const BasicGhostAtoms<Space>& g, const Box<T>& box,
                                double cell_size, double rlist, bool soa) {
  const std::int64_t n = x.extent(0);
  const std::int64_t nlocal = g.nlocal;
  const auto grid = PeriodicCells<T>::make(box, cell_size);
  for (int d = 0; d < 3; ++d) {
    size[d] = double(box.len[d]) / grid.m[d];
    ext[d] = static_cast<int>(std::ceil(rlist / size[d] - 1e-12));
    nbin[d] = grid.m[d] + 2 * ext[d];
  }
  const int nx = nbin[0], ny = nbin[1];
  const int mx = grid.m[0], my = grid.m[1], mz = grid.m[2], ex = ext[0], ey = ext[1], ez = ext[2];
  const int nc = ncells();
  if (bin_count.extent(0) != static_cast<size_t>(nc)) {
    bin_count = Kokkos::View<int*, Space>("bin_count", nc);
    bin_offset = Kokkos::View<int*, Space>("bin_offset", nc + 1);
  } else {
    Kokkos::deep_copy(Space(), bin_count, 0);  // on the stream: no device-wide fences
  }
  if (bin_of.extent(0) < static_cast<size_t>(n)) {
    bin_of = Kokkos::View<int*, Space>("bin_of", n + n / 8);
    permute = Kokkos::View<int*, Space>("bin_permute", n + n / 8);
  }
  auto cell_of = bin_of;
  auto count = bin_count;
  auto offset = bin_offset;
  auto perm = permute;
  auto owner = g.owner;
  auto shift = g.shift;
  const bool images = g.images;
  Kokkos::parallel_for(
      "Neighbor::bin_count", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(const int i) {
        // A ghost from another rank (not an image) is binned where its coordinates put it.
        if (i >= nlocal && !images) {
          const Vec4<T> p = x(i);
          const int c = (grid.coord_beyond(p.x, 0, ex) + ex) +
                        nx * ((grid.coord_beyond(p.y, 1, ey) + ey) +
                              ny * (grid.coord_beyond(p.z, 2, ez) + ez));
          cell_of(i) = c;
          Kokkos::atomic_inc(&count(c));
          return;
        }
        const int o = i < nlocal ? i : owner(i - nlocal);
        const Vec4<T> p = x(o);
        int cx = grid.coord(p.x, 0) + ex;
        int cy = grid.coord(p.y, 1) + ey;
        int cz = grid.coord(p.z, 2) + ez;
        if (i >= nlocal) {
          const int s = shift(i - nlocal);
          cx += (s % 3 - 1) * mx;
          cy += (s / 3 % 3 - 1) * my;
          cz += (s / 9 - 1) * mz;
        }
        const int c = cx + nx * (cy + ny * cz);
        cell_of(i) = c;
        Kokkos::atomic_inc(&count(c));
      });
  using Scan = TileScan<1, Space>;
  offsets_scan_.launch(  // the total is n: no wait
      "Neighbor::bin_scan", nc + 1,
      KOKKOS_LAMBDA(const std::int64_t c) {
        return c < nc ? static_cast<std::uint64_t>(count(c)) : std::uint64_t(0);
      },
      KOKKOS_LAMBDA(const std::int64_t c, const typename Scan::Counts& before,
                    const typename Scan::Counts&) { offset(c) = int(before.n[0]); });
  if (fill_.extent(0) != static_cast<size_t>(nc))
    fill_ = Kokkos::View<int*, Space>("bin_fill", nc);
  else
    Kokkos::deep_copy(Space(), fill_, 0);
  if (filled_.extent(0) < static_cast<size_t>(n))
    filled_ = Kokkos::View<int*, Space>(
        Kokkos::view_alloc("bin_filled", Kokkos::WithoutInitializing), n + n / 8);
  auto fill = fill_;
  auto filled = filled_;
  Kokkos::parallel_for(
      "Neighbor::bin_fill", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(const int i) {
        const int c = cell_of(i);
        filled(offset(c) + Kokkos::atomic_fetch_inc(&fill(c))) = i;
      });
  // The atomic fill's order within a cell depends on scheduling; lists (and force sums) must not,
  // which restarts rely on for bit-identical continuation. Each slot's atom counts the atoms of
  // its cell with a smaller index and moves to that rank (ascending order), with its position:
  // n independent threads, where a thread sorting each cell in place waited on one load after
  // another (the GPU's cells of a list cutoff hold about 18 atoms, so that sort took several
  // times this one).
  if (soa) {
    // Positions in cell order as x, y, z blocks: the host's AVX-512 build (the only reader on
    // this path) loads 8 or 16 coordinates at once instead of gathering them from Vec4 records
    // (measured faster: docs/benchmarks.md, "Figures formerly in code comments").
    if (xsoa.extent(0) < static_cast<size_t>(3 * n))
      xsoa = Kokkos::View<T*, Space>(Kokkos::view_alloc("bin_xsoa", Kokkos::WithoutInitializing),
                                     3 * (n + n / 8));
    const std::int64_t bs = xsoa.extent(0) / 3;
    auto soa_out = xsoa;
    Kokkos::parallel_for(
        "Neighbor::bin_order", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(const int k) {
          const int i = filled(k);
          const int r = ranked_slot(filled, cell_of, offset, i);
          perm(r) = i;
          const Vec4<T> p = x(i);
          soa_out(r) = p.x;
          soa_out(bs + r) = p.y;
          soa_out(2 * bs + r) = p.z;
        });
    return;
  }
  // Positions in cell order: a cell's candidates are one contiguous run of xs.
  if (xs.extent(0) < static_cast<size_t>(n))
    xs = Kokkos::View<Vec4<T>*, Space>(Kokkos::view_alloc("bin_x", Kokkos::WithoutInitializing),
                                       n + n / 8);
  auto xs_out = xs;
  Kokkos::parallel_for(
      "Neighbor::bin_order", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(const int k) {
        const int i = filled(k);
        const int r = ranked_slot(filled, cell_of, offset, i);
        perm(r) = i;
        xs_out(r) = x(i);
      });
}

#define MDREMAP_INSTANTIATE(Space)          \
  template class CellBinning<float, Space>; \
  template class CellBinning<double, Space>;
MDREMAP_NEIGHBOR_FOR_SPACES(MDREMAP_INSTANTIATE)
#undef MDREMAP_INSTANTIATE

}  // namespace mdremap::neighbor

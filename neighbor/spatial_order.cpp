#include "neighbor/spatial_order.hpp"

#include <Kokkos_Sort.hpp>

#include "mdremap/error.hpp"
#include "neighbor/cells.hpp"

namespace mdremap::neighbor {

template <class T, class Space>
Kokkos::View<std::int64_t*, Space> spatial_order(
    nondeduced_t<Kokkos::View<const Vec4<T>*, Space>> x, const Box<T>& box, AtomSort order,
    double cell_size) {
  if (order != AtomSort::Morton && order != AtomSort::Hilbert && order != AtomSort::Cells)
    throw Error("spatial_order: '" + to_string(order) + "' is no atom order");
  const std::int64_t n = x.extent(0);
  Kokkos::View<std::uint64_t*, Space> keys("sort_keys", n);
  Kokkos::View<std::int64_t*, Space> perm("sort_perm", n);
  if (order == AtomSort::Cells) {
    if (!(cell_size > 0)) throw Error("spatial_order: cells need a cell size");
    const auto grid = PeriodicCells<T>::make(box, cell_size);
    Kokkos::parallel_for(
        "Neighbor::cell_keys", Kokkos::RangePolicy<Space>(0, n),
        KOKKOS_LAMBDA(const std::int64_t i) {
          const Vec4<T> p = x(i);
          const T c[3] = {p.x, p.y, p.z};
          std::uint64_t cell = 0;
          for (int d = 2; d >= 0; --d) {
            T r = c[d] - box.lo[d];  // wrapped first: a sort may come before the wrap
            r -= box.len[d] * Kokkos::floor(r * box.inv[d]);
            cell = cell * grid.m[d] + grid.coord(r + box.lo[d], d);
          }
          keys(i) = (cell << 33) | static_cast<std::uint64_t>(i);
          perm(i) = i;
        });
    Kokkos::Experimental::sort_by_key(Space(), keys, perm);
    return perm;
  }
  const bool hilbert = order == AtomSort::Hilbert;
  Kokkos::parallel_for(
      "Neighbor::curve_keys", Kokkos::RangePolicy<Space>(0, n),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const Vec4<T> p = x(i);
        std::uint32_t g[3];
        const T c[3] = {p.x, p.y, p.z};
        for (int d = 0; d < 3; ++d) {
          T r = (c[d] - box.lo[d]) * box.inv[d];
          r -= Kokkos::floor(r);
          int v = static_cast<int>(r * 1024);
          g[d] = static_cast<std::uint32_t>(v < 0 ? 0 : (v > 1023 ? 1023 : v));
        }
        const std::uint64_t k = hilbert ? hilbert3(g[0], g[1], g[2]) : morton3(g[0], g[1], g[2]);
        keys(i) = (k << 33) | static_cast<std::uint64_t>(i);  // unique keys: deterministic order
        perm(i) = i;
      });
  Kokkos::Experimental::sort_by_key(Space(), keys, perm);
  return perm;
}

#define MDREMAP_INSTANTIATE(Space)                                                   \
  template Kokkos::View<std::int64_t*, Space> spatial_order<float, Space>(           \
      Kokkos::View<const Vec4<float>*, Space>, const Box<float>&, AtomSort, double); \
  template Kokkos::View<std::int64_t*, Space> spatial_order<double, Space>(          \
      Kokkos::View<const Vec4<double>*, Space>, const Box<double>&, AtomSort, double);
MDREMAP_NEIGHBOR_FOR_SPACES(MDREMAP_INSTANTIATE)
#undef MDREMAP_INSTANTIATE

}  // namespace mdremap::neighbor

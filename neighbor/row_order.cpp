#include "neighbor/row_order.hpp"

namespace mdremap::neighbor {

template <class Space>
void order_rows_by_key(BasicNeighborList<Space>& list,
                       nondeduced_t<Kokkos::View<const std::int64_t*, Space>> key) {
  auto nbrs = list.neighbors;
  auto counts = list.counts;
  const std::int64_t sj = list.stride_j, si = list.stride_i;
  // Insertion sort in place: rows are short (tens of entries) and, in cell order, already
  // ordered in runs; a thread per row.
  Kokkos::parallel_for(
      "Neighbor::order_rows", Kokkos::RangePolicy<Space>(0, list.n),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const int m = counts(i);
        for (int a = 1; a < m; ++a) {
          const int v = nbrs(a * sj + i * si);
          const std::int64_t kv = key(v);
          int b = a - 1;
          while (b >= 0 && key(nbrs(b * sj + i * si)) > kv) {
            nbrs((b + 1) * sj + i * si) = nbrs(b * sj + i * si);
            --b;
          }
          nbrs((b + 1) * sj + i * si) = v;
        }
      });
}

#define MDREMAP_INSTANTIATE(Space)                                  \
  template void order_rows_by_key<Space>(BasicNeighborList<Space>&, \
                                         Kokkos::View<const std::int64_t*, Space>);
MDREMAP_NEIGHBOR_FOR_SPACES(MDREMAP_INSTANTIATE)
#undef MDREMAP_INSTANTIATE

}  // namespace mdremap::neighbor

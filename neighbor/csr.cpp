// The CSR copy of a neighbour list (row_ptr, col) and its mean row length.
#include "neighbor/neighbor_list.hpp"

namespace mdremap::neighbor {

template <class Space>
void BasicNeighborList<Space>::build_csr() {
  row_ptr = Kokkos::View<std::int64_t*, Space>("row_ptr", n + 1);
  auto rp = row_ptr;
  auto cnt = counts;
  const std::int64_t nn = n;
  Kokkos::parallel_scan(
      "Neighbor::csr_scan", Kokkos::RangePolicy<Space>(0, n + 1),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& acc, const bool final) {
        if (final) rp(i) = acc;
        if (i < nn) acc += cnt(i);
      });
  std::int64_t total = 0;
  Kokkos::deep_copy(total, Kokkos::subview(row_ptr, n));
  col = Kokkos::View<int*, Space>("col", total);
  auto c = col;
  auto nb = neighbors;
  const std::int64_t sj = stride_j, si = stride_i;
  Kokkos::parallel_for(
      "Neighbor::csr_fill", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(const std::int64_t i) {
        for (int j = 0; j < cnt(i); ++j) c(rp(i) + j) = nb(j * sj + i * si);
      });
}

template <class Space>
double BasicNeighborList<Space>::mean_count() const {
  std::int64_t total = 0;
  auto cnt = counts;
  Kokkos::parallel_reduce(
      "Neighbor::mean", Kokkos::RangePolicy<Space>(0, n),
      KOKKOS_LAMBDA(const int i, std::int64_t& s) { s += cnt(i); }, total);
  return n ? double(total) / double(n) : 0.0;
}

#define MDREMAP_INSTANTIATE(Space) template struct BasicNeighborList<Space>;
MDREMAP_NEIGHBOR_FOR_SPACES(MDREMAP_INSTANTIATE)
#undef MDREMAP_INSTANTIATE

}  // namespace mdremap::neighbor

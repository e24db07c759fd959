#include "neighbor/periodic.hpp"

#include "neighbor/spaces.hpp"

namespace mdremap::neighbor {

template <class T, class Space>
void wrap_positions(nondeduced_t<Kokkos::View<Vec4<T>*, Space>> x, const Box<T>& box) {
  Kokkos::parallel_for(
      "Neighbor::wrap", Kokkos::RangePolicy<Space>(0, x.extent(0)), KOKKOS_LAMBDA(const int i) {
        Vec4<T> p = x(i);
        T* c[3] = {&p.x, &p.y, &p.z};
        for (int d = 0; d < 3; ++d) {
          T r = *c[d] - box.lo[d];
          r -= box.len[d] * Kokkos::floor(r * box.inv[d]);
          // Rounding can land exactly on len: fold it back to 0.
          if (r >= box.len[d] || r < T(0)) r = T(0);
          *c[d] = r + box.lo[d];
        }
        x(i) = p;
      });
}

template <class T, class Space>
double max_displacement_sq(nondeduced_t<Kokkos::View<const Vec4<T>*, Space>> x,
                           nondeduced_t<Kokkos::View<const Vec4<T>*, Space>> xhold,
                           const Box<T>& box) {
  double m = 0;
  Kokkos::parallel_reduce(
      "Neighbor::displacement", Kokkos::RangePolicy<Space>(0, x.extent(0)),
      KOKKOS_LAMBDA(const int i, double& mx) {
        T dx = x(i).x - xhold(i).x, dy = x(i).y - xhold(i).y, dz = x(i).z - xhold(i).z;
        box.minimum_image(dx, dy, dz);
        const double r2 = double(dx) * dx + double(dy) * dy + double(dz) * dz;
        if (r2 > mx) mx = r2;
      },
      Kokkos::Max<double>(m));
  return m;
}

#define MDREMAP_INSTANTIATE_T(T, Space)                                                 \
  template void wrap_positions<T, Space>(Kokkos::View<Vec4<T>*, Space>, const Box<T>&); \
  template double max_displacement_sq<T, Space>(                                        \
      Kokkos::View<const Vec4<T>*, Space>, Kokkos::View<const Vec4<T>*, Space>, const Box<T>&);
#define MDREMAP_INSTANTIATE(Space) \
  MDREMAP_INSTANTIATE_T(float, Space) MDREMAP_INSTANTIATE_T(double, Space)
MDREMAP_NEIGHBOR_FOR_SPACES(MDREMAP_INSTANTIATE)
#undef MDREMAP_INSTANTIATE
#undef MDREMAP_INSTANTIATE_T

}  // namespace mdremap::neighbor

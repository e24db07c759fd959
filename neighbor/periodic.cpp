#include "neighbor/periodic.hpp"

#include "neighbor/spaces.hpp"

namespace mdremap::neighbor {

namespace {

// One coordinate into [lo, lo+len); returns the box lengths it moved down by.
template <class T>
KOKKOS_INLINE_FUNCTION int wrap_coordinate(T& c, T lo, T len, T inv) {
  T r = c - lo;
  const T shift = Kokkos::floor(r * inv);
  r -= len * shift;
  int moved = static_cast<int>(shift);
  // Rounding can land exactly on len: fold it back to 0 (one length more when it was len).
  if (r >= len) ++moved;
  if (r >= len || r < T(0)) r = T(0);
  c = r + lo;
  return moved;
}

}  // namespace

template <class T, class Space>
void wrap_positions(nondeduced_t<Kokkos::View<Vec4<T>*, Space>> x, const Box<T>& box) {
  Kokkos::parallel_for(
      "Neighbor::wrap", Kokkos::RangePolicy<Space>(0, x.extent(0)), KOKKOS_LAMBDA(const int i) {
        Vec4<T> p = x(i);
        wrap_coordinate(p.x, box.lo[0], box.len[0], box.inv[0]);
        wrap_coordinate(p.y, box.lo[1], box.len[1], box.inv[1]);
        wrap_coordinate(p.z, box.lo[2], box.len[2], box.inv[2]);
        x(i) = p;
      });
}

template <class T, class Space>
void wrap_positions(nondeduced_t<Kokkos::View<Vec4<T>*, Space>> x, const Box<T>& box,
                    nondeduced_t<Kokkos::View<const std::int64_t*, Space>> id,
                    nondeduced_t<Kokkos::View<int* [3], Space>> image) {
  Kokkos::parallel_for(
      "Neighbor::wrap_images", Kokkos::RangePolicy<Space>(0, x.extent(0)),
      KOKKOS_LAMBDA(const int i) {
        Vec4<T> p = x(i);
        const std::int64_t k = id(i);
        image(k, 0) += wrap_coordinate(p.x, box.lo[0], box.len[0], box.inv[0]);
        image(k, 1) += wrap_coordinate(p.y, box.lo[1], box.len[1], box.inv[1]);
        image(k, 2) += wrap_coordinate(p.z, box.lo[2], box.len[2], box.inv[2]);
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
  template void wrap_positions<T, Space>(Kokkos::View<Vec4<T>*, Space>, const Box<T>&,  \
                                         Kokkos::View<const std::int64_t*, Space>,      \
                                         Kokkos::View<int* [3], Space>);                \
  template double max_displacement_sq<T, Space>(                                        \
      Kokkos::View<const Vec4<T>*, Space>, Kokkos::View<const Vec4<T>*, Space>, const Box<T>&);
#define MDREMAP_INSTANTIATE(Space) \
  MDREMAP_INSTANTIATE_T(float, Space) MDREMAP_INSTANTIATE_T(double, Space)
MDREMAP_NEIGHBOR_FOR_SPACES(MDREMAP_INSTANTIATE)
#undef MDREMAP_INSTANTIATE
#undef MDREMAP_INSTANTIATE_T

}  // namespace mdremap::neighbor

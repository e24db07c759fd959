// compute.msd on the device (md/compute/msd.hpp).
#include "md/compute/msd.hpp"

namespace mdremap::md {

template <class S>
void MsdCompute<S>::reset(const AtomArrays<S>& a, Kokkos::View<const int* [3]> image,
                          const Box<double>& box, std::int64_t natoms) {
  if (reference_.extent(0) != static_cast<std::size_t>(natoms))
    reference_ = Kokkos::View<double* [3]>(
        Kokkos::view_alloc("msd_reference", Kokkos::WithoutInitializing), natoms);
  auto ref = reference_;
  const auto x = a.x;
  const auto id = a.id;
  const double lx = box.len[0], ly = box.len[1], lz = box.len[2];
  Kokkos::parallel_for(
      "Compute::msd_reference", Kokkos::RangePolicy<ExecSpace>(0, a.n),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const std::int64_t k = id(i);
        const Vec4<S> p = x(i);
        ref(k, 0) = double(p.x) + image(k, 0) * lx;
        ref(k, 1) = double(p.y) + image(k, 1) * ly;
        ref(k, 2) = double(p.z) + image(k, 2) * lz;
      });
}

template <class S>
std::array<double, 4> MsdCompute<S>::sample(const AtomArrays<S>& a,
                                            Kokkos::View<const int* [3]> image,
                                            const Box<double>& box, std::int64_t natoms) const {
  const auto ref = reference_;
  const auto x = a.x;
  const auto id = a.id;
  const double lx = box.len[0], ly = box.len[1], lz = box.len[2];
  double sx = 0, sy = 0, sz = 0;
  Kokkos::parallel_reduce(
      "Compute::msd", Kokkos::RangePolicy<ExecSpace>(0, a.n),
      KOKKOS_LAMBDA(const std::int64_t i, double& ax, double& ay, double& az) {
        const std::int64_t k = id(i);
        const Vec4<S> p = x(i);
        const double dx = double(p.x) + image(k, 0) * lx - ref(k, 0);
        const double dy = double(p.y) + image(k, 1) * ly - ref(k, 1);
        const double dz = double(p.z) + image(k, 2) * lz - ref(k, 2);
        ax += dx * dx;
        ay += dy * dy;
        az += dz * dz;
      },
      sx, sy, sz);
  const double n = static_cast<double>(natoms);
  return {sx / n, sy / n, sz / n, (sx + sy + sz) / n};
}

template class MsdCompute<double>;
template class MsdCompute<float>;

}  // namespace mdremap::md

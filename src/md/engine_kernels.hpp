#pragma once
// The MD engine's own device loops over the atoms (md/engine.hpp): the permutation of a
// sort or reorder, the snapshot packing, the displacement check, the list rows' id keys and the
// id sum of a migration check. Free functions: CUDA's extended lambdas cannot live in a private
// member function.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "mdremap/atoms.hpp"
#include "mdremap/types.hpp"
#include "neighbor/ghosts.hpp"

namespace mdremap::md {

template <class S>
void permute_atoms(AtomArrays<S>& a, Kokkos::View<const std::int64_t*> perm) {
  AtomArrays<S> b;
  b.allocate(a.n);
  auto ax = a.x, bx = b.x;
  auto av = a.v, bv = b.v;
  auto at = a.type, bt = b.type;
  auto ai = a.id, bi = b.id;
  // No forces: every sort or reorder comes before a list build and the forces computed after it
  // (set-up, restart points, list builds).
  Kokkos::parallel_for(
      "Sort::permute", Kokkos::RangePolicy<ExecSpace>(0, a.n), KOKKOS_LAMBDA(const std::int64_t k) {
        const std::int64_t i = perm(k);
        bx(k) = ax(i);
        for (int d = 0; d < 3; ++d) bv(k, d) = av(i, d);
        bt(k) = at(i);
        bi(k) = ai(i);
      });
  a = b;
}

// Snapshot packing on the device: xyz interleaved in double, so each array is one copy out.
// x_a = ctr_a + (x_a - ctr_a) f_a: the atoms follow a box scaled about its centre (a barostat's
// dilation, integrators::Cell::dilate).
template <class S>
void dilate_positions(Kokkos::View<Vec4<S>*> x, std::int64_t n, const double ctr[3],
                      const double f[3]) {
  const double cx = ctr[0], cy = ctr[1], cz = ctr[2], fx = f[0], fy = f[1], fz = f[2];
  Kokkos::parallel_for(
      "Integrate::dilate", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(const int i) {
        Vec4<S> p = x(i);
        p.x = static_cast<S>(cx + (p.x - cx) * fx);
        p.y = static_cast<S>(cy + (p.y - cy) * fy);
        p.z = static_cast<S>(cz + (p.z - cz) * fz);
        x(i) = p;
      });
}

// dilate_positions(c1, f1), a drift by dt v, dilate_positions(c2, f2): one pass, each step
// rounded as in its own kernel (integrators::drift's fused multiply-add), so bit-identical.
template <class S>
void dilate_drift_positions(Kokkos::View<Vec4<S>*> x, Kokkos::View<const S* [3]> v, std::int64_t n,
                            const double c1[3], const double f1[3], double dt, const double c2[3],
                            const double f2[3]) {
  const double ax = c1[0], ay = c1[1], az = c1[2], fx = f1[0], fy = f1[1], fz = f1[2];
  const double bx = c2[0], by = c2[1], bz = c2[2], gx = f2[0], gy = f2[1], gz = f2[2];
  const S h = static_cast<S>(dt);
  Kokkos::parallel_for(
      "Integrate::dilate_drift", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(const int i) {
        Vec4<S> p = x(i);
        p.x = static_cast<S>(ax + (p.x - ax) * fx);
        p.y = static_cast<S>(ay + (p.y - ay) * fy);
        p.z = static_cast<S>(az + (p.z - az) * fz);
        p.x = Kokkos::fma(h, v(i, 0), p.x);
        p.y = Kokkos::fma(h, v(i, 1), p.y);
        p.z = Kokkos::fma(h, v(i, 2), p.z);
        p.x = static_cast<S>(bx + (p.x - bx) * gx);
        p.y = static_cast<S>(by + (p.y - by) * gy);
        p.z = static_cast<S>(bz + (p.z - bz) * gz);
        x(i) = p;
      });
}

template <class S>
void pack_positions(Kokkos::View<double*> out, Kokkos::View<const Vec4<S>*> x) {
  Kokkos::parallel_for(
      "Snapshot::pack_x", Kokkos::RangePolicy<ExecSpace>(0, x.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t i) {
        out(3 * i) = x(i).x;
        out(3 * i + 1) = x(i).y;
        out(3 * i + 2) = x(i).z;
      });
}
template <class S>
void pack_vectors(Kokkos::View<double*> out, Kokkos::View<const S* [3]> a) {
  Kokkos::parallel_for(
      "Snapshot::pack_vec", Kokkos::RangePolicy<ExecSpace>(0, a.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t i) {
        for (int d = 0; d < 3; ++d) out(3 * i + d) = a(i, d);
      });
}

// Each slot's image counts (kept by atom id) interleaved, for snapshots in slot order.
inline void pack_images(Kokkos::View<int*> out, Kokkos::View<const int* [3]> image,
                        Kokkos::View<const std::int64_t*> id, std::int64_t n) {
  Kokkos::parallel_for(
      "Snapshot::pack_image", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const std::int64_t i) {
        for (int d = 0; d < 3; ++d) out(3 * i + d) = image(id(i), d);
      });
}

// The largest squared displacement since the last list build (minimum image), or +inf when any
// position or velocity is not finite.
template <class C, class S>
double max_displacement_sq_or_inf(Kokkos::View<const Vec4<C>*> x, Kokkos::View<const Vec4<C>*> hold,
                                  Kokkos::View<const S* [3]> v, const Box<C> box, std::int64_t n) {
  double m = 0;
  Kokkos::parallel_reduce(
      "Neighbor::displacement_check", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const std::int64_t i, double& mx) {
        const Vec4<C> p = x(i), q = hold(i);
        const bool finite = Kokkos::isfinite(p.x) && Kokkos::isfinite(p.y) &&
                            Kokkos::isfinite(p.z) && Kokkos::isfinite(v(i, 0)) &&
                            Kokkos::isfinite(v(i, 1)) && Kokkos::isfinite(v(i, 2));
        double r2 = Kokkos::Experimental::infinity_v<double>;
        if (finite) {
          C dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
          box.minimum_image(dx, dy, dz);
          r2 = double(dx) * dx + double(dy) * dy + double(dz) * dz;
        }
        if (r2 > mx) mx = r2;
      },
      Kokkos::Max<double>(m));
  return m;
}

// The atom id of every entry of the force kernel's positions: local atoms, then periodic images
// (their owner's id): the key of neighbor.row_order = id.
inline Kokkos::View<std::int64_t*> image_ids(Kokkos::View<const std::int64_t*> id,
                                             const neighbor::GhostAtoms& g) {
  Kokkos::View<std::int64_t*> key(Kokkos::view_alloc("row_key", Kokkos::WithoutInitializing),
                                  g.nlocal + g.nghost);
  const std::int64_t n = g.nlocal;
  auto owner = g.owner;
  Kokkos::parallel_for(
      "Neighbor::image_ids", Kokkos::RangePolicy<ExecSpace>(0, n + g.nghost),
      KOKKOS_LAMBDA(const std::int64_t k) { key(k) = k < n ? id(k) : id(owner(k - n)); });
  return key;
}

// e[i] += per_type[type[i]]: a per-type share added to each atom (the tail correction's energy).
inline void add_type_values(Kokkos::View<double*> e, Kokkos::View<const int*> type,
                            const TypeTable<double> per_type) {
  Kokkos::parallel_for(
      "Compute::add_type_values", Kokkos::RangePolicy<ExecSpace>(0, e.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t i) { e(i) += per_type[type(i)]; });
}

inline std::int64_t id_sum(Kokkos::View<const std::int64_t*> id, std::int64_t n) {
  std::int64_t sum = 0;
  Kokkos::parallel_reduce(
      "Comm::id_sum", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& acc) { acc += id(i); }, sum);
  return sum;
}

}  // namespace mdremap::md

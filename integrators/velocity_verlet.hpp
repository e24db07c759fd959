#pragma once
// Velocity-Verlet kernels shared by all integrators: half kick and drift.
#include "integrators/integrator.hpp"

namespace mdremap::integrators {

template <class S>
void half_kick(AtomArrays<S>& a, const TypeTable<S>& mass, double dt) {
  auto v = a.v;
  auto f = a.f;
  auto type = a.type;
  const S dtf = static_cast<S>(0.5 * dt);
  Kokkos::parallel_for(
      "Integrate::half_kick", Kokkos::RangePolicy<ExecSpace>(0, a.n), KOKKOS_LAMBDA(const int i) {
        const S s = dtf / mass[type(i)];
        v(i, 0) += s * f(i, 0);
        v(i, 1) += s * f(i, 1);
        v(i, 2) += s * f(i, 2);
      });
}

template <class S>
void drift(AtomArrays<S>& a, double dt) {
  auto x = a.x;
  auto v = a.v;
  const S h = static_cast<S>(dt);
  Kokkos::parallel_for(
      "Integrate::drift", Kokkos::RangePolicy<ExecSpace>(0, a.n), KOKKOS_LAMBDA(const int i) {
        Vec4<S> p = x(i);
        p.x += h * v(i, 0);
        p.y += h * v(i, 1);
        p.z += h * v(i, 2);
        x(i) = p;
      });
}

template <class S>
void scale_velocities(AtomArrays<S>& a, double factor) {
  auto v = a.v;
  const S s = static_cast<S>(factor);
  Kokkos::parallel_for(
      "Integrate::scale_v", Kokkos::RangePolicy<ExecSpace>(0, a.n), KOKKOS_LAMBDA(const int i) {
        v(i, 0) *= s;
        v(i, 1) *= s;
        v(i, 2) *= s;
      });
}

}  // namespace mdremap::integrators

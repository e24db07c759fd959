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
        v(i, 0) = Kokkos::fma(s, f(i, 0), v(i, 0));
        v(i, 1) = Kokkos::fma(s, f(i, 1), v(i, 1));
        v(i, 2) = Kokkos::fma(s, f(i, 2), v(i, 2));
      });
}

// `kicks` half kicks with the current forces, then the drift, in one pass: kicks = 1 is the
// initial integrate, kicks = 2 the previous step's final kick fused with it. Each update is an
// explicit fused multiply-add, as in half_kick and drift, so the results are bit-identical to
// the separate kernels whatever the compiler contracts (with `v += s * f` it contracted the two
// paths differently in float): which steps fuse (thermo and output steps do not) then cannot
// change a trajectory, and restarts are independent of the thermo and output intervals.
template <class S>
void kick_drift(AtomArrays<S>& a, const TypeTable<S>& mass, double dt, int kicks) {
  auto x = a.x;
  auto v = a.v;
  auto f = a.f;
  auto type = a.type;
  const S dtf = static_cast<S>(0.5 * dt);
  const S h = static_cast<S>(dt);
  Kokkos::parallel_for(
      "Integrate::kick_drift", Kokkos::RangePolicy<ExecSpace>(0, a.n), KOKKOS_LAMBDA(const int i) {
        const S s = dtf / mass[type(i)];
        const S f0 = f(i, 0), f1 = f(i, 1), f2 = f(i, 2);
        S v0 = v(i, 0), v1 = v(i, 1), v2 = v(i, 2);
        for (int k = 0; k < kicks; ++k) {
          v0 = Kokkos::fma(s, f0, v0);
          v1 = Kokkos::fma(s, f1, v1);
          v2 = Kokkos::fma(s, f2, v2);
        }
        v(i, 0) = v0;
        v(i, 1) = v1;
        v(i, 2) = v2;
        Vec4<S> p = x(i);
        p.x = Kokkos::fma(h, v0, p.x);
        p.y = Kokkos::fma(h, v1, p.y);
        p.z = Kokkos::fma(h, v2, p.z);
        x(i) = p;
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
        p.x = Kokkos::fma(h, v(i, 0), p.x);
        p.y = Kokkos::fma(h, v(i, 1), p.y);
        p.z = Kokkos::fma(h, v(i, 2), p.z);
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

// A half kick and a per-axis velocity scaling in one pass, in the order `order` gives: the
// same arithmetic per atom as half_kick and scale_velocities one after the other (each rounded
// as there), so the results are bit-identical to the two kernels.
enum class KickOrder { ScaleThenKick, KickThenScale };
template <class S>
void kick_and_scale(AtomArrays<S>& a, const TypeTable<S>& mass, double dt, const double f[3],
                    KickOrder order) {
  auto v = a.v;
  auto force = a.f;
  auto type = a.type;
  const S dtf = static_cast<S>(0.5 * dt);
  const S fs[3] = {static_cast<S>(f[0]), static_cast<S>(f[1]), static_cast<S>(f[2])};
  const S fx = fs[0], fy = fs[1], fz = fs[2];
  const bool scale_first = order == KickOrder::ScaleThenKick;
  Kokkos::parallel_for(
      "Integrate::kick_scale_v", Kokkos::RangePolicy<ExecSpace>(0, a.n),
      KOKKOS_LAMBDA(const int i) {
        const S s = dtf / mass[type(i)];
        S v0 = v(i, 0), v1 = v(i, 1), v2 = v(i, 2);
        if (scale_first) {
          v0 *= fx;
          v1 *= fy;
          v2 *= fz;
        }
        v0 = Kokkos::fma(s, force(i, 0), v0);
        v1 = Kokkos::fma(s, force(i, 1), v1);
        v2 = Kokkos::fma(s, force(i, 2), v2);
        if (!scale_first) {
          v0 *= fx;
          v1 *= fy;
          v2 *= fz;
        }
        v(i, 0) = v0;
        v(i, 1) = v1;
        v(i, 2) = v2;
      });
}

// v_a *= f[a] per axis.
template <class S>
void scale_velocities(AtomArrays<S>& a, const double f[3]) {
  auto v = a.v;
  const S fx = static_cast<S>(f[0]), fy = static_cast<S>(f[1]), fz = static_cast<S>(f[2]);
  Kokkos::parallel_for(
      "Integrate::scale_v_axes", Kokkos::RangePolicy<ExecSpace>(0, a.n),
      KOKKOS_LAMBDA(const int i) {
        v(i, 0) *= fx;
        v(i, 1) *= fy;
        v(i, 2) *= fz;
      });
}

}  // namespace mdremap::integrators

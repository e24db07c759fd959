// FIRE 2.0 (Guenole, Noehring, Vaid, Houlle, Xie, Prakash, Bitzek, Comput. Mater. Sci. 175
// (2020) 109584, Algorithm 2) with the semi-implicit Euler integrator, the half step back on an
// uphill move and the initial delay (Sec. 3), in the order LAMMPS' `min_style fire` takes its
// steps: the same start, parameters and stopping rules reach the same minimum in the same
// number of iterations.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "md/minimize/minimizer.hpp"
#include "md/minimize/vector_ops.hpp"

namespace mdremap::md {

namespace {

// LAMMPS' `min_modify vdfmax`: this many uphill iterations in a row end the minimisation.
constexpr int kMaxUphillInARow = 2000;
constexpr double kEpsEnergy = 1e-8;  // the energy criterion's floor (LAMMPS' EPS_ENERGY)

template <class S>
using Vectors = minimize_ops::Vectors<S>;

// P = v . f, v . v and f . f in one pass.
template <class S>
void power(const Vectors<S>& v, const Vectors<S>& f, std::int64_t n, double& vf, double& vv,
           double& ff) {
  double a = 0, b = 0, c = 0;
  Kokkos::parallel_reduce(
      "Minimize::fire_power", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const int i, double& x, double& y, double& z) {
        for (int d = 0; d < 3; ++d) {
          const double vi = v(i, d), fi = f(i, d);
          x += vi * fi;
          y += vi * vi;
          z += fi * fi;
        }
      },
      a, b, c);
  vf = a, vv = b, ff = c;
}

// The largest velocity component dt f / m of a step from rest (limits the first step's size).
template <class S>
double max_rest_velocity(const Vectors<S>& f, const Kokkos::View<int*>& type,
                         const TypeTable<S>& mass, double dt, std::int64_t n) {
  double m = 0;
  Kokkos::parallel_reduce(
      "Minimize::fire_rest_velocity", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const int i, double& mx) {
        const double dtfm = dt / double(mass[type(i)]);
        for (int d = 0; d < 3; ++d) {
          const double v = Kokkos::fabs(dtfm * double(f(i, d)));
          if (v > mx) mx = v;
        }
      },
      Kokkos::Max<double>(m));
  return m;
}

// The semi-implicit Euler step's kick: v += dt f / m, then (downhill) the mixing
// v = (1 - alpha) v + alpha |v| f / |f| (scale1, scale2). Returns the largest new component.
template <class S>
double kick(const AtomArrays<S>& a, const Vectors<S>& v, const TypeTable<S>& mass, double dt,
            bool mix, double scale1, double scale2) {
  auto f = a.f;
  auto type = a.type;
  double vmax = 0;
  Kokkos::parallel_reduce(
      "Minimize::fire_kick", Kokkos::RangePolicy<ExecSpace>(0, a.n),
      KOKKOS_LAMBDA(const int i, double& mx) {
        const double dtfm = dt / double(mass[type(i)]);
        for (int d = 0; d < 3; ++d) {
          const double fi = f(i, d);
          double vi = double(v(i, d)) + dtfm * fi;
          if (mix) vi = scale1 * vi + scale2 * fi;
          v(i, d) = static_cast<S>(vi);
          const double av = Kokkos::fabs(double(v(i, d)));
          if (!(av <= mx)) mx = av;
        }
      },
      Kokkos::Max<double>(vmax));
  return vmax;
}

// Its drift: x += dt v.
template <class S>
void drift(AtomArrays<S>& a, const Vectors<S>& v, double dt) {
  auto x = a.x;
  Kokkos::parallel_for(
      "Minimize::fire_drift", Kokkos::RangePolicy<ExecSpace>(0, a.n), KOKKOS_LAMBDA(const int i) {
        Vec4<S> p = x(i);
        p.x = static_cast<S>(double(p.x) + dt * double(v(i, 0)));
        p.y = static_cast<S>(double(p.y) + dt * double(v(i, 1)));
        p.z = static_cast<S>(double(p.z) + dt * double(v(i, 2)));
        x(i) = p;
      });
}

// The inertia correction of an uphill move (Sec. 3.2): x -= dt v / 2 (no coordinate by more
// than dmax), then v = 0.
template <class S>
void step_back(AtomArrays<S>& a, const Vectors<S>& v, double dt, double dmax, bool back) {
  auto x = a.x;
  const double vmax = back ? minimize_ops::max_abs(v, a.n) : 0.0;
  const double h = 0.5 * dt * vmax > dmax ? dmax / vmax : 0.5 * dt;
  Kokkos::parallel_for(
      "Minimize::fire_step_back", Kokkos::RangePolicy<ExecSpace>(0, a.n),
      KOKKOS_LAMBDA(const int i) {
        if (back) {
          Vec4<S> p = x(i);
          p.x = static_cast<S>(double(p.x) - h * double(v(i, 0)));
          p.y = static_cast<S>(double(p.y) - h * double(v(i, 1)));
          p.z = static_cast<S>(double(p.z) - h * double(v(i, 2)));
          x(i) = p;
        }
        v(i, 0) = v(i, 1) = v(i, 2) = S(0);
      });
}

}  // namespace

template <class S>
MinimizeResult minimize_fire(EnergySurface<S>& surface, const MinimizeSettings& m, double dt0,
                             MinimizeObserver* obs) {
  AtomArrays<S>& a = surface.atoms();
  const std::int64_t n = a.n;
  const double natoms = double(surface.natoms());
  const TypeTable<S> mass = surface.masses();
  // FIRE's velocities are its own: the atoms' velocities stay those the dynamics starts with.
  Vectors<S> v = vectors_alloc<S>("fire_v", n);
  MinimizeResult r;
  double ecurrent = surface.energy_forces() / natoms, eprevious = ecurrent;
  r.evaluations = 0;
  r.e_initial = ecurrent;
  r.fnorm_initial = std::sqrt(minimize_ops::dot(a.f, a.f, n));
  r.fmax_initial = minimize_ops::max_abs(a.f, n);
  if (obs) obs->iteration(0, ecurrent, r.fnorm_initial);

  double dt = dt0, alpha = m.alpha0;
  const double dtmax = m.tmax * dt0, dtmin = m.tmin * dt0;
  std::int64_t last_uphill = 0;  // the iteration of the last uphill move (the start counts)
  int uphill_in_a_row = 0;
  bool from_rest = true;  // v = 0: this step's size is set from the forces
  r.stop = MinimizeStop::MaxIterations;
  for (std::int64_t it = 1; it <= m.max_iterations; ++it) {
    r.iterations = it;
    double vf, vv, ff;
    power(v, a.f, n, vf, vv, ff);
    double scale1 = 0, scale2 = 0;
    const bool downhill = vf > 0.0;
    if (downhill) {
      uphill_in_a_row = 0;
      scale1 = 1.0 - alpha;
      scale2 = ff <= 1e-20 ? 0.0 : alpha * std::sqrt(vv / ff);
      if (it - last_uphill > m.delay) {
        dt = std::min(dt * m.dt_grow, dtmax);
        alpha *= m.alpha_shrink;
      }
    } else {
      last_uphill = it;
      // The initial delay: no dt or alpha change in the first N_delay iterations.
      if (it >= m.delay) {
        alpha = m.alpha0;
        if (dt * m.dt_shrink >= dtmin) dt *= m.dt_shrink;
      }
      if (++uphill_in_a_row > kMaxUphillInARow) {
        r.stop = MinimizeStop::UphillTooOften;
        break;
      }
      step_back(a, v, dt, m.dmax, m.half_step_back);
      from_rest = true;
    }
    // From rest the forces are those at the positions after the step back.
    double vmax;
    if (from_rest) {
      surface.energy_forces();
      ++r.evaluations;
      vmax = max_rest_velocity(a.f, a.type, mass, dt, n);
    } else {
      vmax = minimize_ops::max_abs(v, n);
    }
    // No coordinate moves more than dmax in this step: the step is limited by the velocity
    // before the kick (as LAMMPS), and the drift by the velocity after it, which only binds
    // where the forces are so large (overlapping atoms) that the kick alone would carry an atom
    // past dmax (LAMMPS' atoms are then lost).
    const double dtv = dt * vmax > m.dmax ? m.dmax / vmax : dt;
    const double vnew = kick(a, v, mass, dtv, downhill, scale1, scale2);
    drift(a, v, dtv * vnew > m.dmax ? m.dmax / vnew : dtv);
    eprevious = ecurrent;
    ecurrent = surface.energy_forces() / natoms;
    ++r.evaluations;
    from_rest = false;
    const double f2 = minimize_ops::dot(a.f, a.f, n);
    if (obs && m.thermo > 0 && it % m.thermo == 0) obs->iteration(it, ecurrent, std::sqrt(f2));
    if (m.etol > 0.0 && it - last_uphill > m.delay &&
        std::fabs(ecurrent - eprevious) <
            m.etol * 0.5 * (std::fabs(ecurrent) + std::fabs(eprevious) + kEpsEnergy)) {
      r.stop = MinimizeStop::EnergyTolerance;
      break;
    }
    if (m.ftol > 0.0 && f2 < m.ftol * m.ftol) {
      r.stop = MinimizeStop::ForceTolerance;
      break;
    }
    if (r.evaluations >= m.max_evaluations) {
      r.stop = MinimizeStop::MaxEvaluations;
      break;
    }
  }
  r.e_next_to_last = eprevious;
  r.e_final = ecurrent;
  r.fnorm_final = std::sqrt(minimize_ops::dot(a.f, a.f, n));
  r.fmax_final = minimize_ops::max_abs(a.f, n);
  return r;
}

template MinimizeResult minimize_fire<float>(EnergySurface<float>&, const MinimizeSettings&, double,
                                             MinimizeObserver*);
template MinimizeResult minimize_fire<double>(EnergySurface<double>&, const MinimizeSettings&,
                                              double, MinimizeObserver*);

}  // namespace mdremap::md

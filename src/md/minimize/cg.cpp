// Polak-Ribiere conjugate gradients with a quadratic line search, as LAMMPS' default
// `min_style cg` with `min_modify line quadratic` (Nocedal and Wright, Numerical Optimization,
// 2nd ed., Sec. 5.2 for the Polak-Ribiere update with beta clipped at zero; the line search
// backtracks from the step that moves no coordinate more than dmax (their Procedure 3.1) and
// takes the secant step to a zero of the directional force once the energy change is
// quadratic to 10%). The same start, parameters and stopping rules reach the same minimum.
#include <algorithm>
#include <cmath>

#include "md/minimize/minimizer.hpp"
#include "md/minimize/vector_ops.hpp"

namespace mdremap::md {

namespace {

constexpr double kEpsEnergy = 1e-8;      // the energy criterion's floor
constexpr double kAlphaMax = 1.0;        // no longer step than this along h
constexpr double kAlphaReduce = 0.5;     // backtracking factor
constexpr double kBacktrackSlope = 0.4;  // sufficient decrease (Armijo) factor
constexpr double kQuadraticTol = 0.1;    // relative error allowed of the quadratic model
constexpr double kEnergyMachine = 1e-8;  // energy changes below this are noise
constexpr double kEpsQuad = 1e-28;       // vanishing directional forces

template <class S>
using Vectors = minimize_ops::Vectors<S>;

// g = f, h = g + beta h.
template <class S>
void new_direction(const Vectors<S>& g, const Vectors<S>& h, const Vectors<S>& f, double beta,
                   std::int64_t n) {
  const S b = static_cast<S>(beta);
  Kokkos::parallel_for(
      "Minimize::cg_direction", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(const int i) {
        for (int d = 0; d < 3; ++d) {
          g(i, d) = f(i, d);
          h(i, d) = g(i, d) + b * h(i, d);
        }
      });
}

template <class S>
class ConjugateGradient {
 public:
  ConjugateGradient(EnergySurface<S>& s, const MinimizeSettings& m)
      : s_(s),
        m_(m),
        a_(s.atoms()),
        n_(a_.n),
        natoms_(double(s.natoms())),
        x0_(vectors_alloc<S>("cg_x0", n_)),
        g_(vectors_alloc<S>("cg_g", n_)),
        h_(vectors_alloc<S>("cg_h", n_)) {}

  MinimizeResult run(MinimizeObserver* obs) {
    MinimizeResult r;
    ecurrent_ = s_.energy_forces() / natoms_;
    double eprevious = ecurrent_;
    r.e_initial = ecurrent_;
    r.fnorm_initial = std::sqrt(minimize_ops::dot(a_.f, a_.f, n_));
    r.fmax_initial = minimize_ops::max_abs(a_.f, n_);
    if (obs) obs->iteration(0, ecurrent_, r.fnorm_initial);
    // Restarted along the force every 3N iterations (CG's conjugacy holds for that many).
    const std::int64_t restart = std::max<std::int64_t>(1, 3 * s_.natoms());
    new_direction(g_, h_, a_.f, 0.0, n_);
    double gg = minimize_ops::dot(a_.f, a_.f, n_);
    r.stop = MinimizeStop::MaxIterations;
    for (std::int64_t it = 1; it <= m_.max_iterations; ++it) {
      r.iterations = it;
      eprevious = ecurrent_;
      const MinimizeStop fail = line_search(r.alpha_final);
      if (fail != MinimizeStop::MaxIterations) {
        r.stop = fail;
        break;
      }
      if (evaluations_ >= m_.max_evaluations) {
        r.stop = MinimizeStop::MaxEvaluations;
        break;
      }
      if (std::fabs(ecurrent_ - eprevious) <
          m_.etol * 0.5 * (std::fabs(ecurrent_) + std::fabs(eprevious) + kEpsEnergy)) {
        r.stop = MinimizeStop::EnergyTolerance;
        break;
      }
      double ff, fg;
      minimize_ops::dot2(a_.f, g_, n_, ff, fg);
      if (obs && m_.thermo > 0 && it % m_.thermo == 0) obs->iteration(it, ecurrent_, std::sqrt(ff));
      if (m_.ftol > 0.0 && ff < m_.ftol * m_.ftol) {
        r.stop = MinimizeStop::ForceTolerance;
        break;
      }
      double beta = std::max(0.0, (ff - fg) / gg);
      if ((it + 1) % restart == 0) beta = 0.0;
      gg = ff;
      new_direction(g_, h_, a_.f, beta, n_);
      // A direction that is not downhill starts again along the force.
      if (minimize_ops::dot(g_, h_, n_) <= 0.0) new_direction(g_, h_, a_.f, 0.0, n_);
    }
    r.evaluations = evaluations_;
    r.e_next_to_last = eprevious;
    r.e_final = ecurrent_;
    r.fnorm_final = std::sqrt(minimize_ops::dot(a_.f, a_.f, n_));
    r.fmax_final = minimize_ops::max_abs(a_.f, n_);
    return r;
  }

 private:
  // x = x0 + alpha h and the energy there (per atom); x0 follows a wrap of x.
  double alpha_step(double alpha) {
    minimize_ops::step_along(a_.x, x0_, h_, alpha, n_);
    ++evaluations_;
    const double e = s_.energy_forces() / natoms_;
    if (s_.wrapped()) minimize_ops::follow_wrap(x0_, a_.x, s_.box(), n_);
    return e;
  }

  // The quadratic line search from the current x along h; MaxIterations means success (the
  // minimisation goes on), any other value why it stops. Ends with x, f and ecurrent_ at the
  // point taken (the start where it failed).
  MinimizeStop line_search(double& alpha) {
    const double eoriginal = ecurrent_;
    const double fh0 = minimize_ops::dot(a_.f, h_, n_) / natoms_;
    if (fh0 <= 0.0) return MinimizeStop::NotDownhill;
    const double hmax = minimize_ops::max_abs(h_, n_);
    if (hmax == 0.0) return MinimizeStop::ZeroForce;
    const double alphamax = std::min(kAlphaMax, m_.dmax / hmax);
    minimize_ops::store_positions(x0_, a_.x, n_);
    alpha = alphamax;
    double fhprev = fh0, engprev = eoriginal, alphaprev = 0.0;
    while (true) {
      ecurrent_ = alpha_step(alpha);
      double ff, fh;
      minimize_ops::dot2(a_.f, h_, n_, ff, fh);
      fh /= natoms_;
      const double delfh = fh - fhprev;
      if (std::fabs(fh) < kEpsQuad || std::fabs(delfh) < kEpsQuad) {
        ecurrent_ = alpha_step(0.0);
        return MinimizeStop::ZeroQuadratic;
      }
      // The energy change the quadratic model predicts from the two directional forces.
      const double relerr =
          std::fabs(1.0 - (0.5 * (alpha - alphaprev) * (fh + fhprev) + ecurrent_) / engprev);
      const double alpha0 = alpha - (alpha - alphaprev) * fh / delfh;
      if (relerr <= kQuadraticTol && alpha0 > 0.0 && alpha0 < alphamax) {
        ecurrent_ = alpha_step(alpha0);
        if (ecurrent_ - eoriginal < kEnergyMachine) {
          alpha = alpha0;
          return MinimizeStop::MaxIterations;
        }
      }
      const double de_ideal = -kBacktrackSlope * alpha * fh0;
      if (ecurrent_ - eoriginal <= de_ideal) return MinimizeStop::MaxIterations;
      fhprev = fh;
      engprev = ecurrent_;
      alphaprev = alpha;
      alpha *= kAlphaReduce;
      if (alpha <= 0.0 || de_ideal >= -kEnergyMachine) {
        ecurrent_ = alpha_step(0.0);
        alpha = 0.0;
        return MinimizeStop::ZeroAlpha;
      }
    }
  }

  EnergySurface<S>& s_;
  const MinimizeSettings& m_;
  AtomArrays<S>& a_;
  std::int64_t n_;
  double natoms_;
  Vectors<S> x0_, g_, h_;  // the line search's start, the last force, the search direction
  double ecurrent_ = 0;
  std::int64_t evaluations_ = 0;
};

}  // namespace

template <class S>
MinimizeResult minimize_cg(EnergySurface<S>& surface, const MinimizeSettings& settings,
                           MinimizeObserver* obs) {
  ConjugateGradient<S> cg(surface, settings);
  return cg.run(obs);
}

template MinimizeResult minimize_cg<float>(EnergySurface<float>&, const MinimizeSettings&,
                                           MinimizeObserver*);
template MinimizeResult minimize_cg<double>(EnergySurface<double>&, const MinimizeSettings&,
                                            MinimizeObserver*);

}  // namespace mdremap::md

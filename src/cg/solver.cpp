#include "cg/solver.hpp"

#include <cmath>

#include "mdremap/remap/device_pattern.hpp"

namespace mdremap::cg {

namespace {

using Range = Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>;
using View = Kokkos::View<double*>;
using CView = Kokkos::View<const double*>;

// One kernel for the iteration's vector work (unpreconditioned, u = r):
// p = r + beta p; s = w + beta s; x += alpha p; r -= alpha s.
struct UpdatePlain {
  View p, s, x, r;
  CView w;
  double alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t) const {
    const double pt = r(t) + beta * p(t);
    const double st = w(t) + beta * s(t);
    p(t) = pt;
    s(t) = st;
    x(t) += alpha * pt;
    r(t) -= alpha * st;
  }
};

// Jacobi: the same with p = u + beta p, then u = r / diag, and ||r||^2 reduced alongside.
struct UpdateJacobi {
  View p, s, x, r, u;
  CView w, dinv;
  double alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t, double& rr) const {
    const double pt = u(t) + beta * p(t);
    const double st = w(t) + beta * s(t);
    p(t) = pt;
    s(t) = st;
    x(t) += alpha * pt;
    const double rt = r(t) - alpha * st;
    r(t) = rt;
    u(t) = dinv(t) * rt;
    rr += rt * rt;
  }
};

double dot(CView a, CView b) {
  double s = 0;
  Kokkos::parallel_reduce(
      "CG::dot", Range(0, a.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t t, double& acc) { acc += a(t) * b(t); }, s);
  return s;
}

View vec(const char* name, std::int64_t n) {
  return View(std::string(name), n);  // zero-initialised
}

}  // namespace

CgResult cg_solve(CgSpmv& op, const DeviceCsr& a, CView b, View x, const CgOptions& o,
                  const std::function<void(std::int64_t, double)>& on_iteration) {
  const std::int64_t n = a.rows;
  CgResult res;
  Kokkos::fence();
  Kokkos::Timer total;
  Kokkos::deep_copy(x, 0.0);
  View r = vec("cg::r", n), p = vec("cg::p", n), s = vec("cg::s", n), w = vec("cg::w", n);
  Kokkos::deep_copy(r, b);
  View u = r, dinv;
  if (o.jacobi) {
    dinv = inverse_diagonal(a);
    u = vec("cg::u", n);
    auto uu = u, rr = r, di = dinv;
    Kokkos::parallel_for(
        "CG::precondition", Range(0, n),
        KOKKOS_LAMBDA(const std::int64_t t) { uu(t) = di(t) * rr(t); });
  }
  // ||r||^2 of a Jacobi update lands in host-pinned memory without a synchronisation of its own;
  // the next SpMV's blocking reduce orders it.
  Kokkos::View<double, Kokkos::SharedHostPinnedSpace> rr_pinned("cg::rr");
  const double bb = dot(b, b);
  const double tol2 = o.tolerance * o.tolerance * bb;

  Kokkos::fence();
  Kokkos::Timer first_spmv;
  remap::Sums2 d = op.apply_dots(u, r, w);  // blocks: the dots reach the host
  res.first_spmv_seconds = first_spmv.seconds();
  double gamma = d.s1;
  double rr = o.jacobi ? dot(r, r) : gamma;
  res.rel_residual = bb > 0 ? std::sqrt(rr / bb) : 0.0;
  // Ended before the iterations: auto, still deciding, decides now.
  const auto ended_at_start = [&](const char* stop) {
    res.stop = stop;
    op.solve_ended(0);
    res.total_seconds = total.seconds();
    return res;
  };
  if (rr <= tol2) {
    res.converged = true;
    return ended_at_start("converged");
  }
  double delta = d.s0;
  if (!std::isfinite(delta) || !std::isfinite(gamma))
    return ended_at_start("non-finite (the first SpMV gave NaN or Inf)");
  if (!(delta > 0))
    return ended_at_start(
        "breakdown (u^T A u <= 0 at the start: the matrix is not positive definite)");
  double alpha = gamma / delta, beta = 0.0;
  res.stop = "max_iterations";
  Kokkos::Timer timer;
  for (std::int64_t it = 1; it <= o.max_iterations; ++it) {
    if (o.jacobi) {
      Kokkos::parallel_reduce("CG::update_jacobi", Range(0, n),
                              UpdateJacobi{p, s, x, r, u, w, dinv, alpha, beta}, rr_pinned);
    } else {
      Kokkos::parallel_for("CG::update", Range(0, n), UpdatePlain{p, s, x, r, w, alpha, beta});
    }
    d = op.apply_dots(u, r, w);  // the iteration's one synchronisation
    const double gamma_new = d.s1;
    delta = d.s0;
    rr = o.jacobi ? rr_pinned() : gamma_new;
    res.iterations = it;
    res.rel_residual = std::sqrt(rr / bb);
    if (on_iteration) on_iteration(it, res.rel_residual);
    op.observe(it, res.rel_residual, o.tolerance, o.max_iterations);
    if (!std::isfinite(rr) || !std::isfinite(delta) || !std::isfinite(gamma_new)) {
      res.stop = "non-finite (residual or inner product became NaN or Inf)";
      break;
    }
    if (rr <= tol2) {
      res.converged = true;
      res.stop = "converged";
      break;
    }
    beta = gamma_new / gamma;
    const double curvature = delta - beta * gamma_new / alpha;  // p^T A p
    if (!(curvature > 0)) {
      res.stop = "breakdown (p^T A p <= 0: the matrix is not positive definite)";
      break;
    }
    alpha = gamma_new / curvature;
    gamma = gamma_new;
  }
  op.solve_ended(res.iterations);  // auto, still deciding: decides now (counted in the solve)
  Kokkos::fence();
  res.loop_seconds = timer.seconds();
  res.total_seconds = total.seconds();
  return res;
}

double true_relative_residual(CgSpmv& op, const DeviceCsr& a, CView b, CView x) {
  View ax("cg::ax", a.rows);
  op.apply(x, ax);
  double rr = 0, bb = 0;
  Kokkos::parallel_reduce(
      "CG::true_residual", Range(0, a.rows),
      KOKKOS_LAMBDA(const std::int64_t t, double& acc) {
        const double e = b(t) - ax(t);
        acc += e * e;
      },
      rr);
  bb = dot(b, b);
  return bb > 0 ? std::sqrt(rr / bb) : std::sqrt(rr);
}

double relative_error(CView x, CView xstar) {
  double ee = 0;
  Kokkos::parallel_reduce(
      "CG::error", Range(0, x.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t t, double& acc) {
        const double e = x(t) - xstar(t);
        acc += e * e;
      },
      ee);
  const double xx = dot(xstar, xstar);
  return xx > 0 ? std::sqrt(ee / xx) : std::sqrt(ee);
}

double time_spmv_ms(CgSpmv& op, const DeviceCsr& a, int reps) {
  View x("cg::bench_x", a.cols), y("cg::bench_y", a.rows);
  Kokkos::deep_copy(x, 1.0);
  op.apply(x, y);  // warm-up
  Kokkos::fence();
  Kokkos::Timer t;
  for (int i = 0; i < reps; ++i) op.apply(x, y);
  Kokkos::fence();
  return reps > 0 ? 1e3 * t.seconds() / reps : 0.0;
}

}  // namespace mdremap::cg

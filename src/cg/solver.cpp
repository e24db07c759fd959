#include "cg/solver.hpp"

#include <cmath>
#include <mutex>

#include "cg/device_reorder.hpp"
#include "mdremap/error.hpp"
#include "mdremap/remap/device_pattern.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime.h>
#endif

namespace mdremap::cg {

namespace {

using Range = Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>;
using View = Kokkos::View<double*>;
using CView = Kokkos::View<const double*>;

// The recurrence's scalars and where the solve stands (the lagged loop keeps them on the device,
// below; the waiting loop on the host).
enum : int { kRunning = 0, kConverged = 1, kNonFinite = 2, kBreakdown = 3 };
struct LaggedState {
  double gamma = 0, alpha = 0, beta = 0, rr = 0;
  // CgOptions::defer_x: x lacks owed * p (p as the last update left it); 0: nothing owed.
  double owed = 0;
  int status = kRunning;
  std::int64_t stopped_at = 0;
};

// One iteration's scalar step, the same in both loops: from ||r||^2 (rr), gamma_new = r . u and
// delta = w . u, the stop tests in order (non-finite, tolerance, breakdown), then beta, alpha and
// gamma for the next update. Returns (and records) the status; stopped_at is the caller's.
KOKKOS_INLINE_FUNCTION int scalar_step(LaggedState& q, double rr, double gamma_new, double delta,
                                       double tol2) {
  q.rr = rr;
  if (!Kokkos::isfinite(rr) || !Kokkos::isfinite(gamma_new) || !Kokkos::isfinite(delta))
    return q.status = kNonFinite;
  if (rr <= tol2) return q.status = kConverged;
  const double beta = gamma_new / q.gamma;
  const double curvature = delta - beta * gamma_new / q.alpha;  // p^T A p
  if (!(curvature > 0)) return q.status = kBreakdown;
  q.beta = beta;
  q.alpha = gamma_new / curvature;
  q.gamma = gamma_new;
  return kRunning;
}

// After an update that ran with q's scalars: what x owes now (CgOptions::defer_x). An update
// with nothing owed leaves x alone and owes its alpha p; one with a term owed pays both.
KOKKOS_INLINE_FUNCTION void after_update(LaggedState& q, bool defer_x) {
  q.owed = (defer_x && q.owed == 0) ? q.alpha : 0.0;
}

// What CgResult::stop says for a status.
const char* stop_text(int status) {
  switch (status) {
    case kConverged:
      return "converged";
    case kNonFinite:
      return "non-finite (residual or inner product became NaN or Inf)";
    case kBreakdown:
      return "breakdown (p^T A p <= 0: the matrix is not positive definite)";
    default:
      return "max_iterations";
  }
}

// The alpha and beta an update uses: the host's, passed with the launch...
struct HostScalars {
  double alpha, beta, owed;
  bool defer_x;
  KOKKOS_INLINE_FUNCTION bool get(double& a, double& b, double& o, bool& skip) const {
    a = alpha;
    b = beta;
    o = owed;
    skip = defer_x && owed == 0;
    return true;
  }
};
// ... or the lagged loop's, read from device memory; false once the solve has stopped (the
// update then leaves every vector alone).
struct DeviceScalars {
  Kokkos::View<const LaggedState> st;
  bool defer_x;
  KOKKOS_INLINE_FUNCTION bool get(double& a, double& b, double& o, bool& skip) const {
    const LaggedState& q = st();
    a = q.alpha;
    b = q.beta;
    o = q.owed;
    skip = defer_x && q.owed == 0;
    return q.status == kRunning;
  }
};

// One kernel for the iteration's vector work (unpreconditioned, u = r):
// p = r + beta p; s = w + beta s; x += alpha p; r -= alpha s. With x deferred
// (CgOptions::defer_x) x is left alone (skip), or gets what was owed on the old p and alpha on the
// new one.
template <class Scalars>
struct UpdatePlain {
  View p, s, x, r;
  CView w;
  Scalars sc;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t) const {
    double alpha = 0, beta = 0, owed = 0;
    bool skip = false;
    if (!sc.get(alpha, beta, owed, skip)) return;
    const double p0 = p(t);
    const double pt = r(t) + beta * p0;
    const double st = w(t) + beta * s(t);
    p(t) = pt;
    s(t) = st;
    if (!skip) x(t) += owed * p0 + alpha * pt;
    r(t) -= alpha * st;
  }
};

// Jacobi: the same with p = u + beta p, then u = r / diag, and ||r||^2 reduced alongside.
template <class Scalars>
struct UpdateJacobi {
  View p, s, x, r, u;
  CView w, dinv;
  Scalars sc;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t, double& rr) const {
    double alpha = 0, beta = 0, owed = 0;
    bool skip = false;
    if (!sc.get(alpha, beta, owed, skip)) return;
    const double p0 = p(t);
    const double pt = u(t) + beta * p0;
    const double st = w(t) + beta * s(t);
    p(t) = pt;
    s(t) = st;
    if (!skip) x(t) += owed * p0 + alpha * pt;
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

// The host-pinned words a solve reads without a synchronisation of its own (||r||^2 of a Jacobi
// update, the lagged loop's two states): one allocation per process, made by the first solve
// (the warm-up's, cg/warm_up.hpp, on its own thread while the matrix is built) and kept until
// Kokkos finalizes. Allocated per solve, a pinned allocation with its initialisation kernel
// cost about as much as a small solve, and in some processes many times that.
// Solves run one at a time (the warm-up's thread is joined before the main thread's solve).
constexpr std::size_t kPinnedBytes = 256;
char* pinned_words() {
  static std::mutex m;
  static Kokkos::View<char*, Kokkos::SharedHostPinnedSpace> words;
  const std::lock_guard<std::mutex> lock(m);
  if (words.extent(0) == 0) {
    words = Kokkos::View<char*, Kokkos::SharedHostPinnedSpace>(
        Kokkos::view_alloc("cg::pinned_words", Kokkos::WithoutInitializing), kPinnedBytes);
    Kokkos::push_finalize_hook([] { words = {}; });
  }
  return words.data();
}

#ifdef KOKKOS_ENABLE_CUDA
void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(std::string("cg: ") + what + ": " + cudaGetErrorString(e));
}

// The lagged loop (CgOptions::wait_each_iteration false): the recurrence's scalars live on the
// device; after iteration k's SpMV and dots a one-thread kernel does what the host loop does
// with them (the stop tests in the same order, then beta and alpha for k + 1) and writes the
// residual and where the solve stands into host-pinned memory; the host reads iteration k after
// launching k + 1. Once stopped, the scalars freeze and the update kernel leaves x and r alone,
// so the lagged iteration changes nothing the result reports.
//
// Runs iterations first..max_iterations from `start` (the scalars the next update uses). After
// each test read, `after_read(k, ||r_k|| / ||b||)` may move the solve to another frame (auto's
// reorder, CgSpmv::frame): it reassigns the vectors and `op` it was given by reference, and the
// iterations go on with them (the permutation's kernels follow the one iteration in flight in
// the stream, so they see its results). Where `op` then no longer runs unobserved (auto on
// choosing a remap strategy with spmv.fused_dots true, or measuring with it), the
// iteration in flight is finished and read, and the solve is handed back to the waiting loop
// (handed_back, with the iteration to go on from). `state`: the scalars as the last iteration
// launched left them (frozen once stopped), what x owes among them.
struct LaggedEnd {
  bool handed_back = false;
  std::int64_t next = 0;
  LaggedState state;
};
LaggedEnd lagged_iterations(CgSpmv*& op, std::int64_t first, const LaggedState& start, double bb,
                            double tol2, View& p, View& s, View& x, View& r, View& w, View& u,
                            View& dinv, const CgOptions& o, CgResult& res,
                            const std::function<void(std::int64_t, double)>& on_iteration,
                            const std::function<void(std::int64_t, double)>& after_read) {
  const std::int64_t n = x.extent(0);
  Kokkos::View<LaggedState> st("cg::lagged_state");
  Kokkos::deep_copy(st, start);
  Kokkos::View<remap::Sums2> dots("cg::lagged_dots");
  Kokkos::View<double> rr_dev("cg::lagged_rr");  // Jacobi: ||r||^2 from the update
  static_assert(64 + 2 * sizeof(LaggedState) <= kPinnedBytes);
  Kokkos::View<LaggedState[2], Kokkos::SharedHostPinnedSpace> seen(
      reinterpret_cast<LaggedState*>(pinned_words() + 64));
  cudaEvent_t ev[2] = {nullptr, nullptr};
  check_cuda(cudaEventCreateWithFlags(&ev[0], cudaEventDisableTiming), "cudaEventCreate");
  if (const cudaError_t e = cudaEventCreateWithFlags(&ev[1], cudaEventDisableTiming);
      e != cudaSuccess) {
    cudaEventDestroy(ev[0]);
    check_cuda(e, "cudaEventCreate");
  }
  const cudaStream_t stream = Kokkos::DefaultExecutionSpace().cuda_stream();
  const auto read = [&](std::int64_t it) {
    check_cuda(cudaEventSynchronize(ev[it & 1]), "cudaEventSynchronize");
    const LaggedState q = seen(it & 1);
    res.iterations = q.status != kRunning ? q.stopped_at : it;
    res.rel_residual = std::sqrt(q.rr / bb);
    if (on_iteration) on_iteration(res.iterations, res.rel_residual);
    if (q.status == kRunning) after_read(it, res.rel_residual);
    return q.status;
  };
  int status = kRunning;
  std::int64_t it = first;
  LaggedEnd end;
  try {
    for (; it <= o.max_iterations; ++it) {
      if (o.jacobi)
        Kokkos::parallel_reduce(
            "CG::update_lagged_jacobi", Range(0, n),
            UpdateJacobi<DeviceScalars>{p, s, x, r, u, w, dinv, {st, o.defer_x}}, rr_dev);
      else
        Kokkos::parallel_for("CG::update_lagged", Range(0, n),
                             UpdatePlain<DeviceScalars>{p, s, x, r, w, {st, o.defer_x}});
      op->apply_dots_into(u, r, w, dots);
      const auto sv = st;
      const auto dv = dots;
      const auto rv = rr_dev;
      const bool jacobi = o.jacobi, defer_x = o.defer_x;
      Kokkos::parallel_for(
          "CG::scalars", Kokkos::RangePolicy<>(0, 1), KOKKOS_LAMBDA(const int) {
            LaggedState& q = sv();
            if (q.status == kRunning) {  // the update ran
              after_update(q, defer_x);
              if (scalar_step(q, jacobi ? rv() : dv().s1, dv().s1, dv().s0, tol2) != kRunning)
                q.stopped_at = it;
            }
            seen(it & 1) = q;
          });
      check_cuda(cudaEventRecord(ev[it & 1], stream), "cudaEventRecord");
      if (it > first && (status = read(it - 1)) != kRunning) break;
      if (!op->runs_unobserved()) {
        end.handed_back = true;
        break;
      }
    }
    Kokkos::fence();
    const std::int64_t last = std::min(it, o.max_iterations);  // the last iteration launched
    if (end.handed_back) {
      status = read(it);
      end.handed_back = status == kRunning;
      end.next = it + 1;
    } else if (status == kRunning && it > first) {
      status = read(last);
    }
    end.state = seen(last & 1);
  } catch (...) {
    Kokkos::fence();
    cudaEventDestroy(ev[0]);
    cudaEventDestroy(ev[1]);
    throw;
  }
  cudaEventDestroy(ev[0]);
  cudaEventDestroy(ev[1]);
  res.converged = status == kConverged;
  res.stop = stop_text(status);
  return end;
}
#endif

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
  Kokkos::View<double, Kokkos::SharedHostPinnedSpace> rr_pinned(
      reinterpret_cast<double*>(pinned_words()));
  const double bb = dot(b, b);
  const double tol2 = o.tolerance * o.tolerance * bb;
  // The frame the iterations run in (CgSpmv::frame): once the kernel serves the matrix reordered,
  // every vector of the recurrence follows the order (CG's iterates are those of P A P^T with P b)
  // and x goes back at the end.
  CgSpmv* cur = &op;
  View xw = x;  // x in the frame
  Kokkos::View<const int*> order;
  const auto follow_frame = [&] {
    const CgSpmv::Frame f = op.frame();
    if (f.order.extent(0) == 0 || order.extent(0) != 0) return;
    order = f.order;
    cur = f.op;
    for (View* v : {&p, &s, &w, &r, &xw}) *v = permute_vector(*v, order);
    if (o.jacobi) {
      u = permute_vector(u, order);
      dinv = permute_vector(dinv, order);
    } else {
      u = r;
    }
  };
  const auto x_back = [&] {
    if (order.extent(0) != 0) unpermute_vector_into(xw, order, x);
  };
  follow_frame();

  Kokkos::fence();
  res.start_seconds = total.seconds();
  Kokkos::Timer first_spmv;
  remap::Sums2 d = cur->apply_dots(u, r, w);  // blocks: the dots reach the host
  res.first_spmv_seconds = first_spmv.seconds();
  const double gamma = d.s1;
  double rr = o.jacobi ? dot(r, r) : gamma;
  res.rel_residual = bb > 0 ? std::sqrt(rr / bb) : 0.0;
  // Ended before the iterations: auto, still deciding, decides now.
  const auto ended_at_start = [&](const char* stop) {
    res.stop = stop;
    op.solve_ended(0);
    x_back();
    res.total_seconds = total.seconds();
    return res;
  };
  if (rr <= tol2) {
    res.converged = true;
    return ended_at_start("converged");
  }
  const double delta = d.s0;
  if (!std::isfinite(delta) || !std::isfinite(gamma))
    return ended_at_start("non-finite (the first SpMV gave NaN or Inf)");
  if (!(delta > 0))
    return ended_at_start(
        "breakdown (u^T A u <= 0 at the start: the matrix is not positive definite)");
  LaggedState q;  // the scalars the next update uses
  q.gamma = gamma;
  q.alpha = gamma / delta;
  res.stop = stop_text(kRunning);
  Kokkos::Timer timer;
  for (std::int64_t it = 1; it <= o.max_iterations; ++it) {
#ifdef KOKKOS_ENABLE_CUDA
    if (!o.wait_each_iteration && cur->runs_unobserved()) {
      if (res.lagged_from == 0) res.lagged_from = it;
      const LaggedEnd e = lagged_iterations(cur, it, q, bb, tol2, p, s, xw, r, w, u, dinv, o, res,
                                            on_iteration, [&](std::int64_t k, double rel) {
                                              op.observe(k, rel, o.tolerance, o.max_iterations);
                                              follow_frame();
                                            });
      q = e.state;
      if (!e.handed_back) break;
      it = e.next - 1;  // the waiting loop goes on from the iteration after the one read last
      continue;
    }
#endif
    if (o.jacobi) {
      Kokkos::parallel_reduce(
          "CG::update_jacobi", Range(0, n),
          UpdateJacobi<HostScalars>{p, s, xw, r, u, w, dinv, {q.alpha, q.beta, q.owed, o.defer_x}},
          rr_pinned);
    } else {
      Kokkos::parallel_for(
          "CG::update", Range(0, n),
          UpdatePlain<HostScalars>{p, s, xw, r, w, {q.alpha, q.beta, q.owed, o.defer_x}});
    }
    after_update(q, o.defer_x);
    d = cur->apply_dots(u, r, w);  // the iteration's one synchronisation
    rr = o.jacobi ? rr_pinned() : d.s1;
    res.iterations = it;
    res.rel_residual = std::sqrt(rr / bb);
    if (on_iteration) on_iteration(it, res.rel_residual);
    op.observe(it, res.rel_residual, o.tolerance, o.max_iterations);
    follow_frame();  // auto may have reordered at (or after) its decision
    if (const int status = scalar_step(q, rr, d.s1, d.s0, tol2); status != kRunning) {
      res.converged = status == kConverged;
      res.stop = stop_text(status);
      break;
    }
  }
  if (q.owed != 0) {  // what x still owes (CgOptions::defer_x)
    const double owed = q.owed;
    const View xv = xw, pv = p;
    Kokkos::parallel_for(
        "CG::pay_owed_x", Range(0, n),
        KOKKOS_LAMBDA(const std::int64_t t) { xv(t) += owed * pv(t); });
  }
  op.solve_ended(res.iterations);  // auto, still deciding: decides now (counted in the solve)
  x_back();
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

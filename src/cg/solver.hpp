#pragma once
// Conjugate gradient on the device (BRIEF section 6), double precision, optionally Jacobi-
// preconditioned, in the Chronopoulos-Gear form (Chronopoulos & Gear 1989): both inner products
// of an iteration come right after its SpMV, so they fuse into the SpMV kernel, and the vector
// updates of the iteration (p, s, x, r and the preconditioned u) are one kernel. An iteration is
// two kernels and one host synchronisation (the convergence test); in exact arithmetic its
// iterates are those of textbook CG. On a GPU the synchronisation can be lagged (the scalars on
// the device, CgOptions::wait_each_iteration): the host then checks iteration k while the GPU
// runs k + 1, which stops changing x and r once k has met the tolerance.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <functional>
#include <string>

#include "cg/device_csr.hpp"
#include "cg/spmv.hpp"

namespace mdremap::cg {

struct CgOptions {
  double tolerance = 1e-8;  // stop when ||r|| <= tolerance * ||b||
  std::int64_t max_iterations = 10000;
  bool jacobi = false;
  // Wait for every iteration's convergence test before launching the next (true), or, on a GPU
  // with a kernel that allows it (CgSpmv::runs_unobserved), keep the
  // recurrence's scalars on the device and read each iteration's test one iteration late, so the
  // GPU never idles on the host (false).
  bool wait_each_iteration = false;
  // x += alpha p every second iteration (true): the update of an iteration that skips x leaves
  // alpha p owed, and the next one adds both terms, p before and after its own update (it reads
  // both anyway); an owed term is added at the end. x is written only for the result, so this
  // saves reading and writing it (16 B a row) every other iteration.
  bool defer_x = true;
};

struct CgResult {
  bool converged = false;
  std::string stop;  // converged | max_iterations | breakdown (...) | non-finite (...)
  std::int64_t iterations = 0;
  double rel_residual = 0;  // recurrence residual ||r|| / ||b|| when it stopped
  double loop_seconds = 0;  // the iterations, set-up excluded
  // The whole call as a user waits for it: the vectors' allocation, the first SpMV (with its
  // kernels' first launches) and the iterations.
  double total_seconds = 0;
  double first_spmv_seconds = 0;  // the SpMV before the iterations (r0's dot products)
  // From the call to that SpMV's launch: the vectors allocated and r0 (b's dot product waited
  // for).
  double start_seconds = 0;
  // The iteration from which the lagged loop ran (0: a host wait every iteration).
  std::int64_t lagged_from = 0;
};

// Solves A x = b from x = 0. `on_iteration(k, ||r_k|| / ||b||)` is called after every iteration
// with what the host already has (no extra synchronisation).
CgResult cg_solve(CgSpmv& op, const DeviceCsr& a, Kokkos::View<const double*> b,
                  Kokkos::View<double*> x, const CgOptions& o,
                  const std::function<void(std::int64_t, double)>& on_iteration = {});

// ||b - A x|| / ||b|| recomputed from scratch (not the recurrence).
double true_relative_residual(CgSpmv& op, const DeviceCsr& a, Kokkos::View<const double*> b,
                              Kokkos::View<const double*> x);
// ||x - x*|| / ||x*||.
double relative_error(Kokkos::View<const double*> x, Kokkos::View<const double*> xstar);

// Mean time of one y = A x over `reps` back-to-back calls (fenced once around the loop).
double time_spmv_ms(CgSpmv& op, const DeviceCsr& a, int reps);

}  // namespace mdremap::cg

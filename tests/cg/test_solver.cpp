// CG reaches the known solution (BRIEF section 6): generated SPD systems with
// b = A x*, every SpMV kernel, with and without Jacobi; the iteration count agrees with textbook
// CG run serially on the host; a symmetric permutation changes iterations by at most 1 and not
// the solution; breakdowns and iteration limits are reported, not hidden.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cg/csr.hpp"
#include "cg/device_csr.hpp"
#include "cg/device_reorder.hpp"
#include "cg/generators.hpp"
#include "cg/params.hpp"
#include "cg/solver.hpp"
#include "cg/spmv.hpp"
#include "cg/system.hpp"
#include "cg/warm_up.hpp"
#include "mdremap/error.hpp"

namespace mdremap::cg {
namespace {

Kokkos::View<double*> dev(const std::vector<double>& v) {
  Kokkos::View<double*> d("v", v.size());
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < v.size(); ++i) h(i) = v[i];
  Kokkos::deep_copy(d, h);
  return d;
}

std::vector<double> host(Kokkos::View<const double*> d) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  return std::vector<double>(h.data(), h.data() + h.extent(0));
}

// Textbook preconditioned CG (Hestenes-Stiefel), serial: the iteration count to compare with.
std::int64_t reference_iterations(const HostCsr& a, const std::vector<double>& b, double tol,
                                  bool jacobi) {
  const std::int64_t n = a.rows;
  std::vector<double> x(n, 0), r = b, z(n), p(n), q(n);
  auto dot = [](const std::vector<double>& u, const std::vector<double>& v) {
    double s = 0;
    for (std::size_t i = 0; i < u.size(); ++i) s += u[i] * v[i];
    return s;
  };
  auto prec = [&] {
    for (std::int64_t i = 0; i < n; ++i) z[i] = jacobi ? r[i] / a.at(i, i) : r[i];
  };
  const double bb = dot(b, b);
  prec();
  p = z;
  double rz = dot(r, z);
  for (std::int64_t it = 1; it <= 100000; ++it) {
    spmv_reference(a, p, q);
    const double alpha = rz / dot(p, q);
    for (std::int64_t i = 0; i < n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    if (dot(r, r) <= tol * tol * bb) return it;
    prec();
    const double rz_new = dot(r, z);
    for (std::int64_t i = 0; i < n; ++i) p[i] = z[i] + rz_new / rz * p[i];
    rz = rz_new;
  }
  return -1;
}

struct Solved {
  CgResult res;
  std::vector<double> x;
  double true_rel = 0, err = 0;
};

Solved solve(const LinearSystem& s, const SpmvOptions& k, const CgOptions& o) {
  const DeviceCsr a = DeviceCsr::upload(s.a);
  auto op = make_spmv(a, k);
  const auto b = dev(s.b);
  Kokkos::View<double*> x("x", a.rows);
  Solved out;
  out.res = cg_solve(*op, a, b, x, o);
  out.true_rel = true_relative_residual(*op, a, b, x);
  if (!s.xstar.empty()) out.err = relative_error(x, dev(s.xstar));
  out.x = host(x);
  return out;
}

std::vector<SpmvOptions> kernels() {
  std::vector<SpmvOptions> k;
  for (const char* mode : {"gather", "dup", "sharing"}) {
    SpmvOptions o;
    o.remap = mode;
    o.remap_opt.chunks = 1;
    k.push_back(o);
  }
  for (const auto sc : {remap::ThrottleSchedule::CFQ, remap::ThrottleSchedule::SJ}) {
    SpmvOptions t;
    t.remap = "throttle";
    t.remap_opt.throttle.schedule = sc;
    t.remap_opt.throttle.cache_bytes = 4096;  // several parts even on the test sizes
    k.push_back(t);
  }
  SpmvOptions fused;  // the dots in the SpMV's reduction (spmv.fused_dots true)
  fused.fused_dots = true;
  k.push_back(fused);
  fused.remap = "dup";
  k.push_back(fused);
  SpmvOptions w;
  w.kernel = "csr-warp";
  k.push_back(w);
  SpmvOptions sell;
  sell.kernel = "sell";
  k.push_back(sell);
  sell.sell_fused_dots = false;  // the dots in a reduction after sell's SpMV
  k.push_back(sell);
  if (have_cusparse()) {
    SpmvOptions c;
    c.kernel = "cusparse";
    k.push_back(c);
  }
  return k;
}

std::string label(const SpmvOptions& k) {
  return k.kernel + "/" + k.remap.name() + (k.fused_dots ? "/fused" : "") +
         (k.kernel == "sell" && !k.sell_fused_dots ? "/dots-after" : "");
}

CgParams generated(const std::string& name, std::vector<std::int64_t> dims, double shift = 0) {
  CgParams p;
  p.gen.name = name;
  p.gen.dims = std::move(dims);
  p.gen.shift = shift;
  return p;
}

TEST(CgSolver, ReachesTheKnownSolution) {
  std::vector<CgParams> systems = {
      generated("laplace2d", {40, 30}), generated("laplace3d", {12, 11, 10}),
      generated("laplace3d27", {9, 9, 9}), generated("tri2d", {35, 33}),
      generated("laplace2d", {25, 25}, 0.5)};
  CgParams band;
  band.gen.name = "banded";
  band.gen.rows = 2000;
  band.gen.bandwidth = 15;
  band.gen.density = 0.5;
  band.gen.shift = 0.05;
  systems.push_back(band);
  const double tol = 1e-10;
  for (const auto& p : systems) {
    const LinearSystem s = build_system(p);
    for (bool jacobi : {false, true}) {
      const std::int64_t ref = reference_iterations(s.a, s.b, tol, jacobi);
      ASSERT_GT(ref, 0);
      for (const auto& k : kernels()) {
        const Solved r = solve(s, k, {tol, 10000, jacobi});
        const std::string what = p.gen.name + (jacobi ? " jacobi " : " ") + label(k);
        EXPECT_TRUE(r.res.converged) << what << ": " << r.res.stop;
        EXPECT_LE(r.res.rel_residual, tol) << what;
        EXPECT_LE(r.true_rel, 10 * tol) << what;  // the recurrence drifts a little from b - A x
        EXPECT_LE(r.err, 1e-6) << what;
        // Same Krylov iterates as textbook CG: the counts agree but for rounding at the threshold.
        EXPECT_LE(std::abs(r.res.iterations - ref), 1)
            << what << ": " << r.res.iterations << " vs textbook " << ref;
      }
    }
  }
}

// Textbook CG's x after exactly `iterations` iterations (the reference for where a solve stopped).
std::vector<double> reference_x(const HostCsr& a, const std::vector<double>& b,
                                std::int64_t iterations) {
  const std::int64_t n = a.rows;
  std::vector<double> x(n, 0), r = b, p = b, q(n);
  double rr = 0;
  for (double v : r) rr += v * v;
  for (std::int64_t it = 1; it <= iterations; ++it) {
    spmv_reference(a, p, q);
    double pq = 0;
    for (std::int64_t i = 0; i < n; ++i) pq += p[i] * q[i];
    const double alpha = rr / pq;
    double rr_new = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
      rr_new += r[i] * r[i];
    }
    for (std::int64_t i = 0; i < n; ++i) p[i] = r[i] + rr_new / rr * p[i];
    rr = rr_new;
  }
  return x;
}

// solver.defer_x: x written every second iteration, what it owes paid at the end. Stopped by
// the iteration limit after an odd and an even number of iterations (a term owed or not), and
// converged, in both loops (the lagged one where the kernel allows it, on a GPU), x equals
// textbook CG's after the same iterations; defer_x false as well.
TEST(CgSolver, DeferredXEqualsTextbookCgWhereverTheSolveStops) {
  const LinearSystem s = build_system(generated("laplace3d", {12, 11, 10}));
  SpmvOptions sell;
  sell.kernel = "sell";
  SpmvOptions gather;  // csr-thread: the waiting loop only
  for (const auto& k : {sell, gather})
    for (bool defer : {true, false})
      for (bool wait : {false, true})
        for (std::int64_t stop : {1, 2, 7, 8, 10000}) {
          CgOptions o{stop == 10000 ? 1e-10 : 1e-30, stop, false};
          o.defer_x = defer;
          o.wait_each_iteration = wait;
          const Solved r = solve(s, k, o);
          const std::string what = label(k) + (defer ? " defer_x" : " every iteration") +
                                   (wait ? " waiting" : " lagged if allowed") + " stop " +
                                   std::to_string(stop);
          ASSERT_EQ(r.res.converged, stop == 10000) << what << ": " << r.res.stop;
          if (stop < 10000) ASSERT_EQ(r.res.iterations, stop) << what;
          const std::vector<double> ref = reference_x(s.a, s.b, r.res.iterations);
          double diff = 0, norm = 0;
          for (std::size_t i = 0; i < ref.size(); ++i) {
            diff = std::max(diff, std::abs(r.x[i] - ref[i]));
            norm = std::max(norm, std::abs(ref[i]));
          }
          EXPECT_GT(norm, 0) << what;
          EXPECT_LE(diff, 1e-9 * norm) << what << ": " << r.res.iterations << " iterations";
        }
}

TEST(CgSolver, PermutationChangesIterationsByAtMostOneAndNotTheSolution) {
  for (const auto& base : {generated("laplace3d", {14, 13, 12}), generated("tri2d", {40, 37})}) {
    CgParams perm = base;
    perm.permute = true;
    perm.permute_seed = 99;
    const LinearSystem s0 = build_system(base), s1 = build_system(perm);
    ASSERT_EQ(s1.natural.size(), static_cast<std::size_t>(s0.a.rows));
    for (const auto& k : kernels()) {
      const Solved a = solve(s0, k, {1e-10, 10000, false});
      const Solved b = solve(s1, k, {1e-10, 10000, false});
      ASSERT_TRUE(a.res.converged && b.res.converged);
      EXPECT_LE(std::abs(a.res.iterations - b.res.iterations), 1)
          << base.gen.name << " " << label(k);
      double diff = 0, norm = 0;
      for (std::size_t i = 0; i < b.x.size(); ++i) {
        diff = std::max(diff, std::abs(b.x[i] - a.x[s1.natural[i]]));
        norm = std::max(norm, std::abs(a.x[s1.natural[i]]));
      }
      EXPECT_LE(diff, 1e-8 * norm) << base.gen.name << " " << label(k);
      EXPECT_LE(b.err, 1e-6);
    }
  }
}

// remap.reorder labelprop on the device: P A P^T equals the host's permutation of the same order
// entry for entry (columns sorted in each row, rows longer than a thread sorts among them), and
// CG on the reordered system takes the same iterations (within 1) to the same solution.
TEST(CgSolver, DeviceLabelpropReordersTheSystemAndKeepsItsSolution) {
  CgParams band;
  band.gen.name = "banded";
  band.gen.rows = 3000;
  band.gen.bandwidth = 40;  // rows of up to 81 entries: past one thread's sort
  band.gen.density = 0.6;
  band.gen.shift = 0.05;
  for (CgParams base : {generated("laplace3d", {14, 13, 12}), generated("tri2d", {40, 37}), band}) {
    base.permute = true;
    base.permute_seed = 7;
    const LinearSystem s = build_system(base);
    const DeviceCsr a = DeviceCsr::upload(s.a);
    const remap::GraphOrder g = labelprop_order(a, 16);
    const DeviceCsr r = permute_symmetric(a, g.order);
    auto order = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.order);
    std::vector<std::int32_t> new_of_old(a.rows);
    for (std::int64_t i = 0; i < a.rows; ++i) new_of_old[order(i)] = static_cast<std::int32_t>(i);
    const HostCsr want = permute_symmetric(s.a, new_of_old), got = r.download();
    EXPECT_EQ(got.rowptr, want.rowptr) << base.gen.name;
    EXPECT_EQ(got.col, want.col) << base.gen.name;
    EXPECT_EQ(got.val, want.val) << base.gen.name;
    EXPECT_GT(g.level_nodes.size(), 1u) << base.gen.name;

    const auto b = permute_vector(dev(s.b), g.order);
    const auto xstar = permute_vector(dev(s.xstar), g.order);
    for (const auto& k : kernels()) {
      const Solved plain = solve(s, k, {1e-10, 10000, false});
      auto op = make_spmv(r, k);
      Kokkos::View<double*> x("x", r.rows);
      const CgResult res = cg_solve(*op, r, b, x, {1e-10, 10000, false});
      ASSERT_TRUE(plain.res.converged && res.converged) << base.gen.name << " " << label(k);
      EXPECT_LE(std::abs(plain.res.iterations - res.iterations), 1)
          << base.gen.name << " " << label(k);
      EXPECT_LE(relative_error(x, xstar), 1e-6) << base.gen.name << " " << label(k);
      const std::vector<double> hx = host(x);
      double diff = 0, norm = 0;
      for (std::int64_t i = 0; i < r.rows; ++i) {
        diff = std::max(diff, std::abs(hx[i] - plain.x[order(i)]));
        norm = std::max(norm, std::abs(plain.x[order(i)]));
      }
      EXPECT_LE(diff, 1e-8 * norm) << base.gen.name << " " << label(k);
    }
  }
}

// The grid the warm-up makes on the device is the laplace2d generator's matrix, entry for entry.
TEST(CgSolver, Laplace2dOnTheDeviceIsTheGenerators) {
  for (const auto& d : std::vector<std::vector<std::int64_t>>{{1, 1}, {7, 5}, {64, 33}}) {
    const HostCsr want = build_system(generated("laplace2d", d)).a;
    const HostCsr got =
        laplace2d_on_device(static_cast<int>(d[0]), static_cast<int>(d[1])).download();
    EXPECT_EQ(got.rowptr, want.rowptr) << d[0] << "x" << d[1];
    EXPECT_EQ(got.col, want.col) << d[0] << "x" << d[1];
    EXPECT_EQ(got.val, want.val) << d[0] << "x" << d[1];
  }
}

// The host applies only the host orders: labelprop and auto are the device's (an auto run once
// got the host's partition order before its own measure).
TEST(CgSolver, HostReorderOnlyForTheHostOrders) {
  CgParams p = generated("laplace2d", {40, 30});
  p.permute = true;
  p.remap.partition_bytes = 2048;  // several parts even at 1,200 rows
  const LinearSystem s0 = build_system(p);
  for (const char* r : {"none", "labelprop", "auto"}) {
    LinearSystem s = s0;
    p.remap.reorder = remap::parse_reorder(r);
    EXPECT_FALSE(reorder_on_host(s, p)) << r;
    EXPECT_EQ(s.a.col, s0.a.col) << r;
    EXPECT_EQ(s.b, s0.b) << r;
  }
  for (const char* r : {"partition", "labelprop-host"}) {
    LinearSystem s = s0;
    p.remap.reorder = remap::parse_reorder(r);
    EXPECT_TRUE(reorder_on_host(s, p)) << r;
    EXPECT_NE(s.a.col, s0.a.col) << r;
  }
}

// remap.reorder auto's measure: the fraction of entries more than `reach` columns from their row,
// counted on the device, equals the host's count: small and large grids (8.4M rows: 2 of a row's
// 5 entries a plane away), natural and permuted.
// The warm-up's scatter: a permutation, far from the identity and from any constant stride.
TEST(CgSolver, PseudoRandomOrderIsAScatteringPermutation) {
  for (const int bits : {2, 10, 16}) {
    const auto o =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pseudo_random_order(bits));
    const std::int64_t n = std::int64_t(1) << bits;
    ASSERT_EQ(static_cast<std::int64_t>(o.extent(0)), n);
    std::vector<char> seen(n, 0);
    for (std::int64_t i = 0; i < n; ++i) {
      ASSERT_TRUE(o(i) >= 0 && o(i) < n) << bits;
      EXPECT_EQ(seen[o(i)]++, 0) << bits << " " << i;
    }
    if (bits < 10) continue;
    std::int64_t fixed = 0, same_step = 0;
    for (std::int64_t i = 0; i < n; ++i) fixed += o(i) == i;
    for (std::int64_t i = 2; i < n; ++i) same_step += o(i) - o(i - 1) == o(i - 1) - o(i - 2);
    EXPECT_LT(fixed, n / 100) << bits;
    EXPECT_LT(same_step, n / 10) << bits;
  }
  EXPECT_THROW(pseudo_random_order(3), Error);
}

TEST(CgSolver, ScatteredFractionCountsTheFarEntries) {
  struct Case {
    CgParams p;
    std::int64_t reach;
  };
  std::vector<Case> cases;
  cases.push_back({generated("laplace3d", {30, 30, 30}), 500});
  cases.push_back({generated("laplace2d", {35000, 240}), kScatteredReach});
  CgParams perm = generated("tri2d", {200, 150});
  perm.permute = true;
  cases.push_back({perm, 3000});
  for (const auto& c : cases) {
    const LinearSystem s = build_system(c.p);
    std::int64_t far = 0;
    for (std::int64_t i = 0; i < s.a.rows; ++i)
      for (std::int64_t k = s.a.rowptr[i]; k < s.a.rowptr[i + 1]; ++k)
        far += std::abs(static_cast<std::int64_t>(s.a.col[k]) - i) > c.reach;
    const double want = static_cast<double>(far) / static_cast<double>(s.a.nnz());
    ASSERT_GT(want, 0.1) << c.p.gen.name;  // every case has far entries to count
    EXPECT_DOUBLE_EQ(scattered_fraction(DeviceCsr::upload(s.a), c.reach), want) << c.p.gen.name;
  }
}

// A badly scaled diagonal (D A D): Jacobi undoes the scaling, plain CG suffers from it.
TEST(CgSolver, JacobiHelpsABadlyScaledMatrix) {
  const LinearSystem s0 = build_system(generated("laplace2d", {30, 30}, 0.1));
  LinearSystem s = s0;
  std::vector<double> d(s.a.rows);
  for (std::int64_t i = 0; i < s.a.rows; ++i) d[i] = std::pow(10.0, 1.5 * unit(mix(5, i)));
  for (std::int64_t r = 0; r < s.a.rows; ++r)
    for (std::int64_t k = s.a.rowptr[r]; k < s.a.rowptr[r + 1]; ++k)
      s.a.val[k] *= d[r] * d[s.a.col[k]];
  for (std::int64_t i = 0; i < s.a.rows; ++i) s.xstar[i] /= d[i];
  spmv_reference(s.a, s.xstar, s.b);
  const Solved plain = solve(s, SpmvOptions{}, {1e-9, 20000, false});
  const Solved jac = solve(s, SpmvOptions{}, {1e-9, 20000, true});
  ASSERT_TRUE(jac.res.converged) << jac.res.stop;
  EXPECT_LE(jac.true_rel, 1e-8);
  EXPECT_LT(2 * jac.res.iterations, plain.res.iterations);
  EXPECT_EQ(std::abs(jac.res.iterations - reference_iterations(s.a, s.b, 1e-9, true)) <= 1, true);
}

// Through the layer's gather (a host wait each iteration) and, on a GPU, through csr-warp and sell
// (the lagged loop: the stop found on the device, read one iteration late).
TEST(CgSolver, ReportsBreakdownLimitAndZeroRightHandSide) {
  SpmvOptions warp, sell;
  warp.kernel = "csr-warp";
  sell.kernel = "sell";
  for (const SpmvOptions& k : {SpmvOptions{}, warp, sell}) {
    // Symmetric indefinite: diag(2, -1) coupled; CG must stop and say so.
    LinearSystem ind;
    ind.a = coo_to_csr(2, 2, {0, 1, 0, 1}, {0, 1, 1, 0}, {2.0, -1.0, 0.5, 0.5});
    ind.b = {1.0, 1.0};
    const Solved bd = solve(ind, k, {1e-10, 100, false});
    EXPECT_FALSE(bd.res.converged) << label(k);
    EXPECT_NE(bd.res.stop.find("breakdown"), std::string::npos) << label(k) << ": " << bd.res.stop;
    EXPECT_LE(bd.res.iterations, 2) << label(k);

    const LinearSystem s = build_system(generated("laplace2d", {30, 30}));
    const Solved lim = solve(s, k, {1e-12, 5, false});
    EXPECT_FALSE(lim.res.converged) << label(k);
    EXPECT_EQ(lim.res.stop, "max_iterations") << label(k);
    EXPECT_EQ(lim.res.iterations, 5) << label(k);
    EXPECT_GT(lim.res.rel_residual, 1e-12) << label(k);

    LinearSystem zero = s;
    zero.b.assign(zero.b.size(), 0.0);
    zero.xstar.clear();
    const Solved z = solve(zero, k, {1e-10, 100, false});
    EXPECT_TRUE(z.res.converged) << label(k);
    EXPECT_EQ(z.res.iterations, 0) << label(k);
    for (double v : z.x) EXPECT_EQ(v, 0.0);
  }
}

// solver.wait_each_iteration: the lagged loop (a GPU's default for sell, csr-warp and cuSPARSE,
// plain and Jacobi)
// stops at the iteration the waiting loop stops at, with the same residual and solution; the
// iteration it runs past the stop leaves x alone. On the host both are the waiting loop.
TEST(CgSolver, LaggedLoopStopsWhereTheWaitingLoopStops) {
  const LinearSystem s = build_system(generated("laplace3d", {16, 15, 14}));
  std::vector<SpmvOptions> ks(2);
  ks[0].kernel = "sell";
  ks[1].kernel = "csr-warp";
  if (have_cusparse()) {
    ks.emplace_back();
    ks.back().kernel = "cusparse";
  }
  for (const auto& k : kernels())  // the layer's strategies (csr-thread), dots after the SpMV
    if (k.kernel == "csr-thread" && !k.fused_dots) ks.push_back(k);
  for (const auto& k : ks) {
    for (const auto& [tol, jacobi] : {std::pair{1e-10, false}, {1e-3, false}, {1e-10, true}}) {
      CgOptions wait{tol, 10000, jacobi};
      wait.wait_each_iteration = true;
      const Solved a = solve(s, k, wait);
      const Solved b = solve(s, k, {tol, 10000, jacobi});
      ASSERT_TRUE(a.res.converged && b.res.converged) << label(k);
#ifdef KOKKOS_ENABLE_CUDA
      EXPECT_EQ(b.res.lagged_from, 1) << label(k);
#endif
      EXPECT_EQ(a.res.lagged_from, 0) << label(k);
      EXPECT_EQ(a.res.iterations, b.res.iterations) << label(k) << " tol " << tol;
      EXPECT_NEAR(a.res.rel_residual, b.res.rel_residual, 1e-6 * a.res.rel_residual) << label(k);
      double diff = 0, norm = 0;
      for (std::size_t i = 0; i < a.x.size(); ++i) {
        diff = std::max(diff, std::abs(a.x[i] - b.x[i]));
        norm = std::max(norm, std::abs(a.x[i]));
      }
      EXPECT_LE(diff, 1e-12 * norm) << label(k) << " tol " << tol;
    }
  }
}

// A kernel that stops running unobserved mid-solve (as auto does when it reorders before its
// decision point or chooses a strategy that watches the iterations) and later runs unobserved
// again: on a GPU the lagged loop hands the solve back to the waiting loop and takes it again.
// Every iteration is observed once, in order (but the last in the lagged loop), the count and x
// are textbook CG's.
class SwitchingSpmv final : public CgSpmv {
 public:
  SwitchingSpmv(std::unique_ptr<CgSpmv> k, std::int64_t off_from, std::int64_t on_from)
      : k_(std::move(k)), off_(off_from), on_(on_from) {}
  std::string name() const override { return "switching"; }
  void apply(Kokkos::View<const double*> x, Kokkos::View<double*> y) override { k_->apply(x, y); }
  remap::Sums2 apply_dots(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                          Kokkos::View<double*> w) override {
    ++waiting;
    return k_->apply_dots(u, r, w);
  }
  void apply_dots_into(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                       Kokkos::View<double*> w, Kokkos::View<remap::Sums2> out) override {
    ++lagged;
    k_->apply_dots_into(u, r, w, out);
  }
  void observe(std::int64_t it, double, double, std::int64_t) override { seen.push_back(it); }
  bool runs_unobserved() const override {
    const std::int64_t last = seen.empty() ? 0 : seen.back();
    return last < off_ || last >= on_;
  }
  std::vector<std::int64_t> seen;
  int waiting = 0, lagged = 0;  // iterations run by each loop (and the first SpMV: waiting)

 private:
  std::unique_ptr<CgSpmv> k_;
  std::int64_t off_, on_;
};

TEST(CgSolver, LaggedLoopHandsBackToTheWaitingLoopAndTakesOverAgain) {
  const LinearSystem s = build_system(generated("laplace3d", {16, 15, 14}));
  const double tol = 1e-10;
  const DeviceCsr a = DeviceCsr::upload(s.a);
  SpmvOptions k;
  k.kernel = "sell";
  for (bool defer : {true, false}) {
    SwitchingSpmv op(make_spmv(a, k), 10, 21);
    const auto b = dev(s.b);
    Kokkos::View<double*> x("x", a.rows);
    CgOptions o{tol, 10000, false};
    o.defer_x = defer;
    const CgResult res = cg_solve(op, a, b, x, o);
    ASSERT_TRUE(res.converged) << res.stop;
    const std::int64_t ref = reference_iterations(s.a, s.b, tol, false);
    EXPECT_LE(std::abs(res.iterations - ref), 1);
    // Observed in order; the lagged loop does not observe the iteration whose read says it stopped.
#ifdef KOKKOS_ENABLE_CUDA
    ASSERT_EQ(op.seen.size(), static_cast<std::size_t>(res.iterations - 1));
#else
    ASSERT_EQ(op.seen.size(), static_cast<std::size_t>(res.iterations));
#endif
    for (std::size_t i = 0; i < op.seen.size(); ++i)
      EXPECT_EQ(op.seen[i], static_cast<std::int64_t>(i) + 1);
#ifdef KOKKOS_ENABLE_CUDA
    // Lagged from the start, handed back once iteration 10 is read (11 already in flight, then
    // read too), taken again once 21 is read: 11 waiting SpMVs (the first one and 12-21); lagged
    // 1-11 and 22 to one past the last (launched before the stop is read).
    EXPECT_EQ(res.lagged_from, 1);
    EXPECT_EQ(op.waiting, 11);
    EXPECT_EQ(op.lagged, 11 + (res.iterations + 1 - 21));
#else
    EXPECT_EQ(res.lagged_from, 0);
    EXPECT_EQ(op.waiting, res.iterations + 1);
#endif
    const std::vector<double> xr = reference_x(s.a, s.b, res.iterations), xh = host(x);
    double diff = 0, norm = 0;
    for (std::size_t i = 0; i < xr.size(); ++i) {
      diff = std::max(diff, std::abs(xh[i] - xr[i]));
      norm = std::max(norm, std::abs(xr[i]));
    }
    EXPECT_LE(diff, 1e-9 * norm) << (defer ? "defer_x" : "x every iteration");
  }
}

// auto decides inside the solve, after `decide_after` iterations, over the iterations it then
// expects: the horizon it was told is stated, the solve still reaches the textbook count and the
// known solution, and a solve that ends before the decision point is served by the gather and
// decides afterwards.
TEST(CgSolver, AutoDecidesInsideTheSolveOverTheIterationsLeft) {
  const LinearSystem s = build_system(generated("laplace2d", {60, 60}));
  const double tol = 1e-9;
  const std::int64_t ref = reference_iterations(s.a, s.b, tol, false);
  ASSERT_GT(ref, 40);
  const DeviceCsr a = DeviceCsr::upload(s.a);
  SpmvOptions k;
  k.remap = "auto";
  k.decide_after = 20;
  k.remap_opt.profile_steps = 2;
  k.remap_opt.data_changes = true;
  auto op = make_spmv(a, k);
  EXPECT_EQ(op->horizon_note(), "");  // undecided before the solve
  const auto b = dev(s.b);
  Kokkos::View<double*> x("x", a.rows);
  const CgResult r = cg_solve(*op, a, b, x, {tol, 10000, false});
  EXPECT_TRUE(r.converged);
  EXPECT_LE(std::abs(r.iterations - ref), 1);
  EXPECT_LE(relative_error(x, dev(s.xstar)), 1e-6);
  const std::string note = op->horizon_note();
  EXPECT_NE(note.find("decided after 20 iterations"), std::string::npos) << note;
  const auto rep = op->report();
  EXPECT_NE(rep.strategy.find("auto:"), std::string::npos) << rep.strategy;
  // The horizon auto was given: what remained after iteration 20, not max_iterations.
  EXPECT_EQ(rep.decision.find("over 10000 executions"), std::string::npos) << rep.decision;

  SpmvOptions late = k;
  late.decide_after = 100000;
  auto op2 = make_spmv(a, late);
  Kokkos::View<double*> x2("x2", a.rows);
  const CgResult r2 = cg_solve(*op2, a, b, x2, {tol, 10000, false});
  EXPECT_EQ(r2.iterations, r.iterations);
  EXPECT_NE(op2->horizon_note().find("before the decision point"), std::string::npos)
      << op2->horizon_note();
  EXPECT_NE(op2->report().strategy.find("auto:"), std::string::npos);
}

// The kernel-level auto (spmv.kernel auto): the kernels run the solve's own first iterations,
// timed, and the layer's auto chooses among them and its strategies; the solve is the textbook
// one whatever runs each iteration, and what was measured is reported. A solve shorter than the
// kernel measurements decides afterwards.
TEST(CgSolver, AutoKernelMeasuresTheKernelsOnTheSolveItself) {
  const LinearSystem s = build_system(generated("laplace2d", {60, 60}));
  const double tol = 1e-9;
  const std::int64_t ref = reference_iterations(s.a, s.b, tol, false);
  const DeviceCsr a = DeviceCsr::upload(s.a);
  SpmvOptions k;
  k.kernel = "auto";
  k.remap = "auto";
  k.decide_after = 20;
  k.remap_opt.profile_steps = 2;
  k.remap_opt.explore_budget = 0;  // every kernel measured (the budget's own case below)
  auto op = make_spmv(a, k);
  const auto b = dev(s.b);
  Kokkos::View<double*> x("x", a.rows);
  const CgResult r = cg_solve(*op, a, b, x, {tol, 10000, false});
  EXPECT_TRUE(r.converged);
  EXPECT_LE(std::abs(r.iterations - ref), 1);
  EXPECT_LE(relative_error(x, dev(s.xstar)), 1e-6);
  EXPECT_LE(true_relative_residual(*op, a, b, x), 1e-8);
  const auto rep = op->report();
  EXPECT_EQ(rep.strategy.rfind("auto:", 0), 0u) << rep.strategy;
  EXPECT_NE(rep.decision.find("measured on the solve's own iterations: "), std::string::npos)
      << rep.decision;
  EXPECT_NE(rep.decision.find("sell x 3"), std::string::npos) << rep.decision;
  EXPECT_NE(rep.decision.find("csr-warp x"), std::string::npos) << rep.decision;
  EXPECT_NE(rep.decision.find("gather x"), std::string::npos) << rep.decision;
  EXPECT_EQ(rep.decision.find("not measured"), std::string::npos) << rep.decision;
  bool warp = false;  // csr-warp competes as the app's own candidate
  for (const auto& p : rep.predictions)
    if (p.name == "csr-warp") warp = p.profiled && p.exec_ms > 0;
  EXPECT_TRUE(warp) << rep.decision;
  EXPECT_NE(op->horizon_note().find("decided after"), std::string::npos) << op->horizon_note();
  // A second solve runs the choice from its first iteration: the same iterates.
  Kokkos::View<double*> x2("x2", a.rows);
  const CgResult r2 = cg_solve(*op, a, b, x2, {tol, 10000, false});
  EXPECT_EQ(r2.iterations, r.iterations);

  // Too short to measure every kernel before it ends: decided afterwards, still correct.
  auto op3 = make_spmv(a, k);
  Kokkos::View<double*> x3("x3", a.rows);
  const CgResult r3 = cg_solve(*op3, a, b, x3, {1e-2, 10000, false});
  EXPECT_TRUE(r3.converged);
  EXPECT_LT(r3.iterations, 8);
  EXPECT_NE(op3->horizon_note().find("before the decision point"), std::string::npos)
      << op3->horizon_note();
  EXPECT_EQ(op3->report().strategy.rfind("auto:", 0), 0u);

  // The exploration budget: a kernel whose set-up (as the warm-up would time it) is more than
  // the budget's share of the run is not set up nor measured, and auto says so; the first kernel
  // is not judged by the budget (its hint here is as large) and is measured. The solve is the
  // same (within one iteration: the kernels' sums may round differently).
  SpmvOptions lean = k;
  lean.remap_opt.explore_budget = 0.05;
  lean.setup_hint_ms = {{"sell", 1e6}, {"csr-warp", 1e6}};
  auto op5 = make_spmv(a, lean);
  Kokkos::View<double*> x5("x5", a.rows);
  EXPECT_LE(std::abs(cg_solve(*op5, a, b, x5, {tol, 10000, false}).iterations - r.iterations), 1);
  const std::string d5 = op5->report().decision;
  EXPECT_NE(d5.find("sell x 3"), std::string::npos) << d5;
  EXPECT_NE(d5.find("kernel csr-warp not measured: its set-up (1000000.000 ms, as the warm-up "
                    "timed it on a small matrix) and iterations ("),
            std::string::npos)
      << d5;
  EXPECT_NE(d5.find("would take the measuring past the exploration budget (5% of sell "),
            std::string::npos)
      << d5;
  EXPECT_EQ(d5.find("csr-warp x"), std::string::npos) << d5;

  // Its iterations are judged at no less than a kernel just short of the clear-loser limit
  // costs (3 iterations at 1.5 x sell's: 1.5 of sell's iterations beyond the best's): with
  // set-ups that cost nothing and a budget of 0.01% of the run (at most one of sell's iterations
  // over the at most 10,000 left), no other kernel is measured.
  SpmvOptions tight = k;
  tight.remap_opt.explore_budget = 1e-4;
  tight.setup_hint_ms = {{"sell", 0.0}, {"csr-warp", 0.0}, {"csr-thread", 0.0}, {"cusparse", 0.0}};
  auto op6 = make_spmv(a, tight);
  Kokkos::View<double*> x6("x6", a.rows);
  EXPECT_LE(std::abs(cg_solve(*op6, a, b, x6, {tol, 10000, false}).iterations - r.iterations), 1);
  const std::string d6 = op6->report().decision;
  EXPECT_NE(d6.find("sell x 3"), std::string::npos) << d6;
  EXPECT_NE(d6.find("kernel csr-warp not measured: its set-up (0.000 ms"), std::string::npos) << d6;
  EXPECT_NE(d6.find("3 at 1.5 x sell's, the clear-loser limit"), std::string::npos) << d6;
  EXPECT_EQ(d6.find("csr-warp x"), std::string::npos) << d6;
  // One budget: the layer does not profile the gather the kernels' measuring skipped, nor any
  // strategy of its own where the budget left cannot cover 3 SpMVs at sell's time.
  EXPECT_NE(d6.find("gather   not explored: the kernels' measuring judged it past the "
                    "exploration budget"),
            std::string::npos)
      << d6;
  EXPECT_NE(d6.find("dup      not explored: what is left of the exploration budget"),
            std::string::npos)
      << d6;
  EXPECT_EQ(d6.find("gather   plan"), std::string::npos) << d6;

  // Decided before the solve (decide_after 0): on SpMVs of a ones vector, over max_iterations.
  SpmvOptions now = k;
  now.decide_after = 0;
  now.remap_opt.horizon.executions = 10000;
  auto op4 = make_spmv(a, now);
  EXPECT_EQ(op4->report().strategy.rfind("auto:", 0), 0u);
  Kokkos::View<double*> x4("x4", a.rows);
  EXPECT_EQ(cg_solve(*op4, a, b, x4, {tol, 10000, false}).iterations, r.iterations);

  SpmvOptions bad = k;
  bad.remap = "dup";  // kernel auto chooses the strategy too
  EXPECT_THROW(make_spmv(a, bad), Error);
}

// remap.reorder auto under kernel auto, the order scattered (SpmvOptions::DeferredReorder): auto
// reorders at its decision point where the most it can save over the iterations left exceeds the
// predicted cost (always where the cost is unmeasured), and the solve goes on in the new order:
// the same iterations (within 1) and solution as without, x back in the matrix's own order, a
// second solve in the new order from its start; where the cost is too high the order is kept; a
// solve that ends before the decision point keeps it.
TEST(CgSolver, AutoDeferredReorderRunsWhereItCanPayAndKeepsTheSolution) {
  CgParams g = generated("laplace2d", {60, 60});
  g.permute = true;
  g.permute_seed = 7;
  const LinearSystem s = build_system(g);
  const double tol = 1e-9;
  const DeviceCsr a = DeviceCsr::upload(s.a);
  const auto b = dev(s.b);
  const auto xstar = dev(s.xstar);
  SpmvOptions k;
  k.kernel = "auto";
  k.remap = "auto";
  k.decide_after = 20;
  k.remap_opt.profile_steps = 2;
  k.reorder.enabled = true;
  k.reorder.note = "scattered";
  for (const bool jacobi : {false, true}) {
    const std::int64_t ref = reference_iterations(s.a, s.b, tol, jacobi);
    ASSERT_GT(ref, 40);
    const CgOptions co{tol, 10000, jacobi};
    for (const double per_entry : {0.0, 1e-15}) {  // unmeasured; nearly free
      SpmvOptions kk = k;
      kk.reorder.ms_per_entry = per_entry;
      auto op = make_spmv(a, kk);
      Kokkos::View<double*> x("x", a.rows);
      const CgResult r = cg_solve(*op, a, b, x, co);
      ASSERT_TRUE(r.converged) << jacobi;
      EXPECT_LE(std::abs(r.iterations - ref), 1) << jacobi;
      EXPECT_LE(relative_error(x, xstar), 1e-6) << jacobi;
      EXPECT_LE(true_relative_residual(*op, a, b, x), 1e-8) << jacobi;  // through the order
      ASSERT_EQ(op->frame().order.extent(0), static_cast<std::size_t>(a.rows))
          << op->reorder_note();
      EXPECT_NE(op->frame().op, op.get());
      EXPECT_NE(op->name().find("+labelprop"), std::string::npos) << op->name();
      // Nearly free: before the decision point, as soon as a kernel is measured; then a fresh
      // auto over P A P^T measures the kernels and decides.
      EXPECT_EQ(op->reorder_note().rfind(per_entry > 0
                                             ? "scattered; labelprop before the decision point "
                                               "(after "
                                             : "scattered; labelprop run: its cost not measured",
                                         0),
                0u)
          << op->reorder_note();
      if (per_entry > 0) {
        EXPECT_NE(op->report().decision.find("kernels measured on the solve's own iterations"),
                  std::string::npos)
            << op->report().decision;
        EXPECT_NE(op->horizon_note().find("decided after"), std::string::npos)
            << op->horizon_note();
      }
      if (per_entry > 0)
        EXPECT_NE(op->reorder_note().find("over its predicted"), std::string::npos)
            << op->reorder_note();
      // A second solve runs in the new order from its start: the same iterates.
      Kokkos::View<double*> x2("x2", a.rows);
      const CgResult r2 = cg_solve(*op, a, b, x2, co);
      EXPECT_LE(std::abs(r2.iterations - r.iterations), 1);
      const auto h1 = host(x), h2 = host(x2);
      double diff = 0;
      for (std::size_t i = 0; i < h1.size(); ++i) diff = std::max(diff, std::abs(h1[i] - h2[i]));
      EXPECT_LE(diff, 1e-7) << jacobi;
    }
    // A reorder that cannot pay (a second per entry): the order kept, the solve as without it.
    SpmvOptions dear = k;
    dear.reorder.ms_per_entry = 1e3;
    dear.reorder.cache_gain = 0.5;  // x (29 KB) stays in any L2: the measured share is used
    auto op = make_spmv(a, dear);
    Kokkos::View<double*> x("x", a.rows);
    const CgResult r = cg_solve(*op, a, b, x, co);
    EXPECT_TRUE(r.converged);
    EXPECT_LE(std::abs(r.iterations - ref), 1);
    EXPECT_EQ(op->frame().order.extent(0), 0u);
    EXPECT_EQ(op->frame().op, op.get());
    EXPECT_NE(op->reorder_note().find("the order kept: at the last estimate (after "),
              std::string::npos)
        << op->reorder_note();
    EXPECT_NE(op->reorder_note().find("under its predicted"), std::string::npos)
        << op->reorder_note();
    EXPECT_NE(op->reorder_note().find(
                  " x 50%, what an order wins back of an SpMV where x stays in the L2"),
              std::string::npos)
        << op->reorder_note();
  }
  // The cost set from what the reorder could save by the decision's estimate (read from a run
  // that keeps the order): at half of it, it runs before the decision point, once the iterations
  // expected to remain (remaining_iterations' central estimate, from kBracketFrom residuals on)
  // make it pay; with the decision point before kBracketFrom residuals (no early estimate beyond
  // the iterations to it), at the decision; just above it, it is kept there and run later, when
  // the re-estimated iterations left make it pay (CG's rate slows down here as on the
  // stand-ins), in the waiting loop on the host and in the lagged loop on a GPU.
  // The costs are set from a probe's timed iterations, and the run compared times its own: a
  // busy host can make the two differ by more than the margins, so each case has a few tries.
  {
    const CgOptions co{1e-12, 10000, false};
    const auto run_case = [&](double factor, std::int64_t decide_after,
                              const std::vector<std::string>& want) {
      std::string last;
      for (int attempt = 0; attempt < 5; ++attempt) {
        SpmvOptions dear = k;
        dear.decide_after = decide_after;
        dear.reorder.fixed_ms = 1e9;
        auto probe = make_spmv(a, dear);
        Kokkos::View<double*> x("x", a.rows);
        const CgResult pr = cg_solve(*probe, a, b, x, co);
        const std::string d = probe->report().decision;
        const std::size_t at = d.find("= ", d.find("at the decision: the order kept for now"));
        if (at == std::string::npos) return d;
        SpmvOptions opt = dear;
        opt.reorder.fixed_ms = factor * std::stod(d.substr(at + 2));
        opt.reorder.ms_per_entry = 1e-15;
        auto op = make_spmv(a, opt);
        Kokkos::View<double*> x2("x2", a.rows);
        const CgResult r = cg_solve(*op, a, b, x2, co);
        EXPECT_TRUE(r.converged);
        EXPECT_LE(std::abs(r.iterations - pr.iterations), 1);
        EXPECT_LE(relative_error(x2, xstar), 1e-8);
        last = op->reorder_note();
        if (std::all_of(want.begin(), want.end(),
                        [&](const std::string& w) { return last.find(w) != std::string::npos; })) {
          EXPECT_EQ(op->frame().order.extent(0), static_cast<std::size_t>(a.rows));
          return std::string();
        }
      }
      return last;
    };
    EXPECT_EQ(run_case(0.5, 40,
                       {"; labelprop before the decision point (after ",
                        " iterations (expected to remain: between "}),
              "");
    EXPECT_EQ(run_case(0.5, static_cast<std::int64_t>(kBracketFrom) - 2,
                       {"; labelprop at the decision (after "}),
              "");
    EXPECT_EQ(run_case(1.2, 20, {"; labelprop later (after "}), "");
  }
  // Ended before the decision point: kept.
  auto op = make_spmv(a, k);
  Kokkos::View<double*> x("x", a.rows);
  const CgResult r = cg_solve(*op, a, b, x, {1e-2, 10000, false});
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(op->frame().order.extent(0), 0u);
  EXPECT_NE(op->reorder_note().find("the solve ended before auto's decision point"),
            std::string::npos)
      << op->reorder_note();
}

// spmv.warm_up: on a GPU the kernels run once on small matrices on a thread of their own while
// this thread does host work (here: generating the system); on the host nothing runs. Either way
// the solve afterwards is the one without it, bit for bit.
TEST(CgSolver, WarmUpRunsBesideTheHostsWorkAndLeavesTheSolveUnchanged) {
  SpmvOptions k;
  k.kernel = "auto";
  k.remap = "auto";
  const CgOptions o{1e-9, 10000, false};
  {
    KernelWarmUp off(false, k, o);
    EXPECT_FALSE(off.started());
    EXPECT_NE(off.note().find("off"), std::string::npos) << off.note();
    EXPECT_EQ(off.join(), 0.0);
  }
  const SpmvOptions gather;  // csr-thread through the layer's gather, one of auto's candidates
  const Solved ref = solve(build_system(generated("laplace2d", {60, 60})), gather, o);

  KernelWarmUp w(true, k, o);
  const LinearSystem s = build_system(generated("laplace2d", {60, 60}));  // beside the warm-up
  (void)w.join();
  if (std::is_same_v<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>) {
    EXPECT_FALSE(w.started());
    EXPECT_NE(w.note().find("not needed"), std::string::npos) << w.note();
  } else {
    EXPECT_TRUE(w.started());
    EXPECT_NE(w.note().find("launched"), std::string::npos) << w.note();
    EXPECT_NE(w.note().find("csr-warp"), std::string::npos) << w.note();
    EXPECT_GT(w.seconds(), 0.0);
  }
  const Solved after = solve(s, gather, o);
  EXPECT_TRUE(after.res.converged);
  EXPECT_EQ(after.res.iterations, ref.res.iterations);
  EXPECT_EQ(after.x, ref.x);
  // A first solve reports its whole time: the first SpMV and the iterations inside it.
  EXPECT_GT(after.res.first_spmv_seconds, 0.0);
  EXPECT_GE(after.res.total_seconds, after.res.loop_seconds + after.res.first_spmv_seconds);

  // With the reorder's part: given time (the host busy for a second), its cost and what an order
  // wins back in the L2 are measured; joined at once, its steps are skipped and nothing is
  // measured (GPU builds; on the host nothing runs).
  if (!std::is_same_v<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>) {
    KernelWarmUp slow(true, k, o, true);
    std::this_thread::sleep_for(std::chrono::seconds(1));
    (void)slow.join();
    EXPECT_NE(slow.note().find("the labelprop reorder"), std::string::npos) << slow.note();
    EXPECT_GT(slow.reorder_cost().ms_per_entry, 0.0) << slow.note();
    EXPECT_GT(slow.reorder_cost().cache_gain, 0.0) << slow.note();
    EXPECT_LT(slow.reorder_cost().cache_gain, 1.0) << slow.note();
    // a CG iteration's part beside the SpMV on the 1M-row grid: some, under a millisecond
    EXPECT_GT(slow.reorder_cost().other_ms_per_row, 0.0) << slow.note();
    EXPECT_LT(1e6 * slow.reorder_cost().other_ms_per_row, 1.0) << slow.note();
    EXPECT_EQ(slow.note().find("skipped"), std::string::npos) << slow.note();
    KernelWarmUp quick(true, k, o, true);
    (void)quick.join();
    EXPECT_NE(quick.note().find("skipped: the matrix was ready first"), std::string::npos)
        << quick.note();
    EXPECT_EQ(quick.reorder_cost().ms_per_entry, 0.0) << quick.note();
    EXPECT_EQ(quick.reorder_cost().cache_gain, 0.0) << quick.note();
    EXPECT_EQ(quick.reorder_cost().other_ms_per_row, 0.0) << quick.note();
  }
}

// The extrapolation: a residual falling by 10x every 10 iterations needs 10 more per decade.
TEST(CgSolver, ExpectedRemainingIterationsExtrapolatesTheRate) {
  std::vector<double> h;
  for (int i = 1; i <= 40; ++i) h.push_back(std::pow(10.0, -i / 10.0));  // 1e-4 after 40
  EXPECT_EQ(expected_remaining_iterations(h, 1e-8, 100000), 40);
  EXPECT_EQ(expected_remaining_iterations(h, 1e-8, 25), 25);   // at most what is left
  EXPECT_EQ(expected_remaining_iterations(h, 1e-3, 1000), 0);  // already there
  std::vector<double> flat(30, 0.5);
  EXPECT_EQ(expected_remaining_iterations(flat, 1e-8, 777), 777);  // not falling: all of it
}

// The bracket: a residual falling as i^-2 (a power law, as CG's does on the PDE systems before
// its asymptotic rate) needs 10,000 iterations to 1e-8 in all; its later half's geometric rate
// says 160 more after 40, its power law 9,960, the central estimate the mean count with its log
// uniform between them, (9960 - 160) / ln(9960 / 160).
TEST(CgSolver, RemainingIterationsBracketsRateAndPowerLaw) {
  std::vector<double> h;
  for (int i = 1; i <= 40; ++i) h.push_back(1.0 / (static_cast<double>(i) * i));
  const RemainingIterations r = remaining_iterations(h, 1e-8, 100000);
  EXPECT_EQ(r.lower, expected_remaining_iterations(h, 1e-8, 100000));
  EXPECT_EQ(r.lower, 160);
  EXPECT_NEAR(static_cast<double>(r.upper), 9960.0, 1.0);
  const double hi = static_cast<double>(r.upper);
  EXPECT_NEAR(static_cast<double>(r.central), (hi - 160.0) / std::log(hi / 160.0), 1.0);
  EXPECT_NEAR(static_cast<double>(r.central), 2372.0, 1.0);
  // at most what is left, all three
  const RemainingIterations capped = remaining_iterations(h, 1e-8, 500);
  EXPECT_EQ(capped.lower, 160);
  EXPECT_EQ(capped.upper, 500);
  EXPECT_EQ(capped.central, std::llround(340.0 / std::log(500.0 / 160.0)));
  // a geometric history: the power law through the same two points is longer (120 against 40)
  std::vector<double> g;
  for (int i = 1; i <= 40; ++i) g.push_back(std::pow(10.0, -i / 10.0));
  const RemainingIterations rg = remaining_iterations(g, 1e-8, 100000);
  EXPECT_EQ(rg.lower, 40);
  EXPECT_EQ(rg.upper, 120);
  EXPECT_EQ(rg.central, 73);  // 80 / ln 3
  // too short a history to bracket: all three the rate's
  h.resize(kBracketFrom - 1);
  const RemainingIterations s = remaining_iterations(h, 1e-8, 100000);
  EXPECT_EQ(s.lower, s.upper);
  EXPECT_EQ(s.central, s.lower);
  // already there, or not falling
  EXPECT_EQ(remaining_iterations(g, 1e-3, 1000).central, 0);
  EXPECT_EQ(remaining_iterations(std::vector<double>(30, 0.5), 1e-8, 777).central, 777);
}

}  // namespace
}  // namespace mdremap::cg

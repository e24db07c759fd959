#include "cg/warm_up.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <exception>
#include <type_traits>
#include <vector>

#include "cg/device_csr.hpp"
#include "cg/device_reorder.hpp"
#include "cg/generators.hpp"

namespace mdremap::cg {

namespace {

// The kernels a solve with these options may launch before or while it decides. A remap
// strategy other than the gather is warmed as the gather (the iteration's own kernels and the
// layer's gather path): its planning runs host-parallel code that is not for a second thread,
// and its own kernels load at its first launch.
std::vector<SpmvOptions> kernels_of(const SpmvOptions& o) {
  if (o.kernel != "auto") {
    SpmvOptions s = o;
    s.remap = "gather";
    return {s};
  }
  std::vector<SpmvOptions> ks;  // auto's candidates, as auto_spmv.cpp sets them up
  for (const char* k : {"sell", "cusparse", "csr-thread", "csr-warp"}) {
    if (std::string(k) == "cusparse" && !have_cusparse()) continue;
    SpmvOptions s = o;
    s.kernel = k;
    s.remap = "gather";
    ks.push_back(s);
  }
  return ks;
}

// Neighbour j of point p of an nx x ny grid (south, west, p, east, north), -1 past the boundary.
struct GridNeighbour {
  std::int64_t nx, ny;
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(const std::int64_t p, const int j) const {
    const std::int64_t x = p % nx, y = p / nx;
    switch (j) {
      case 0:
        return y > 0 ? p - nx : -1;
      case 1:
        return x > 0 ? p - 1 : -1;
      case 2:
        return p;
      case 3:
        return x + 1 < nx ? p + 1 : -1;
      default:
        return y + 1 < ny ? p + nx : -1;
    }
  }
};

// The 5-point Laplacian of an nx x ny grid (diagonal 4, off-diagonals -1), built on the device.
DeviceCsr device_grid(int nx, int ny) {
  using Policy = Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>;
  DeviceCsr d;
  const std::int64_t n = static_cast<std::int64_t>(nx) * ny;
  d.rows = d.cols = n;
  d.max_len = 5;
  d.rowptr = Kokkos::View<std::int64_t*>("cg::warm_rowptr", n + 1);
  d.len = Kokkos::View<int*>("cg::warm_len", n);
  const auto rp = d.rowptr;
  const auto len = d.len;
  const GridNeighbour at{nx, ny};
  Kokkos::parallel_scan(
      "CG::warm_grid_rows", Policy(0, n + 1),
      KOKKOS_LAMBDA(const std::int64_t p, std::int64_t& pos, const bool final) {
        if (final) rp(p) = pos;
        if (p == n) return;
        int k = 0;
        for (int j = 0; j < 5; ++j) k += at(p, j) >= 0;
        if (final) len(p) = k;
        pos += k;
      },
      d.nnz);
  d.col = Kokkos::View<int*>("cg::warm_col", d.nnz);
  d.val = Kokkos::View<double*>("cg::warm_val", d.nnz);
  const auto col = d.col;
  const auto val = d.val;
  Kokkos::parallel_for(
      "CG::warm_grid_fill", Policy(0, n), KOKKOS_LAMBDA(const std::int64_t p) {
        std::int64_t k = rp(p);
        for (int j = 0; j < 5; ++j) {
          const std::int64_t q = at(p, j);
          if (q < 0) continue;
          col(k) = static_cast<int>(q);
          val(k) = q == p ? 4.0 : -1.0;
          ++k;
        }
      });
  return d;
}

}  // namespace

KernelWarmUp::KernelWarmUp(bool enabled, const SpmvOptions& spmv, const CgOptions& solver,
                           bool reorder) {
  if (!enabled) {
    note_ = "off (spmv.warm_up: false)";
    return;
  }
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>) {
    try {
      thread_ = std::thread([this, spmv, solver, reorder] { run(spmv, solver, reorder); });
      started_ = true;
    } catch (const std::exception& e) {  // no thread: the kernels load at their first launch
      note_ = fmt::format("not started ({}): the kernels load at their first launch in the solve",
                          e.what());
    }
    return;
  }
#endif
  note_ = "not needed (host build: no kernel modules to load)";
}

KernelWarmUp::~KernelWarmUp() {
  if (thread_.joinable()) thread_.join();
}

double KernelWarmUp::join() {
  if (!thread_.joinable()) return 0.0;
  Kokkos::Timer t;
  thread_.join();
  return t.seconds();
}

void KernelWarmUp::run(SpmvOptions spmv, CgOptions solver, bool reorder) {
  Kokkos::Timer t;
  std::string names;
  try {
    // Small matrices (4,096 rows) of 5, 7 and about 24 entries a row: the kernels take their
    // shapes at run time, so the instantiations are the real solve's, and a library that picks a
    // kernel by the mean row length (cuSPARSE) meets the common ones. A CG solve of a few
    // iterations on the first launches everything an iteration does; an SpMV on the others.
    std::vector<GeneratorSpec> gens(3);
    gens[0].name = "laplace2d";
    gens[0].dims = {64, 64};
    gens[1].name = "laplace3d";
    gens[1].dims = {16, 16, 16};
    gens[2].name = "laplace3d27";
    gens[2].dims = {16, 16, 16};
    solver.max_iterations = 5;
    spmv.l2_persist = false;  // the stream's window is the real matrix's, set after the join
    const std::vector<SpmvOptions> ks = kernels_of(spmv);
    // The reorder last: the solve's kernels matter to every run, and it is the longest.
    for (std::size_t m = 0; m < gens.size(); ++m) {
      const DeviceCsr a = DeviceCsr::upload(generate(gens[m]));
      Kokkos::View<double*> b("cg::warm_b", a.rows), x("cg::warm_x", a.rows);
      Kokkos::deep_copy(b, 1.0);
      for (const SpmvOptions& k : ks) {
        const auto op = make_spmv(a, k);
        if (m == 0) {
          (void)cg_solve(*op, a, b, x, solver);
          (void)true_relative_residual(*op, a, b, x);
          names += (names.empty() ? "" : ", ") + op->name();
        } else {
          op->apply(b, x);
        }
      }
    }
    if (reorder) {  // the order (its sorts among it), P A P^T and a vector's permutation, on a
      // 512 x 512 grid made on the device (no host generation or upload to wait for): the radix
      // sort picks its kernels by the key count, so a few thousand keys would load others than
      // the real matrix's hundreds of thousands need.
      const DeviceCsr a = device_grid(512, 512);
      const remap::GraphOrder g = labelprop_order(a, 16);
      (void)permute_symmetric(a, g.order);
      (void)permute_vector(Kokkos::View<double*>("cg::warm_v", a.rows), g.order);
      names += ", the labelprop reorder (on a 262,144-row grid made on the device)";
    }
    Kokkos::fence();
    seconds_ = t.seconds();
    note_ = fmt::format(
        "{} launched on three 4,096-row matrices beside the matrix's set-up ({:.1f} ms)", names,
        1e3 * seconds_);
  } catch (const std::exception& e) {
    seconds_ = t.seconds();
    note_ = fmt::format(
        "failed after {:.1f} ms ({}): the kernels load at their first launch in "
        "the solve instead",
        1e3 * seconds_, e.what());
  } catch (...) {
    seconds_ = t.seconds();
    note_ = "failed (an unknown exception): the kernels load at their first launch in the solve";
  }
}

}  // namespace mdremap::cg

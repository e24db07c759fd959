#include "cg/warm_up.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
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

// sell's SpMV time on `a` (ms): the mean of 20 back-to-back calls after one untimed.
double sell_ms(const DeviceCsr& a) {
  SpmvOptions k;
  k.kernel = "sell";
  const auto op = make_spmv(a, k);
  return time_spmv_ms(*op, a, 20);
}

// i -> i x 0x9E3779B1 mod n, n a power of two (an odd multiplier: a permutation).
Kokkos::View<int*> multiplicative_order(std::int64_t n) {
  Kokkos::View<int*> o(Kokkos::view_alloc("cg::warm_scatter", Kokkos::WithoutInitializing), n);
  const std::uint64_t mask = static_cast<std::uint64_t>(n) - 1;
  Kokkos::parallel_for(
      "CG::warm_scatter", Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>(0, n),
      KOKKOS_LAMBDA(const std::int64_t i) {
        o(i) = static_cast<int>((static_cast<std::uint64_t>(i) * 0x9E3779B1ull) & mask);
      });
  return o;
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
  const int cluster_rows = spmv.remap_opt.block_threads;
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
      const DeviceCsr a = laplace2d_on_device(512, 512);
      const remap::GraphOrder g = labelprop_order(a, 16);
      (void)permute_symmetric(a, g.order);
      (void)permute_vector(Kokkos::View<double*>("cg::warm_v", a.rows), g.order);
      // Then timed, its kernels loaded, on that grid and on one four times its size: what auto's
      // deferred reorder predicts its own cost from (fixed + per matrix entry, at the solve's
      // cluster size; the rounds' host waits make the fixed part).
      double ms[2] = {0, 0}, entries[2] = {0, 0};
      const DeviceCsr big = laplace2d_on_device(1024, 1024);
      for (int i = 0; i < 2; ++i) {
        const DeviceCsr& grid = i == 0 ? a : big;
        Kokkos::fence();
        Kokkos::Timer rt;
        const remap::GraphOrder gi = labelprop_order(grid, cluster_rows);
        (void)permute_symmetric(grid, gi.order);
        Kokkos::fence();
        ms[i] = 1e3 * rt.seconds();
        entries[i] = static_cast<double>(grid.nnz);
      }
      reorder_cost_.ms_per_entry = std::max(0.0, (ms[1] - ms[0]) / (entries[1] - entries[0]));
      reorder_cost_.fixed_ms = std::max(0.0, ms[0] - reorder_cost_.ms_per_entry * entries[0]);
      names += fmt::format(
          ", the labelprop reorder (on a 262,144-row grid made on the device; then timed there "
          "and on a 1,048,576-row grid: {:.2f} and {:.2f} ms, so {:.2f} ms + {:.3f} ms per "
          "million entries)",
          ms[0], ms[1], reorder_cost_.fixed_ms, 1e6 * reorder_cost_.ms_per_entry);
      // And what an order is worth where x stays in the L2 (the larger grid's x is 8 MB): sell's
      // SpMV on the grid in its own order against the same grid renumbered by a multiplicative
      // scatter (i -> i x 0x9E3779B1 mod 2^20), so the share of an SpMV's time a reorder can
      // win back there (auto_spmv.cpp; past the L2 the bytes' floor says it instead).
      const double nat = sell_ms(big);
      const DeviceCsr scattered = permute_symmetric(big, multiplicative_order(big.rows));
      const double scat = sell_ms(scattered);
      reorder_cost_.cache_gain = scat > 0 ? std::max(0.0, 1.0 - nat / scat) : 0.0;
      names += fmt::format(
          "; sell on it {:.4f} ms, renumbered {:.4f} ms: an order wins back {:.0f}% where x stays "
          "in the L2",
          nat, scat, 100 * reorder_cost_.cache_gain);
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

#include "cg/warm_up.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <exception>
#include <type_traits>
#include <vector>

#include "cg/auto_spmv.hpp"
#include "cg/device_csr.hpp"
#include "cg/device_reorder.hpp"
#include "cg/generators.hpp"
#include "mdremap/remap/registry.hpp"

namespace mdremap::cg {

namespace {

// What a CG iteration reads and writes beside its SpMV, in vectors of its rows: the update reads
// p, s, r, w and writes p, s, r (x, deferred, every other iteration: one more), the SpMV's fused
// dots read r and u of their own row; with Jacobi, u and the inverse diagonal too, and u written.
constexpr int kOtherVectors = 10;
constexpr int kOtherVectorsJacobi = 13;

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
  std::vector<SpmvOptions> ks;
  for (const std::string& k : auto_candidate_kernels()) {
    SpmvOptions s = o;
    s.kernel = k;
    s.remap = "gather";
    ks.push_back(s);
  }
  return ks;
}

// sell's SpMV time on `a` (ms), with the solve's sell options: the mean of 10 back-to-back calls
// after one untimed.
double sell_ms(const DeviceCsr& a, const SpmvOptions& solve) {
  SpmvOptions k;
  k.kernel = "sell";
  k.sell_diagonals = solve.sell_diagonals;  // as the solve's sell will be built
  k.sell_sigma = solve.sell_sigma;
  const auto op = make_spmv(a, k);
  return time_spmv_ms(*op, a, 10);
}

}  // namespace

KernelWarmUp::KernelWarmUp(bool enabled, const SpmvOptions& spmv, const CgOptions& solver,
                           bool reorder, bool scatter_check) {
  if (!enabled) {
    note_ = "off (spmv.warm_up: false)";
    return;
  }
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>) {
    try {
      thread_ = std::thread([this, spmv, solver, reorder, scatter_check] {
        run(spmv, solver, reorder, scatter_check);
      });
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
  stop_.store(true);  // the reorder's optional steps end at the next step
  thread_.join();
  return t.seconds();
}

void KernelWarmUp::run(SpmvOptions spmv, CgOptions solver, bool reorder, bool scatter_check) {
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
        Kokkos::fence();
        Kokkos::Timer st;
        const auto op = make_spmv(a, k);
        Kokkos::fence();
        const double set_up = 1e3 * st.seconds();
        const auto [at, fresh] = setup_ms_.try_emplace(k.kernel, set_up);
        if (!fresh) at->second = std::min(at->second, set_up);
        if (m == 0) {
          (void)cg_solve(*op, a, b, x, solver);
          (void)true_relative_residual(*op, a, b, x);
          names += (names.empty() ? "" : ", ") + op->name();
        } else {
          op->apply(b, x);
        }
      }
      if (m == 0 && scatter_check) (void)scattered_fraction(a, kScatteredReach);
    }
    // The reorder's part, step by step, each skipped once the main thread has the matrix and
    // waits (join): the solve's own kernels above matter to every run, this only to a matrix
    // found scattered under remap.reorder auto (then a skipped step costs the reorder its first
    // launches, or auto its measured cost: see cg/auto_spmv.cpp), and a natural matrix that is
    // quicker to make than the warm-up should not wait for it.
    std::string cut, extra;
    const auto go_on = [&](const char* step) {
      if (!stop_.load()) return true;
      if (cut.empty()) cut = step;
      return false;
    };
    if (reorder && go_on("the reorder's kernels")) {
      // The order (its sorts among it), P A P^T and a vector's permutation, on a 512 x 512 grid
      // made on the device (no host generation or upload to wait for): the radix sort picks its
      // kernels by the key count, so a few thousand keys would load others than the real
      // matrix's hundreds of thousands need.
      const DeviceCsr a = laplace2d_on_device(512, 512);
      const remap::GraphOrder g = labelprop_order(a, 16);
      (void)permute_symmetric(a, g.order);
      (void)permute_vector(Kokkos::View<double*>("cg::warm_v", a.rows), g.order);
      extra += "; the labelprop reorder on a 262,144-row grid made on the device";
      // Then timed, its kernels loaded, on that grid and on one four times its size: what auto's
      // deferred reorder predicts its own cost from (fixed + per matrix entry, at the solve's
      // cluster size; the rounds' host waits make the fixed part).
      const auto reorder_ms = [&](const DeviceCsr& grid) {
        Kokkos::fence();
        Kokkos::Timer rt;
        const remap::GraphOrder gi = labelprop_order(grid, cluster_rows);
        (void)permute_symmetric(grid, gi.order);
        Kokkos::fence();
        return 1e3 * rt.seconds();
      };
      double ms[2] = {0, 0}, entries[2] = {0, 0};
      DeviceCsr big;
      if (go_on("the reorder's timing")) {
        ms[0] = reorder_ms(a);
        entries[0] = static_cast<double>(a.nnz);
      }
      if (entries[0] > 0 && go_on("the reorder's timing")) big = laplace2d_on_device(1024, 1024);
      if (big.rows > 0 && go_on("the reorder's timing")) {
        ms[1] = reorder_ms(big);
        entries[1] = static_cast<double>(big.nnz);
      }
      if (entries[1] > 0) {
        ReorderCost c;
        c.ms_per_entry = std::max(0.0, (ms[1] - ms[0]) / (entries[1] - entries[0]));
        c.fixed_ms = std::max(0.0, ms[0] - c.ms_per_entry * entries[0]);
        extra += fmt::format(
            "; timed there and on a 1,048,576-row grid: {:.2f} and {:.2f} ms, so {:.2f} ms + "
            "{:.3f} ms per million entries",
            ms[0], ms[1], c.fixed_ms, 1e6 * c.ms_per_entry);
        // And what an order is worth where x stays in the L2 (the larger grid's x is 8 MB):
        // sell's SpMV on the grid renumbered by a pseudo-random permutation (as matrix.permute
        // does; a multiplicative or bit-reversed renumbering of a stencil leaves a slice's k-th
        // neighbours at constant offsets, and shows almost no gain) against the same after
        // labelprop reorders it, so the share of an SpMV's time a reorder wins back there
        // (auto_spmv.cpp; past the L2 the bytes' floor says it instead). Not against the grid's own
        // order: there sell's slices share their offsets (diagonal columns, sell_spmv.hpp) and move
        // fewer bytes than in the order labelprop finds.
        double nat = 0, scat = 0;
        DeviceCsr scattered, ordered;
        if (go_on("the SpMV's gain from an order"))
          scattered = permute_symmetric(big, pseudo_random_order(20));
        if (scattered.rows > 0 && go_on("the SpMV's gain from an order"))
          ordered = permute_symmetric(scattered, labelprop_order(scattered, cluster_rows).order);
        if (ordered.rows > 0 && go_on("the SpMV's gain from an order")) {
          nat = sell_ms(ordered, spmv);
          scat = sell_ms(scattered, spmv);
          c.cache_gain = scat > 0 ? std::max(0.0, 1.0 - nat / scat) : 0.0;
          extra += fmt::format(
              "; sell on it randomly renumbered, then reordered by labelprop {:.4f} ms, as "
              "renumbered {:.4f} ms: an order wins back {:.0f}% of an SpMV "
              "where x stays in the L2",
              nat, scat, 100 * c.cache_gain);
        }
        // The rest of a CG iteration, which no order changes: the update's vectors and the
        // dots' own rows, kOtherVectors a row (read or written, 8 bytes each), at the copy
        // bandwidth the remap layer's auto probes for as many bytes (AutoStrategy::copy_gb_per_s).
        // auto takes the share above of what remains of its measured iteration. (Timing whole CG
        // iterations here instead read up to several times the solve's own: the warm-up's host
        // waits share the host with the matrix's set-up; a copy's probe queues no host waits.)
        if (nat > 0 && go_on("the iteration's part beside the SpMV")) {
          const int vectors = solver.jacobi ? kOtherVectorsJacobi : kOtherVectors;
          const double gb_per_s = remap::AutoStrategy<double>::copy_gb_per_s(
              8.0 * vectors * static_cast<double>(ordered.rows));
          c.other_ms_per_row = 8.0 * vectors / (1e6 * gb_per_s);
          extra += fmt::format(
              "; {} vectors of a CG iteration beside its SpMV at the copy bandwidth ({:.0f} GB/s): "
              "{:.4f} ms a million rows",
              vectors, gb_per_s, 1e6 * c.other_ms_per_row);
        }
        reorder_cost_ = c;
      }
    }
    if (!cut.empty())
      extra += fmt::format(" (from {} on skipped: the matrix was ready first)", cut);
    Kokkos::fence();
    seconds_ = t.seconds();
    std::string set_ups;
    for (const auto& [k, ms] : setup_ms_)
      set_ups += fmt::format("{}{} {:.3f}", set_ups.empty() ? "" : ", ", k, ms);
    note_ = fmt::format(
        "{} launched on three 4,096-row matrices (set-ups, the least of three: {} ms){} beside "
        "the matrix's set-up ({:.1f} ms)",
        names, set_ups, extra, 1e3 * seconds_);
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

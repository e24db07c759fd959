#pragma once
// The solve's kernels launched once, on a small matrix, on a host thread of their own while the
// main thread builds the real matrix (`spmv.warm_up`, CUDA builds).
//
// The CUDA runtime loads a kernel's module at its first launch (lazy loading, the default since
// CUDA 12.2), and cuSPARSE's first SpMV loads its own; these first launches cost as much as tens of
// CG iterations of a small matrix. A user pays them once per process wherever they fall: here they
// fall while the host generates or reads the matrix, which takes far longer, so they are hidden
// rather than moved. `auto`'s exploration (auto_spmv.hpp) launches every candidate kernel, so it
// warms them all. Kokkos allows kernels to be launched on one execution space instance from several
// host threads (Kokkos 4.2+, TestExecSpaceThreadSafety); the main thread does no device work until
// it joins.
#include <atomic>
#include <map>
#include <string>
#include <thread>

#include "cg/solver.hpp"
#include "cg/spmv.hpp"

namespace mdremap::cg {

class KernelWarmUp {
 public:
  // Starts the thread when `enabled` and the build runs on a GPU; else does nothing. `reorder`:
  // the device reordering's kernels too (remap.reorder labelprop, cg/device_reorder.hpp);
  // `scatter_check`: remap.reorder auto's measure of the order (scattered_fraction, whose first
  // launch is slow).
  KernelWarmUp(bool enabled, const SpmvOptions& spmv, const CgOptions& solver, bool reorder = false,
               bool scatter_check = false);
  ~KernelWarmUp();
  KernelWarmUp(const KernelWarmUp&) = delete;
  KernelWarmUp& operator=(const KernelWarmUp&) = delete;

  // Waits for the thread (its reorder steps stop at the next step: only the solve's own kernels
  // are waited for in full); returns the seconds this call waited (counted in the SpMV set-up).
  double join();
  bool started() const { return started_; }
  double seconds() const { return seconds_; }  // the warm-up's own run time
  // With `reorder`: the reorder's cost as timed on two grids, its kernels loaded (fixed_ms +
  // ms_per_entry x entries; both 0 where it did not run). Read after join().
  struct ReorderCost {
    double fixed_ms = 0, ms_per_entry = 0;
    // The share of sell's SpMV time an order wins back where x stays in the L2: 1 - (the
    // 1024 x 1024 grid renumbered by a scatter, then reordered by labelprop) / (the same
    // scattered).
    double cache_gain = 0;
    // A CG iteration's time beside its SpMV, per row (ms): the bytes the iteration moves
    // besides (its update's vectors, the dots' own rows) at the device's copy bandwidth, probed
    // for that grid's rows (remap::AutoStrategy::copy_gb_per_s). 0: not measured.
    double other_ms_per_row = 0;
  };
  const ReorderCost& reorder_cost() const { return reorder_cost_; }
  // Each kernel's set-up (ms, by SpmvOptions::kernel), the least over the small matrices: what
  // auto's exploration budget expects a set-up to cost at least (SpmvOptions::setup_hint_ms).
  // Read after join(); empty where the warm-up did not run.
  const std::map<std::string, double>& setup_ms() const { return setup_ms_; }
  // What ran, or why nothing did, or what failed (a failure costs only the first launches' time
  // in the solve: the kernels load there instead).
  const std::string& note() const { return note_; }

 private:
  void run(SpmvOptions spmv, CgOptions solver, bool reorder, bool scatter_check);
  std::thread thread_;
  std::atomic<bool> stop_{false};  // join() asks the reorder's optional steps to stop
  bool started_ = false;
  double seconds_ = 0;
  ReorderCost reorder_cost_;
  std::map<std::string, double> setup_ms_;
  std::string note_;
};

}  // namespace mdremap::cg

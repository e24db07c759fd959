#pragma once
// One CG run as `mdremap cg` makes it (BRIEF section 6): the kernels warmed up while the host
// builds the system, the system written where asked, reordered where it pays, uploaded, its
// SpMV planned, solved `solve.repeats` times, then measured: the SpMV alone, against the plain
// gather, and in the papers' transaction model. The front end prints what it reports.
#include <cstdint>
#include <string>
#include <vector>

#include "cg/params.hpp"
#include "cg/solver.hpp"
#include "cg/system.hpp"
#include "mdremap/remap/report.hpp"
#include "mdremap/remap/transaction_breakdown.hpp"

namespace mdremap::cg {

class CgSpmv;

// Files written beside the solve; empty: none.
struct RunFiles {
  std::string matrix;  // Matrix Market: the matrix as the deck defines it (before remap.reorder)
  std::string npy;     // PREFIX of PREFIX_{rowptr,col,val,b,xstar}.npy
};

// The run's steps as they happen, for the front end to show.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // The system is read or generated (nothing comes before: a bad file is the only output).
  virtual void system_built(const LinearSystem& /*s*/) {}
  // The order is decided, and applied where it runs before the solve (note: what and why).
  virtual void reordered(const std::string& /*note*/) {}
  // The SpMV is planned (auto: profiled and decided, or left to its decision point).
  struct Ready {
    std::string warm_up_note;
    bool warm_up_started = false;
    double warm_up_waited_s = 0;
    std::string spmv;  // the kernel as planned (CgSpmv::describe)
  };
  virtual void spmv_ready(const Ready& /*r*/) {}
  // After each iteration of every solve: its relative residual, seconds since the solve began.
  virtual void iteration(std::int64_t /*it*/, double /*rel*/, double /*seconds*/) {}
  // The solves have ended; auto may have decided during them (horizon: how, or empty).
  virtual void solved(const std::string& /*horizon*/, const std::string& /*spmv*/) {}
};

struct RunReport {
  // The system as solved.
  std::string source;
  std::int64_t rows = 0, nnz = 0;
  int max_row_len = 0;
  bool have_xstar = false;
  // Set-up (seconds) and the reorder's note (what remap.reorder did and why).
  double matrix_seconds = 0, reorder_seconds = 0, upload_seconds = 0, spmv_setup_seconds = 0;
  std::string reorder_note;
  struct WarmUp {
    bool started = false;
    double seconds = 0, waited_seconds = 0;
    std::string note;
  } warm_up;
  // The solves: the last one's result with the median loop time; each one's times; the first
  // one's recurrence residual after each iteration and when it reached the host.
  CgResult result;
  std::vector<double> solve_seconds, total_seconds, first_spmv_seconds, start_seconds;
  std::vector<double> residual_history, residual_seconds;
  double true_relative_residual = 0, relative_error = 0, ms_per_iteration = 0;
  // The SpMV as the solve ran it, timed alone (0: spmv.timing_repeats 0).
  std::string spmv_name, spmv_describe, horizon_note;
  double spmv_ms = 0, spmv_bytes = 0, spmv_gbytes_per_s = 0, format_bytes = 0;
  // Its remap strategy (csr-thread); `remapped`: a strategy other than the plain gather, then
  // timed against it: the gather's SpMV, the strategy's set-up, SpMVs to pay it back (-1: never).
  bool has_report = false, remapped = false;
  remap::RemapReport remap;
  double remap_ms = 0, gather_ms = 0, overhead_ms = 0, payback = -1;
  // Modelled transactions per SpMV (solve.transactions): the CSR gather's, and the strategy's
  // own layout where it models one (`modelled`).
  bool modelled = false;
  remap::TransactionBreakdown csr_tx, strategy_tx;
};

// The matrix in one line: source, rows, entries, row lengths, permutation.
std::string matrix_line(const LinearSystem& s, const CgParams& p);

RunReport run(const CgParams& p, const RunFiles& files, RunObserver& obs);

}  // namespace mdremap::cg

#pragma once
// The SpMV kernels CG can run (BRIEF section 6): the SpmvBody compute body served by a remap
// strategy chosen by name (`--remap gather|dup|sharing|throttle|auto`, the registry's names; a
// thread per row), the same body with a warp or part of one per row (`--spmv csr-warp`, the gather
// only), and cuSPARSE's CSR SpMV (`--spmv cusparse`, CUDA builds), the anchor.
#include <Kokkos_Core.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cg/device_csr.hpp"
#include "mdremap/remap/device_pattern.hpp"
#include "mdremap/remap/options.hpp"
#include "mdremap/remap/report.hpp"
#include "mdremap/remap/strategy_choice.hpp"
#include "mdremap/remap/transaction_breakdown.hpp"

namespace mdremap::cg {

struct SpmvOptions {
  // csr-thread | csr-warp | cusparse | auto (auto_spmv.hpp: the kernel and the strategy chosen)
  std::string kernel = "csr-thread";
  int vector_length = 0;  // csr-warp: lanes per row (power of 2, <= 32); 0 = from the mean row
  remap::StrategyChoice remap{"gather"};  // csr-thread: the remap strategy
  // auto: CG iterations run (served by the gather while auto is undecided) before it decides, over
  // the iterations it then expects to remain; 0: decide before the solve, over max_iterations.
  std::int64_t decide_after = 30;
  // csr-thread: the iteration's two dot products in the SpMV's own reduction (true), or a plain
  // SpMV and then one range reduction over w, u and r (false, the default: measured faster or
  // equal on most matrices, docs/benchmarks.md; csr-warp and cuSPARSE always do this).
  bool fused_dots = false;
  // sell: the same in sell's own kernel (true, the default: a CUDA kernel of its own, a row a
  // thread, blocks of 256, cg/slot_reduction.hpp), or after it (false).
  bool sell_fused_dots = true;
  // sell: rows sorted by length within windows of this many rows (sell_spmv.hpp); 0 = where the
  // padding in the rows' own order exceeds 5% (windows of 256), 1 = never.
  int sell_sigma = 0;
  // sell: slices whose rows share their column offsets keep them as diagonal columns, no index an
  // entry (sell_spmv.hpp); false: every slice as sliced ELL.
  bool sell_diagonals = true;
  // sell and cusparse (CUDA builds): the matrix's values (sell: with its 16-bit offsets) marked
  // persisting in the L2 for the solve (mdremap/remap/l2_window.hpp), so that the share of them
  // the set-aside holds is read from the L2 on every SpMV after the first.
  bool l2_persist = false;
  remap::RemapOptions remap_opt;
  // auto (kernel auto): a kernel's set-up time (ms) by its kernel name, as the warm-up timed it
  // on a small matrix (cg/warm_up.hpp; a lower bound on the real matrix's), for the exploration
  // budget's check before auto sets the kernel up to measure it (auto_spmv.hpp). Absent: 0.
  std::map<std::string, double> setup_hint_ms;
  // auto (kernel auto): remap.reorder auto found the matrix's order scattered
  // (cg/device_reorder.hpp) and left the reorder to auto's decision point, where the iterations
  // expected to remain say whether it can pay (auto_spmv.hpp).
  struct DeferredReorder {
    bool enabled = false;
    // The reorder's cost on this device, fixed_ms + ms_per_entry x the matrix's entries, measured
    // by the warm-up on two grids; both 0: not measured (warm-up off, or a host build): it then
    // runs at the decision.
    double fixed_ms = 0, ms_per_entry = 0;
    // The share of an SpMV's time an order wins back where x stays in the L2, measured by the
    // warm-up on a grid (0: not measured: the whole SpMV above its floor is taken as the most it
    // can win, a bound).
    double cache_gain = 0;
    // The part of a CG iteration that is not its SpMV, per row (ms), measured by the warm-up on
    // the same grid (0: not measured: the whole iteration is taken as SpMV, a bound): cache_gain
    // is taken of the measured iteration less this.
    double other_ms_per_row = 0;
    std::string note;  // what the scattered measure found
  } reorder;
};

// s0 = w . u and s1 = r . u in one pass (blocking: the sums reach the host).
remap::Sums2 cg_dots(Kokkos::View<const double*> w, Kokkos::View<const double*> u,
                     Kokkos::View<const double*> r);
// The same into device memory, without waiting.
void cg_dots_into(Kokkos::View<const double*> w, Kokkos::View<const double*> u,
                  Kokkos::View<const double*> r, Kokkos::View<remap::Sums2> out);

class CgSpmv {
 public:
  virtual ~CgSpmv() = default;
  virtual std::string name() const = 0;
  virtual std::string describe() const { return name(); }
  // y = A x.
  virtual void apply(Kokkos::View<const double*> x, Kokkos::View<double*> y) = 0;
  // w = A u and, over all rows, s0 = w . u and s1 = r . u. Blocks until done (the CG
  // iteration's one host synchronisation).
  virtual remap::Sums2 apply_dots(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                                  Kokkos::View<double*> w) = 0;
  // The same with the sums left in device memory, without waiting (the lagged loop, for kernels
  // that run_unobserved): apply, then cg_dots_into, unless the kernel fuses them.
  virtual void apply_dots_into(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                               Kokkos::View<double*> w, Kokkos::View<remap::Sums2> out) {
    apply(u, w);
    cg_dots_into(w, u, r, out);
  }
  // After CG iteration `it` (relative residual `rel`): a strategy still deciding (auto) may decide
  // now, over the iterations it expects to remain until `tolerance` or `max_iterations`.
  virtual void observe(std::int64_t /*it*/, double /*rel*/, double /*tolerance*/,
                       std::int64_t /*max_iterations*/) {}
  // The solve has ended after `iterations`: a strategy still deciding decides now (the solve ran
  // on the gather throughout), so later SpMVs are served by its choice.
  virtual void solve_ended(std::int64_t /*iterations*/) {}
  // Whether the solve may run this kernel with apply_dots_into, reading the iteration's
  // results one iteration late (cg_solve's loop without a host wait per iteration): sell,
  // csr-warp, cuSPARSE, the layer's strategies once decided with the dots after the SpMV, and
  // auto (measuring its kernels from marks in the stream, and after; not with spmv.fused_dots).
  // False for what watches the iterations (the layer's auto deciding) and for the fused form
  // (its dots reach the host).
  virtual bool runs_unobserved() const { return false; }
  // Where the solve iterates: `op` serving the matrix with its rows in `order` (new -> old), or,
  // with an empty order, this kernel in the matrix's own order. auto returns an order once it has
  // reordered the matrix at its decision point; cg_solve then permutes its vectors and goes on
  // with `op`, and brings x back at the end. apply() and apply_dots() of this object keep taking
  // vectors in the matrix's own order.
  struct Frame {
    Kokkos::View<const int*> order;
    CgSpmv* op = nullptr;
  };
  virtual Frame frame() { return {{}, this}; }
  // auto's deferred reorder: what it decided and why (empty where none was deferred to it).
  virtual std::string reorder_note() const { return {}; }
  // How auto's horizon was set (empty for the others and before it decides).
  virtual std::string horizon_note() const { return {}; }
  // Bytes one SpMV moves at least in the kernel's own format, where it is not CSR (sell); 0:
  // CSR's (DeviceCsr::min_spmv_bytes).
  virtual double format_bytes() const { return 0; }
  // The remap strategy's report (csr-thread), nothing for csr-warp and cusparse.
  virtual bool has_report() const { return false; }
  virtual remap::RemapReport report() const { return {}; }
  // One remap on its own (fenced), measured at set-up: dup's reference copy (then served from
  // the cache), or the per-execution packing of strategies whose copy follows x.
  virtual double remap_ms() const { return 0; }
  // The loads of one SpMV as the strategy lays them out (seed 001 §2.1; data, index, weights,
  // lengths), modelled from the host pattern.
  virtual bool models_transactions() const { return false; }
  virtual remap::TransactionBreakdown model_breakdown(const remap::IrregularPattern&) const {
    return {};
  }
};

const std::vector<std::string>& spmv_kernel_names();
// Whether this build has the cuSPARSE anchor (CUDA builds).
bool have_cusparse();
// Lanes per row for csr-warp: the largest power of two <= half the mean row length, in [2, 32]
// (two or more entries a lane): past it the lanes' reduction costs more than their loads save
// (docs/benchmarks.md has the measurements on the stand-in matrices).
int auto_vector_length(const DeviceCsr& a);
// The CSR SpMV's irregular reference for the remap layer: thread t = row t, index = col (Offsets
// layout, start = rowptr), weight = val, data = x.
remap::PatternView spmv_pattern_view(const DeviceCsr& a);

// What the remap layer is told about CG's SpMV kernel (its reference patterns and name, for
// applicability and messages); make_spmv applies it to SpmvOptions::remap_opt.
void describe_cg_kernel(remap::RemapOptions& o);
// Throws mdremap::Error naming the reason when the strategy does not apply to CG's SpMV.
void check_remap_mode(const std::string& mode, remap::RemapOptions o);

// Throws mdremap::Error for an unknown kernel or strategy, kernel auto with a strategy other than
// auto, a strategy that does not apply, a
// vector length that is not a power of two <= 32, cusparse in a build without CUDA, or a remap
// strategy other than gather with csr-warp or cusparse.
std::unique_ptr<CgSpmv> make_spmv(const DeviceCsr& a, const SpmvOptions& o);

// CG iterations expected after iteration k = residuals.size() (residuals[i]: relative residual
// after iteration i + 1) until the relative residual reaches `tolerance`: the geometric rate of the
// later half of the history, extrapolated; at most `at_most`, and `at_most` when the residual does
// not fall.
std::int64_t expected_remaining_iterations(const std::vector<double>& residuals, double tolerance,
                                           std::int64_t at_most);

// The same bracketed (each at most `at_most`): `lower` is expected_remaining_iterations (the
// later half's geometric rate kept: while CG's residual slows down, as it does on the PDE
// systems before its asymptotic rate, this is short: 94 against 944 after 30 iterations on
// parabolic_fem); `upper` keeps the later half's power law instead (log residual falling linearly
// in log iteration: it ignores the asymptotic rate CG reaches, so it is long: 2,200 there);
// `central` is the mean count where the log of the count is equally likely anywhere between them,
// (upper - lower) / ln(upper / lower): what a choice whose gain grows with the count (a reorder's)
// should weigh against its cost (docs/benchmarks.md compares the three with the iterations that
// remained on the stand-in matrices). Fewer than `kBracketFrom`
// residuals (the power law through the first few swings: upper 6-13x after 6 iterations), or a
// power law that does not fall: central = lower = upper.
struct RemainingIterations {
  std::int64_t lower = 0, upper = 0, central = 0;
};
inline constexpr std::size_t kBracketFrom = 16;
RemainingIterations remaining_iterations(const std::vector<double>& residuals, double tolerance,
                                         std::int64_t at_most);

// What auto decides over after CG iteration `it` (relative residual `rel`, the history so far in
// `residuals`): the iterations expected to remain, and a note saying how they were estimated.
struct DecisionHorizon {
  std::int64_t left = 0;
  std::string note;
};
DecisionHorizon horizon_after(const std::vector<double>& residuals, std::int64_t it, double rel,
                              double tolerance, std::int64_t max_iterations);

}  // namespace mdremap::cg

#include "cg/run.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <memory>
#include <ostream>

#include "cg/device_csr.hpp"
#include "cg/device_reorder.hpp"
#include "cg/generators.hpp"
#include "cg/matrix_market.hpp"
#include "cg/npy.hpp"
#include "cg/spmv.hpp"
#include "cg/transactions.hpp"
#include "cg/warm_up.hpp"
#include "io/staged_output.hpp"
#include "mdremap/median.hpp"

namespace mdremap::cg {

namespace {

Kokkos::View<double*> to_device(const std::vector<double>& v, const char* name) {
  Kokkos::View<double*> d(Kokkos::view_alloc(std::string(name), Kokkos::WithoutInitializing),
                          v.size());
  Kokkos::deep_copy(d, Kokkos::View<const double*, Kokkos::HostSpace>(v.data(), v.size()));
  return d;
}

// A generator's own numbering reaches no further than natural_reach: where that is within
// kScatteredReach the order cannot be scattered, and remap.reorder auto has nothing to count.
bool may_scatter(const CgParams& p) {
  const std::int64_t reach = p.gen.name.empty() ? -1 : natural_reach(p.gen);
  return p.permute || reach < 0 || reach > kScatteredReach;
}

// One run's state, its steps in the order run() calls them.
class Driver {
 public:
  // The solve's kernels are launched once on a small matrix while the host builds the real one
  // (their modules load there: cg/warm_up.hpp); waiting for it counts in the SpMV's set-up. The
  // reorder's kernels and its timing only where it may run: remap.reorder auto reorders a
  // scattered order only (more than half the entries beyond kScatteredReach).
  Driver(const CgParams& p, const RunFiles& files, RunObserver& obs)
      : p_(p),
        files_(files),
        obs_(obs),
        may_scatter_(may_scatter(p)),
        warm_up_(p.warm_up, p.spmv, p.solver,
                 p.remap.reorder == remap::Reorder::LabelProp ||
                     (p.remap.reorder == remap::Reorder::Auto && may_scatter_),
                 p.remap.reorder == remap::Reorder::Auto && may_scatter_) {}

  RunReport run() {
    sys_ = build_system(p_);
    obs_.system_built(sys_);
    write_files();
    reorder_on_host(sys_, p_);
    upload();
    decide_order();
    if (device_reorder_) reorder_on_device();
    obs_.reordered(rep_.reorder_note);
    make_operator();
    solve();
    measure();
    against_gather();
    model_transactions();
    rep_.source = sys_.source;
    rep_.rows = a_.rows;
    rep_.nnz = a_.nnz;
    rep_.max_row_len = a_.max_len;
    rep_.matrix_seconds = sys_.matrix_seconds;
    rep_.reorder_seconds = sys_.reorder_seconds;
    return rep_;
  }

 private:
  void write_files() {
    if (!files_.matrix.empty())
      io::write_staged(files_.matrix, [&](std::ostream& o) {
        write_matrix_market(o, sys_.a, true, "mdremap cg: " + matrix_line(sys_, p_));
      });
    if (!files_.npy.empty()) write_system_npy(files_.npy, sys_);
  }

  void upload() {
    warm_up_wait_s_ = warm_up_.join();
    Kokkos::Timer setup;
    a_ = DeviceCsr::upload(sys_.a);
    b_ = to_device(sys_.b, "cg::b");
    if (!sys_.xstar.empty()) xstar_ = to_device(sys_.xstar, "cg::xstar");
    Kokkos::fence();
    rep_.upload_seconds = setup.seconds();
    reorder_clock_.reset();
    device_reorder_ = p_.remap.reorder == remap::Reorder::LabelProp;
    spmv_ = p_.spmv;
    spmv_.setup_hint_ms = warm_up_.setup_ms();
  }

  // remap.reorder auto: labelprop where the order is scattered; with kernel auto it waits for
  // auto's decision point, where the iterations expected to remain say whether it can pay
  // (cg/auto_spmv.cpp); a named kernel gets it now.
  void decide_order() {
    if (p_.remap.reorder != remap::Reorder::Auto) return;
    const double far = may_scatter_ ? scattered_fraction(a_, kScatteredReach) : 0.0;
    const bool scattered = far > kScatteredFraction;
    const bool deferred = scattered && spmv_.kernel == "auto";
    device_reorder_ = scattered && !deferred;
    const std::int64_t reach = p_.gen.name.empty() ? -1 : natural_reach(p_.gen);
    rep_.reorder_note = fmt::format(
        "auto: {:.1f}% of the entries lie more than {} columns from their row ({}{} {:.0f}%): {}",
        100 * far, kScatteredReach,
        may_scatter_
            ? ""
            : fmt::format("the generator's own numbering reaches at most {} columns; ", reach),
        scattered ? "over" : "at most", 100 * kScatteredFraction,
        deferred          ? "labelprop left to auto's decision point"
        : device_reorder_ ? "labelprop; "
                          : "the order kept");
    if (deferred) {
      const KernelWarmUp::ReorderCost& cost = warm_up_.reorder_cost();
      spmv_.reorder.enabled = true;
      spmv_.reorder.fixed_ms = cost.fixed_ms;
      spmv_.reorder.ms_per_entry = cost.ms_per_entry;
      spmv_.reorder.cache_gain = cost.cache_gain;
      spmv_.reorder.other_ms_per_row = cost.other_ms_per_row;
      spmv_.reorder.note = rep_.reorder_note;
    }
    sys_.reorder_seconds = reorder_clock_.seconds();
  }

  // labelprop on the device: the order, then P A P^T and the vectors, where they already are;
  // timed in three parts: the order (its buffers released on return), P A P^T and the vectors,
  // then the old copies released (each release waits for the device).
  void reorder_on_device() {
    const double t0 = reorder_clock_.seconds();
    const remap::GraphOrder g = labelprop_order(a_, p_.spmv.remap_opt.block_threads);
    const double t1 = reorder_clock_.seconds();
    DeviceCsr ra = permute_symmetric(a_, g.order);
    auto rb = permute_vector(b_, g.order);
    auto rx = permute_vector(xstar_, g.order);
    Kokkos::fence();
    const double t2 = reorder_clock_.seconds();
    a_ = std::move(ra);
    b_ = std::move(rb);
    xstar_ = std::move(rx);
    Kokkos::fence();
    sys_.reorder_seconds = reorder_clock_.seconds();
    rep_.reorder_note += describe(g) + fmt::format(
                                           " in {:.2f} ms (order {:.2f}, applying it {:.2f}, "
                                           "releasing the old copies {:.2f})",
                                           1e3 * sys_.reorder_seconds, 1e3 * (t1 - t0),
                                           1e3 * (t2 - t1), 1e3 * (sys_.reorder_seconds - t2));
  }

  void make_operator() {
    Kokkos::Timer make_clock;
    op_ = make_spmv(a_, spmv_);  // plans the strategy (auto: profiles and decides)
    x_ = Kokkos::View<double*>("cg::x", a_.rows);
    Kokkos::fence();
    rep_.spmv_setup_seconds = make_clock.seconds() + warm_up_wait_s_;
    rep_.warm_up = {warm_up_.started(), warm_up_.seconds(), warm_up_wait_s_, warm_up_.note()};
    obs_.spmv_ready({warm_up_.note(), warm_up_.started(), warm_up_wait_s_, op_->describe()});
  }

  // spmv.solve_repeats solves, identical but for timing: the median is reported.
  void solve() {
    CgResult& r = rep_.result;
    for (int k = 0; k < p_.solve_repeats; ++k) {
      Kokkos::Timer solve_clock;
      r = cg_solve(*op_, a_, b_, x_, p_.solver, [&](std::int64_t it, double rel) {
        obs_.iteration(it, rel, solve_clock.seconds());
        if (k == 0 && it >= 1) record(it, rel, solve_clock.seconds());
      });
      rep_.solve_seconds.push_back(r.loop_seconds);
      rep_.total_seconds.push_back(r.total_seconds);
      rep_.first_spmv_seconds.push_back(r.first_spmv_seconds);
      rep_.start_seconds.push_back(r.start_seconds);
    }
    obs_.solved(op_->horizon_note(), op_->describe());
    if (!op_->reorder_note().empty()) rep_.reorder_note = op_->reorder_note();
    r.loop_seconds = median(rep_.solve_seconds);
  }
  void record(std::int64_t it, double rel, double seconds) {
    auto& h = rep_.residual_history;
    auto& hs = rep_.residual_seconds;
    if (h.size() < static_cast<std::size_t>(it)) h.resize(it);
    h[it - 1] = rel;
    if (hs.size() < static_cast<std::size_t>(it)) hs.resize(it);
    hs[it - 1] = seconds;
  }

  // The kernel as the solve ran it (auto after a reorder: on P A P^T; the SpMV of a ones vector
  // is the same work in either order).
  void measure() {
    CgResult& r = rep_.result;
    rep_.true_relative_residual = true_relative_residual(*op_, a_, b_, x_);
    // Converged means the true residual ||b - A x|| / ||b|| reached the tolerance: the
    // recurrence's residual drifts from it and can underflow to zero below what double
    // precision gives for the matrix.
    if (r.converged && !(rep_.true_relative_residual <= p_.solver.tolerance)) {
      r.converged = false;
      r.stop = fmt::format(
          "the true residual {:.3e} stays above the tolerance (the recurrence residual {:.3e} "
          "passed it: the tolerance is below what double precision reaches for this matrix)",
          rep_.true_relative_residual, r.rel_residual);
    }
    rep_.have_xstar = xstar_.extent(0) > 0;
    rep_.relative_error = rep_.have_xstar ? relative_error(x_, xstar_) : 0.0;
    rep_.spmv_ms =
        p_.timing_repeats > 0 ? time_spmv_ms(*op_->frame().op, a_, p_.timing_repeats) : 0.0;
    rep_.spmv_bytes = a_.min_spmv_bytes();
    rep_.spmv_gbytes_per_s = rep_.spmv_ms > 0 ? rep_.spmv_bytes / (rep_.spmv_ms * 1e-3) / 1e9 : 0.0;
    rep_.ms_per_iteration = r.iterations > 0 ? 1e3 * r.loop_seconds / r.iterations : 0.0;
    rep_.spmv_name = op_->name();
    rep_.spmv_describe = op_->describe();
    rep_.horizon_note = op_->horizon_note();
    rep_.format_bytes = op_->format_bytes();
    rep_.has_report = op_->has_report();
    rep_.remap = op_->has_report() ? op_->report() : remap::RemapReport{};
    rep_.remap_ms = op_->remap_ms();
  }

  // A strategy other than the plain gather: its set-up cost against its gain per SpMV over the
  // gather, timed the same way in the same run.
  void against_gather() {
    rep_.remapped = op_->has_report() && !p_.spmv.remap.is_gather();
    if (!rep_.remapped || p_.timing_repeats <= 0) return;
    SpmvOptions g = p_.spmv;
    g.kernel = "csr-thread";
    g.remap = "gather";
    auto gather = make_spmv(a_, g);
    rep_.gather_ms = time_spmv_ms(*gather, a_, p_.timing_repeats);
    rep_.overhead_ms =
        rep_.remap.plan_ms + rep_.remap_ms + rep_.remap.selection_ms + 1e3 * sys_.reorder_seconds;
    if (rep_.gather_ms > rep_.spmv_ms)
      rep_.payback = rep_.overhead_ms / (rep_.gather_ms - rep_.spmv_ms);
  }

  // Modelled transactions: the CSR gather (cuSPARSE's layout) and the strategy's own layout, on
  // the matrix as solved (labelprop's device order brought back for the model).
  void model_transactions() {
    rep_.modelled = p_.transactions && rep_.remapped && op_->models_transactions();
    if (!p_.transactions) return;
    const remap::IrregularPattern host = spmv_pattern(device_reorder_ ? a_.download() : sys_.a);
    rep_.csr_tx = remap::count_breakdown_gather(host, csr_transaction_model());
    if (rep_.modelled) rep_.strategy_tx = op_->model_breakdown(host);
  }

  const CgParams& p_;
  const RunFiles& files_;
  RunObserver& obs_;
  const bool may_scatter_;
  KernelWarmUp warm_up_;
  double warm_up_wait_s_ = 0;
  LinearSystem sys_;
  DeviceCsr a_;
  Kokkos::View<double*> b_, xstar_, x_;
  Kokkos::Timer reorder_clock_;
  bool device_reorder_ = false;
  SpmvOptions spmv_;
  std::unique_ptr<CgSpmv> op_;
  RunReport rep_;
};

}  // namespace

std::string matrix_line(const LinearSystem& s, const CgParams& p) {
  const auto& a = s.a;
  std::string line =
      fmt::format("{}, {} rows, {} entries ({:.2f} a row, at most {})", s.source, a.rows, a.nnz(),
                  a.rows ? double(a.nnz()) / a.rows : 0.0, a.max_row_len());
  if (p.permute) line += fmt::format(", symmetrically permuted (seed {})", p.permute_seed);
  return line;
}

RunReport run(const CgParams& p, const RunFiles& files, RunObserver& obs) {
  return Driver(p, files, obs).run();
}

}  // namespace mdremap::cg

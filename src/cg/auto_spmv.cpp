#include "cg/auto_spmv.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <limits>
#include <utility>

#include "cg/device_reorder.hpp"
#include "cg/remap_spmv.hpp"
#include "cg/stream_clock.hpp"
#include "mdremap/error.hpp"
#include "mdremap/median.hpp"
#include "mdremap/remap/device_cache.hpp"
#include "mdremap/remap/registry.hpp"

namespace mdremap::cg {

namespace {

using remap::Sums2;

double ms_since(const Kokkos::Timer& t) {
  return 1e3 * t.seconds();
}

class AutoSpmv final : public CgSpmv {
 public:
  AutoSpmv(const DeviceCsr& a, const SpmvOptions& o) : a_(a), o_(o) {
    remap::RemapOptions ro = o.remap_opt;
    ro.profile_reductions = true;  // compared with whole iterations measured here
    Kokkos::Timer made;
    layer_ = std::make_unique<RemapSpmv>(a, "auto", ro, -1);
    Kokkos::fence();
    layer_ms_ = ms_since(made);
    layer_->set_fused_dots(o.fused_dots);
    // The layer's auto runs nothing until the decision: its gather is measured here through a
    // gather of its own.
    // The kernel most often fastest first (sell: measured on an H100, docs/benchmarks.md session
    // 18), then cuSPARSE, the gather and csr-warp: a kernel whose first timed iteration (after an
    // untimed first) is clearly slower than the best so far is not run again.
    for (const char* k : {"sell", "cusparse", "gather", "csr-warp"})
      if (std::string(k) != "cusparse" || have_cusparse()) {
        cands_.emplace_back();
        cands_.back().name = k;
      }
    if (o.decide_after == 0) {  // before the solve, over max_iterations, on a ones vector
      Kokkos::View<double*> x("cg::auto_x", a.cols), w("cg::auto_w", a.rows);
      Kokkos::deep_copy(x, 1.0);
      while (next() != nullptr) (void)apply_dots(x, x, w);
      decide_over(o.remap_opt.horizon.executions,
                  fmt::format("decided before the solve, over max_iterations ({})",
                              o.remap_opt.horizon.executions));
    }
  }

  std::string name() const override {
    if (early_) return reordered_->name() + "+labelprop";
    return layer_->name() + (reordered_ ? "+labelprop" : "");
  }
  std::string describe() const override {
    if (early_) return kernel_lines_ + reordered_->describe();
    std::string names;
    for (const auto& c : cands_) names += (names.empty() ? "" : ", ") + c.name;
    const std::string d = report().decision;
    return fmt::format("auto over the kernels ({}) and the remap strategies{}", names,
                       d.empty() ? std::string(" (undecided)") : ": " + d);
  }
  void apply(Kokkos::View<const double*> x, Kokkos::View<double*> y) override {
    if (reordered_) {  // x in, y out through the order (callers outside the solve)
      frame_scratch();
      permute_vector_into(x, order_, xs_);
      reordered_->apply(xs_, ys_);
      unpermute_vector_into(ys_, order_, y);
      return;
    }
    // Undecided (a caller outside the solve): the best kernel measured so far, else the next
    // one, untimed; never the layer's auto, which runs nothing before it decides.
    CgSpmv* op = current_;
    if (!op) {
      Cand* c = best();
      if (!c) c = next();
      if (!c) throw Error("cg auto: no SpMV kernel could be set up");
      op = c->op;
    }
    op->apply(x, y);
  }
  Sums2 apply_dots(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                   Kokkos::View<double*> w) override {
    if (reordered_) {  // the dots do not depend on the order
      frame_scratch();
      permute_vector_into(u, order_, xs_);
      permute_vector_into(r, order_, rs_);
      const Sums2 s = reordered_->apply_dots(xs_, rs_, ys_);
      unpermute_vector_into(ys_, order_, w);
      return s;
    }
    if (current_) return current_->apply_dots(u, r, w);
    Cand* c = next();
    if (!c) {
      // Every kernel measured: the best so far until the decision, untimed (no fence between
      // the iteration's update and the SpMV: its launch overlaps the update, as in a plain
      // iteration).
      if (Cand* b = best()) return b->op->apply_dots(u, r, w);
      throw Error("cg auto: no SpMV kernel could be set up");
    }
    clock_.start();  // after the iteration's update kernel in the stream: the SpMV's time alone
    const Sums2 s = c->op->apply_dots(u, r, w);  // blocks (the dots reach the host)
    const double ms = clock_.stop_ms();
    if (c->runs++ == 0) {
      c->first_ms = ms;
    } else {
      const Cand* b = best();
      c->ms.push_back(ms);
      if (c->ms.size() == 1 && b && b != c && ms > kClearLoser * b->exec_ms()) c->stopped = true;
    }
    c->spent_ms += ms;
    return s;
  }
  // The lagged loop: decided and not reordered (a reordered solve iterates on reordered_
  // itself), the choice; undecided with every kernel measured, the best of them (as apply_dots).
  void apply_dots_into(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                       Kokkos::View<double*> w, Kokkos::View<remap::Sums2> out) override {
    if (current_ && !reordered_) return current_->apply_dots_into(u, r, w, out);
    if (!current_ && measured_all())
      if (Cand* b = best()) return b->op->apply_dots_into(u, r, w, out);
    CgSpmv::apply_dots_into(u, r, w, out);
  }
  void observe(std::int64_t it, double rel, double tolerance,
               std::int64_t max_iterations) override {
    if (current_) {
      if (pending_) {  // the deferred reorder, re-estimated
        residuals_.push_back(rel);
        consider(expected_remaining_iterations(residuals_, tolerance,
                                               std::max<std::int64_t>(0, max_iterations - it)),
                 it, "later");
      }
      return active()->observe(it, rel, tolerance, max_iterations);
    }
    residuals_.push_back(rel);
    if (o_.reorder.enabled && it < o_.decide_after && consider_early(it)) return;
    if (it < o_.decide_after || next() != nullptr) return;
    const DecisionHorizon h = horizon_after(residuals_, it, rel, tolerance, max_iterations);
    decide_over(h.left, h.note);
  }
  void solve_ended(std::int64_t iterations) override {
    if (current_) return active()->solve_ended(iterations);
    ended_ = true;
    decide_over(1, fmt::format("the solve ended after {} iterations, before the decision point "
                               "({}, and every kernel measured); decided afterwards for one "
                               "more SpMV",
                               iterations, o_.decide_after));
  }
  std::string horizon_note() const override { return early_ ? reordered_->horizon_note() : note_; }
  // Decided: as the choice. Undecided, once every kernel is measured (nothing left to time on
  // the iterations), the rest of the way to the decision point runs the best of them in the
  // lagged loop too, where the residuals reach observe() one iteration late; a reorder before
  // the decision point, or a choice that must watch the iterations, hands the solve back to the
  // waiting loop (cg_solve).
  bool runs_unobserved() const override {
    if (current_) return active()->runs_unobserved();
    if (ended_ || !measured_all()) return false;
    const Cand* b = best();
    return b && b->op && b->op->runs_unobserved();
  }
  Frame frame() override {
    if (reordered_) return {order_, reordered_.get()};
    return {{}, this};
  }
  std::string reorder_note() const override {
    if (!pending_) return reorder_note_;
    return fmt::format(
        "{}; the order kept: at the last estimate (after {} iterations) it could save {} "
        "iterations x {} = {:.2f} ms, under {}",
        o_.reorder.note, last_it_, last_left_, bound_text_,
        static_cast<double>(last_left_) * saving_per_it_ms_, cost_text_);
  }
  bool has_report() const override { return true; }
  remap::RemapReport report() const override {
    remap::RemapReport r = early_ ? reordered_->report() : layer_->report();
    r.decision = kernel_lines_ + r.decision;
    r.selection_ms += excess_ms_;  // the kernels' exploration beside the layer's
    return r;
  }
  double remap_ms() const override { return current_ ? active()->remap_ms() : 0.0; }
  double format_bytes() const override { return current_ ? active()->format_bytes() : 0.0; }
  // Not after a reorder: the model is of the matrix's own order.
  bool models_transactions() const override {
    if (reordered_) return false;
    return current_ ? current_->models_transactions() : layer_->models_transactions();
  }
  remap::TransactionBreakdown model_breakdown(const remap::IrregularPattern& h) const override {
    return current_ ? current_->model_breakdown(h) : layer_->model_breakdown(h);
  }

 private:
  struct Cand {
    std::string name;
    std::unique_ptr<CgSpmv> own;
    CgSpmv* op = nullptr;
    double setup_ms = 0, first_ms = 0, spent_ms = 0;
    std::vector<double> ms;
    int runs = 0;
    bool stopped = false;  // clearly slower than the best: measured no further
    std::string failed;    // why it could not be set up
    double exec_ms() const { return ms.empty() ? first_ms : median(ms); }
  };

  // The first kernel still short of 1 + profile_steps iterations, set up (timed) on first use;
  // null when all are measured. One kernel after the other, as a solve runs one: measured in turn
  // (round robin) the CSR kernels' timed iterations found the arrays they share in the L2 and
  // sell's did not, and auto chose a CSR kernel over sell in 21 of 32 stand-in solves (session
  // 22, call 8).
  Cand* next() {
    for (auto& c : cands_) {
      if (!c.failed.empty() || c.stopped || c.runs >= 1 + o_.remap_opt.profile_steps) continue;
      if (!c.op) {
        SpmvOptions k = o_;
        k.kernel = c.name == "gather" ? "csr-thread" : c.name;
        k.remap = "gather";
        Kokkos::fence();
        Kokkos::Timer t;
        try {
          c.own = make_spmv(a_, k);
        } catch (const std::exception& e) {  // mdremap::Error, or Kokkos' failed allocation
          c.failed = e.what();
          continue;
        }
        Kokkos::fence();
        c.setup_ms = ms_since(t);
        c.op = c.own.get();
      }
      return &c;
    }
    return nullptr;
  }
  // No kernel left to measure (each measured, stopped as a clear loser, or failed to set up).
  bool measured_all() const {
    for (const auto& c : cands_)
      if (c.failed.empty() && !c.stopped && c.runs < 1 + o_.remap_opt.profile_steps) return false;
    return true;
  }
  const Cand* best() const {
    const Cand* b = nullptr;
    for (const auto& c : cands_)
      if (!c.ms.empty() && (!b || c.exec_ms() < b->exec_ms())) b = &c;
    return b;
  }
  Cand* best() { return const_cast<Cand*>(std::as_const(*this).best()); }

  // Hands the kernels' measurements to the layer's auto, which screens and profiles its own
  // strategies against the best of them over `executions` more SpMVs, and chooses.
  void decide_over(std::int64_t executions, const std::string& note) {
    note_ = note;
    remap::AutoStrategy<double>* a = layer_->auto_strategy();
    // The horizon is set by the layer's decide_over below; setting it recomputes the
    // predictions of the measurements handed in here.
    const Cand* b = best();
    double excess = 0;  // what measuring the kernels cost beyond running the best throughout
    std::string measured;
    kernel_lines_.clear();
    for (const auto& c : cands_) {
      if (!c.failed.empty()) {
        kernel_lines_ += fmt::format("kernel {} not measured: {}\n    ", c.name, c.failed);
        continue;
      }
      if (&c != b) excess += c.setup_ms;  // set up, measured or not
      if (c.runs == 0) continue;
      a->add_measured(c.name, c.exec_ms(), c.setup_ms);
      if (b) excess += c.spent_ms - c.runs * b->exec_ms();
      measured += fmt::format("{}{} x {} (first {:.4f} ms; set up in {:.3f} ms)",
                              measured.empty() ? "" : ", ", c.name, c.runs, c.first_ms, c.setup_ms);
    }
    excess = std::max(0.0, excess);
    excess_ms_ = excess;
    a->add_explored_ms(excess);
    kernel_lines_ += fmt::format(
        "kernels measured on the solve's own iterations: {}; {:.3f} ms beyond running the best "
        "throughout, counted in the exploration (the layer's auto was made in {:.3f} ms before "
        "the solve)\n    ",
        measured, excess, layer_ms_);
    Kokkos::fence();
    Kokkos::Timer t;
    layer_->decide_over(executions, note);
    Kokkos::fence();
    const double decide_ms = ms_since(t);
    const std::string& out = a->chosen_outside();
    current_ = layer_.get();
    for (auto& c : cands_)
      if (!out.empty() && c.name == out) current_ = c.op;
    t.reset();
    for (auto& c : cands_)
      if (c.op != current_ && c.own) {
        c.own.reset();
        c.op = nullptr;
      }
    Kokkos::fence();
    kernel_lines_ += fmt::format(
        "the layer's decision (its screening, probes and any profiling) took {:.3f} ms, "
        "releasing the kernels not chosen {:.3f} ms\n    ",
        decide_ms, ms_since(t));
    if (o_.reorder.enabled) plan_reorder(executions, b);
  }

  // remap.reorder auto's deferred reorder (SpmvOptions::DeferredReorder): the order is
  // scattered, so labelprop (seed 001 §3.4) may make the SpMV faster, but on a short solve it
  // costs more than it saves. Seed 001 §4's rule for any remapping, on the solve's own figures:
  // what the reorder can save is the iterations left x what it wins back per iteration
  // (saving_per_iteration: the warm-up's measured share where x stays in the L2, else the best
  // measured iteration above the floor of the bytes any order moves); it runs where that
  // exceeds its predicted cost (the warm-up's measured reorder, fixed + per matrix entry, and
  // the chosen kernel's set-up again). The iterations left are re-estimated after every
  // later iteration (CG's residual slows down: at the decision point the extrapolation is short,
  // 94 against 944 on parabolic_fem), so a solve that turns out long is reordered then. Its cost
  // not measured (no warm-up): it runs at the decision.
  void plan_reorder(std::int64_t executions, const Cand* best_kernel) {
    remap::AutoStrategy<double>* a = layer_->auto_strategy();
    remap::RemapStrategy<double>* strategy = current_ == layer_.get() ? a->chosen() : nullptr;
    rebuild_ = o_;
    rebuild_.reorder = {};
    rebuild_.remap = "gather";
    double setup_ms = 0;
    for (const auto& c : cands_)
      if (c.op == current_) {
        rebuild_.kernel = c.name == "gather" ? "csr-thread" : c.name;
        setup_ms = c.setup_ms;
      }
    if (strategy) {
      rebuild_.kernel = "csr-thread";
      rebuild_.remap = strategy->key();
      setup_ms = layer_->report().plan_ms + layer_->remap_ms();
    }
    const Saving sv = saving_per_iteration(best_kernel, current_);
    saving_per_it_ms_ = sv.ms;
    bound_text_ = saving_text(sv);
    const auto& c = o_.reorder;
    cost_ms_ = predicted_cost_ms(setup_ms);
    cost_text_ = cost_text(cost_ms_, rebuild_.kernel, setup_ms);
    if (ended_) {
      reorder_note_ =
          fmt::format("{}; the order kept: the solve ended before auto's decision point", c.note);
      kernel_lines_ += reorder_note_ + "\n    ";
      return;
    }
    if (!cost_measured()) {
      run_reorder("run: its cost not measured on this device (no warm-up)");
      return;
    }
    pending_ = true;
    consider(executions, o_.decide_after, "at the decision");
    if (pending_)
      kernel_lines_ += fmt::format(
          "{}; at the decision: the order kept for now: it could save {} iterations x {} "
          "= {:.2f} ms, under {}; re-estimated after every iteration\n    ",
          c.note, executions, bound_text_, executions * saving_per_it_ms_, cost_text_);
  }
  // Before the decision point, once a kernel is measured: the solve is expected to run at least
  // to the decision point, and where even those iterations could lose more than the reorder costs
  // (a matrix whose x is far past the L2: the large permuted grid's SpMV runs 5.5x its floor), it
  // runs now, and a fresh auto on P A P^T measures the kernels and decides there (its own
  // decision point unchanged). A solve that then ends before that point has paid the reorder for
  // nothing: at most its cost, which the iterations to the decision point could have lost anyway.
  bool consider_early(std::int64_t it) {
    const Cand* b = best();
    if (!b || !cost_measured()) return false;
    const Saving sv = saving_per_iteration(b, b->op);
    const double cost = predicted_cost_ms(b->setup_ms);
    const std::int64_t left = o_.decide_after - it;
    if (!(static_cast<double>(left) * sv.ms > cost)) return false;
    SpmvOptions inner = o_;
    inner.reorder = {};
    const Applied r = reorder_into([&](const DeviceCsr& ra) { return make_auto_spmv(ra, inner); });
    for (auto& c : cands_) {  // measured on the old order: done with
      c.own.reset();
      c.op = nullptr;
    }
    current_ = reordered_.get();
    early_ = true;
    reorder_note_ = fmt::format(
        "{}; labelprop before the decision point (after {} iterations): the {} iterations to it "
        "could lose {} x {} = {:.2f} ms, over {}; {} in {:.2f} ms (order {:.2f}, applying it "
        "{:.2f}, a new auto over P A P^T {:.2f}); the solve's vectors follow it",
        o_.reorder.note, it, left, left, saving_text(sv), static_cast<double>(left) * sv.ms,
        cost_text(cost, b->name, b->setup_ms), cg::describe(r.g), r.total_ms, r.order_ms,
        r.apply_ms, r.total_ms - r.order_ms - r.apply_ms);
    kernel_lines_ = reorder_note_ + "\n    ";
    return true;
  }

  // What the reorder can win back per iteration, from kernel `b`'s measured iteration (its SpMV
  // in `op`'s format): where x stays in the L2 (8 bytes a column, at most half of it), the share
  // of an SpMV the warm-up measured an order to win back there (a grid in its own order against
  // the same scattered); past it, the whole iteration above the floor of the bytes any order
  // moves (the scattered reads come from memory, 32 bytes a sector). Without the warm-up's
  // share: the bound for both.
  struct Saving {
    double ms = 0;        // per iteration
    double exec_ms = 0;   // the kernel's measured iteration
    double share = 0;     // where x stays in the L2: the warm-up's share (else 0)
    double floor_ms = 0;  // past it: the bytes' floor
    std::string name = "-";
  };
  Saving saving_per_iteration(const Cand* b, const CgSpmv* op) const {
    Saving sv;
    if (b) {
      sv.exec_ms = b->exec_ms();
      sv.name = b->name;
    }
    const bool in_l2 =
        8.0 * static_cast<double>(a_.cols) <= 0.5 * static_cast<double>(remap::device_l2_bytes());
    if (in_l2 && o_.reorder.cache_gain > 0) {
      sv.share = o_.reorder.cache_gain;
      sv.ms = sv.exec_ms * sv.share;
      return sv;
    }
    const double bytes = op && op->format_bytes() > 0 ? op->format_bytes() : a_.min_spmv_bytes();
    sv.floor_ms = remap::AutoStrategy<double>::floor_ms_for(bytes);
    sv.ms = std::max(0.0, sv.exec_ms - sv.floor_ms);
    return sv;
  }
  static std::string saving_text(const Saving& sv) {
    if (sv.share > 0)
      return fmt::format(
          "({} {:.4f} ms x {:.0f}%, what an order wins back where x stays in the L2, measured by "
          "the warm-up)",
          sv.name, sv.exec_ms, 100 * sv.share);
    return fmt::format("({} {:.4f} ms - floor {:.4f} ms, at most)", sv.name, sv.exec_ms,
                       sv.floor_ms);
  }
  // The reorder's cost: the warm-up's fixed + per-entry figures, and `setup_ms` to set up the
  // kernel again on P A P^T.
  bool cost_measured() const { return o_.reorder.fixed_ms > 0 || o_.reorder.ms_per_entry > 0; }
  double predicted_cost_ms(double setup_ms) const {
    return o_.reorder.fixed_ms + o_.reorder.ms_per_entry * static_cast<double>(a_.nnz) + setup_ms;
  }
  std::string cost_text(double cost_ms, const std::string& kernel, double setup_ms) const {
    return fmt::format(
        "its predicted {:.2f} ms ({:.3f} ms + {:.3f} ms per million entries x {:.2f}M, measured "
        "by the warm-up, + {} set up again {:.3f} ms)",
        cost_ms, o_.reorder.fixed_ms, 1e6 * o_.reorder.ms_per_entry, a_.nnz / 1e6, kernel,
        setup_ms);
  }

  // The rule above with `left` iterations expected to remain after iteration `it`.
  // Kept, only the estimate is recorded (this runs after every iteration; the note is written
  // when asked for).
  void consider(std::int64_t left, std::int64_t it, const char* when) {
    const double bound_ms = static_cast<double>(left) * saving_per_it_ms_;
    if (!(bound_ms > cost_ms_)) {
      last_it_ = it;
      last_left_ = left;
      return;
    }
    pending_ = false;
    run_reorder(
        fmt::format("{} (after {} iterations): it can save {} iterations x "
                    "{} = {:.2f} ms, over {}",
                    when, it, left, bound_text_, bound_ms, cost_text_));
  }
  // labelprop on the matrix, P A P^T, then `make` sets up what serves it (reordered_); timed in
  // those three parts.
  struct Applied {
    remap::GraphOrder g;
    double order_ms = 0, apply_ms = 0, total_ms = 0;
  };
  template <class Make>
  Applied reorder_into(Make make) {
    Applied r;
    Kokkos::fence();
    Kokkos::Timer t;
    r.g = labelprop_order(a_, o_.remap_opt.block_threads);
    r.order_ms = ms_since(t);
    const DeviceCsr ra = permute_symmetric(a_, r.g.order);
    Kokkos::fence();
    r.apply_ms = ms_since(t) - r.order_ms;
    reordered_ = make(ra);
    Kokkos::fence();
    r.total_ms = ms_since(t);
    order_ = r.g.order;
    return r;
  }
  void run_reorder(const std::string& why) {
    const Applied r = reorder_into([&](const DeviceCsr& ra) { return make_spmv(ra, rebuild_); });
    for (auto& c : cands_) {  // the kernel on the old order is done with
      if (c.op == current_ && c.own) c.own.reset();
      if (c.op == current_) c.op = nullptr;
    }
    current_ = reordered_.get();
    reorder_note_ = fmt::format(
        "{}; labelprop {}; {} in {:.2f} ms (order {:.2f}, applying it {:.2f}, {} set up again "
        "{:.2f}); the solve's vectors follow it",
        o_.reorder.note, why, cg::describe(r.g), r.total_ms, r.order_ms, r.apply_ms,
        rebuild_.kernel, r.total_ms - r.order_ms - r.apply_ms);
    kernel_lines_ += reorder_note_ + "\n    ";
  }

  CgSpmv* active() const { return reordered_ ? reordered_.get() : current_; }
  // Vectors in the reordered frame for callers outside the solve.
  void frame_scratch() {
    if (xs_.extent(0) == static_cast<std::size_t>(a_.rows)) return;
    xs_ = Kokkos::View<double*>("cg::auto_frame_x", a_.rows);
    rs_ = Kokkos::View<double*>("cg::auto_frame_r", a_.rows);
    ys_ = Kokkos::View<double*>("cg::auto_frame_y", a_.rows);
  }

  static constexpr double kClearLoser = 1.5;  // as the layer's auto (auto_strategy.hpp)
  DeviceCsr a_;
  SpmvOptions o_;
  std::unique_ptr<RemapSpmv> layer_;  // the layer's auto, driven: runs nothing before deciding
  std::vector<Cand> cands_;
  CgSpmv* current_ = nullptr;  // the choice
  StreamClock clock_;
  std::vector<double> residuals_;
  std::string note_, kernel_lines_;
  double excess_ms_ = 0, layer_ms_ = 0;
  // The deferred reorder, where it ran: the order (new -> old) and the chosen kernel on P A P^T.
  Kokkos::View<const int*> order_;
  std::unique_ptr<CgSpmv> reordered_;
  Kokkos::View<double*> xs_, rs_, ys_;
  std::string reorder_note_;
  bool ended_ = false;    // decided at the solve's end: no reorder then
  bool pending_ = false;  // the reorder not run yet, re-estimated after every iteration
  bool early_ = false;    // reordered before the decision point: reordered_ is an auto of its own
  SpmvOptions rebuild_;   // the chosen kernel, as it is set up again on P A P^T
  double saving_per_it_ms_ = 0, cost_ms_ = 0;
  std::string bound_text_, cost_text_;
  std::int64_t last_it_ = 0, last_left_ = 0;  // the last estimate that kept the order
};

}  // namespace

std::unique_ptr<CgSpmv> make_auto_spmv(const DeviceCsr& a, const SpmvOptions& o) {
  return std::make_unique<AutoSpmv>(a, o);
}

}  // namespace mdremap::cg

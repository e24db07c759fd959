#include "cg/auto_spmv.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <limits>
#include <optional>
#include <utility>

#include "cg/device_reorder.hpp"
#include "cg/remap_spmv.hpp"
#include "cg/stream_clock.hpp"
#include "mdremap/error.hpp"
#include "mdremap/median.hpp"
#include "mdremap/remap/device_cache.hpp"
#include "mdremap/remap/registry.hpp"
#include "mdremap/remap/strategy.hpp"

namespace mdremap::cg {

namespace {

using remap::ms_since;
using remap::Sums2;

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
    // The kernel most often fastest first (sell, docs/benchmarks.md; csr-warp instead on a
    // scattered matrix whose x is past the L2, below), then the others by the cost of their set-up:
    // csr-warp and the gather read the matrix's own arrays, cuSPARSE's set-up is host calls.
    for (const std::string& k : auto_candidate_kernels()) {
      cands_.emplace_back();
      cands_.back().name = candidate_of(k);
    }
    // A scattered matrix whose x is past the L2, its reorder's cost measured: csr-warp first
    // (set up in microseconds). There every kernel's iterations are bound by the gathers, so they
    // run alike, and the reorder pays before the decision point, so sell's set-up on the old order
    // would be spent for nothing.
    if (o.reorder.enabled && cost_measured() && !x_in_l2())
      std::stable_partition(cands_.begin(), cands_.end(),
                            [](const Cand& c) { return c.name == "csr-warp"; });
    // The first kernel set up here, with auto, as a variant naming it is set up: before the
    // solve's vectors are made, its set-up counted as the set-up's.
    for (auto& c : cands_)
      if (set_up(c)) break;
    if (o.decide_after == 0) {  // before the solve, over max_iterations, on a ones vector
      Kokkos::View<double*> x("cg::auto_x", a.cols), w("cg::auto_w", a.rows);
      Kokkos::deep_copy(x, 1.0);
      while (!measured_all()) (void)apply_dots(x, x, w);
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
    // Undecided (a caller outside the solve): the best kernel measured so far, else the first
    // one set up, untimed; never the layer's auto, which runs nothing before it decides.
    (current_ ? current_ : fallback()->op)->apply(x, y);
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
    return measured_call()->apply_dots(u, r, w);  // blocks (the dots reach the host)
  }
  // The lagged loop: decided and not reordered (a reordered solve iterates on reordered_
  // itself), the choice; undecided, the kernel being measured or the best so far, as in
  // apply_dots.
  void apply_dots_into(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                       Kokkos::View<double*> w, Kokkos::View<remap::Sums2> out) override {
    if (current_ && !reordered_) return current_->apply_dots_into(u, r, w, out);
    if (!current_) return measured_call()->apply_dots_into(u, r, w, out);
    CgSpmv::apply_dots_into(u, r, w, out);
  }
  void observe(std::int64_t it, double rel, double tolerance,
               std::int64_t max_iterations) override {
    if (it == 1) residuals_.clear();  // a second solve's history starts afresh
    if (current_) {
      if (pending_) {  // the deferred reorder, re-estimated
        residuals_.push_back(rel);
        consider(remaining_iterations(residuals_, tolerance,
                                      std::max<std::int64_t>(0, max_iterations - it)),
                 it, "later");
      }
      return active()->observe(it, rel, tolerance, max_iterations);
    }
    residuals_.push_back(rel);
    seen_it_ = it;
    tolerance_ = tolerance;
    max_iterations_ = max_iterations;
    harvest(false);
    if (o_.reorder.enabled && it < o_.decide_after && consider_early(it)) return;
    if (it < o_.decide_after || !measured_all()) return;
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
  // Decided: as the choice. Undecided: yes, measuring or not: every kernel's apply_dots_into
  // is its SpMV and the dots into device memory, and the iterations' times are read from the
  // stream's marks once the device has passed them (StreamMarks), so the kernels are measured
  // on the lagged loop the solve runs (the residuals reach observe() one iteration late). A
  // reorder before the decision point hands the solve to a fresh auto (frame()); a choice that
  // must watch the iterations hands it back to the waiting loop (cg_solve). Not with
  // spmv.fused_dots: the gather would be measured with its dots after the SpMV (the lagged
  // form) and run with them fused (the waiting loop's): it is measured in the waiting loop.
  bool runs_unobserved() const override {
    if (current_) return active()->runs_unobserved();
    return !ended_ && !o_.fused_dots;
  }
  Frame frame() override {
    if (reordered_) return {order_, reordered_.get()};
    return {{}, this};
  }
  std::string reorder_note() const override {
    if (!pending_) return reorder_note_;
    return fmt::format(
        "{}; the order kept: at the last estimate (after {} iterations) it could save {} x {} = "
        "{:.2f} ms, under {}",
        o_.reorder.note, last_it_, left_text(last_left_), bound_text_,
        static_cast<double>(last_left_.central) * saving_per_it_ms_, cost_text_);
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
    double setup_ms = 0;  // its set-up's span in the stream (set_up), once read
    double first_ms = 0, spent_ms = 0;
    std::vector<double> ms;  // the timed iterations (after the first)
    int runs = 0;            // iterations launched while measured
    int seen = 0;            // of those, the ones whose time has been read
    bool stopped = false;    // clearly slower than the best: measured no further
    std::string failed;      // why it could not be set up
    std::string skipped;     // why it was not measured (the exploration budget)
    double exec_ms() const { return ms.empty() ? first_ms : median(ms); }
  };
  // What the span from a mark to the next one is: kernel `cand`'s measured iteration, its
  // set-up, or nothing timed.
  struct Mark {
    enum Kind { kUntimed, kIteration, kSetUp } kind = kUntimed;
    int cand = -1;
  };
  int index_of(const Cand& c) const { return static_cast<int>(&c - cands_.data()); }

  // The kernel an undecided auto runs for this SpMV: the next one to measure (a mark at the
  // start of each of its 1 + profile_steps iterations; the iteration's time is the span to the
  // next mark), else the best so far, untimed (its first call closes the last measured span).
  // One kernel after the other, as a solve runs one: measured in turn (round robin) the CSR
  // kernels' timed iterations found the arrays they share in the L2 and sell's did not, which
  // biased the choice towards the CSR kernels.
  CgSpmv* measured_call() {
    harvest(false);
    if (Cand* c = next()) {
      marks_.mark();
      mark_of_.push_back({Mark::kIteration, index_of(*c)});
      ++c->runs;
      return c->op;
    }
    close_span();
    return fallback()->op;
  }
  // The last mark starts a measured iteration: a mark here ends it (before a kernel is set up,
  // so that the set-up is not counted in another kernel's iteration).
  void close_span() {
    if (!mark_of_.empty() && mark_of_.back().kind == Mark::kIteration) {
      marks_.mark();
      mark_of_.push_back({});
    }
  }
  // The best kernel measured so far, else the first one set up (setting it up if none is).
  Cand* fallback() {
    if (Cand* b = best()) return b;
    for (auto& c : cands_)
      if (c.op || set_up(c)) return &c;
    throw Error("cg auto: no SpMV kernel could be set up");
  }
  // Sets a kernel up, timed between marks in the stream as its iterations are: the span from
  // the device's reaching the work launched before it to its reaching the set-up's own work
  // (read by harvest()) is what the set-up cost the solve, the host's part included where the
  // device ran dry waiting for it. Not fenced: a fence on each side lets the device run dry while
  // the host sets up, where the iteration in flight hides the host's part.
  bool set_up(Cand& c) {
    if (c.op) return true;
    if (!c.failed.empty()) return false;
    SpmvOptions k = o_;
    k.kernel = kernel_of(c.name);
    k.remap = "gather";
    close_span();
    marks_.mark();
    mark_of_.push_back({Mark::kSetUp, index_of(c)});
    try {
      c.own = make_spmv(a_, k);
    } catch (const std::exception& e) {  // mdremap::Error, or Kokkos' failed allocation
      c.failed = e.what();
    }
    marks_.mark();
    mark_of_.push_back({});
    if (!c.failed.empty()) return false;
    c.op = c.own.get();
    return true;
  }
  // A candidate's kernel (SpmvOptions::kernel) and back: auto calls csr-thread its gather.
  static std::string kernel_of(const std::string& cand) {
    return cand == "gather" ? "csr-thread" : cand;
  }
  static std::string candidate_of(const std::string& kernel) {
    return kernel == "csr-thread" ? "gather" : kernel;
  }
  int steps() const { return 1 + o_.remap_opt.profile_steps; }
  bool open(const Cand& c) const {
    return c.failed.empty() && c.skipped.empty() && !c.stopped && c.runs < steps();
  }
  // The next kernel to measure, set up on first use; null when none is left, or none may start
  // yet. The first kernel (sell, or csr-warp: see the constructor) runs from the solve's first
  // iteration; the others start from
  // half way to the decision point, where the residuals so far say how long the solve may be,
  // and each only where the exploration budget (remap.explore_budget, as the layer's auto
  // spends it: seed 001 §4's online profiling must cost a small share of the run) still covers
  // what measuring it would cost: the budget's share of the best kernel's iteration x the
  // iterations expected to remain, less what the measuring has cost so far (set-ups and
  // iterations above the best's). Its cost: its set-up, the warm-up's figure for it
  // (SpmvOptions::setup_hint_ms; the same kernel's set-up on the small matrices, a lower bound;
  // 0 where there is none), and its iterations, what the last kernel measured cost beyond the
  // best (else a kernel could start measuring after an earlier one had spent the budget).
  Cand* next() {
    const bool started =
        std::any_of(cands_.begin(), cands_.end(), [](const Cand& c) { return c.runs > 0; });
    for (auto& c : cands_) {
      if (!open(c)) continue;
      if (c.runs == 0 && started) {
        if (o_.decide_after > 0 && seen_it_ + 1 < std::max<std::int64_t>(1, o_.decide_after / 2))
          return nullptr;
        if (!within_budget(c)) continue;
      }
      if (!c.op) {
        close_span();
        if (!set_up(c)) continue;
      }
      return &c;
    }
    return nullptr;
  }
  bool within_budget(Cand& c) {
    const double share = o_.remap_opt.explore_budget;
    if (!(share > 0)) return true;
    if (!best()) {  // the first kernel's timed spans not read yet (a short decide_after): wait
      close_span();
      harvest(true);
    }
    const Cand* b = best();
    if (!b) return true;
    const std::int64_t left =
        o_.decide_after == 0
            ? o_.remap_opt.horizon.executions
            : expected_remaining_iterations(residuals_, tolerance_,
                                            std::max<std::int64_t>(0, max_iterations_ - seen_it_));
    const double budget = share * b->exec_ms() * static_cast<double>(left);
    // Spent: what was read, and the iterations launched but not read yet (the lagged loop reads a
    // span once the device has passed it), each as its kernel's read ones cost. Counting only
    // what was read let the next kernel start with the last one's iterations unread, and the
    // measuring end past its budget.
    double spent = explored_ms(b);
    for (const auto& k : cands_)
      if (&k != b && k.failed.empty() && k.runs > k.seen) spent += (k.runs - k.seen) * excess(k, b);
    const auto h = o_.setup_hint_ms.find(kernel_of(c.name));
    const double setup = h == o_.setup_hint_ms.end() ? 0.0 : h->second;
    // Its iterations: at least what measuring a kernel just short of the clear-loser rule costs
    // (all steps() of them at kClearLoser x b's time: one that is slower is stopped after its
    // first timed iteration, but costs more each), and as much as the last kernel measured cost
    // where that is more (all of its iterations at what its read ones cost, its first, colder one
    // included). The last kernel's figure alone let a slow kernel start after a fast one and take
    // the measuring past the budget.
    const double bound = steps() * (kClearLoser - 1.0) * b->exec_ms();
    double iterations = bound;
    for (const auto& k : cands_)
      if (&k != b && &k != opening_cand() && k.failed.empty() && k.seen > 0)
        iterations = std::max(bound, k.runs * excess(k, b));
    if (spent + setup + iterations <= budget) return true;
    c.skipped = fmt::format(
        "its set-up ({:.3f} ms, as the warm-up timed it on a small matrix) and iterations "
        "({:.3f} ms beyond the best's: {} at {:.1f} x {}'s, the clear-loser limit, or as the last "
        "kernel measured cost where more) would take the measuring past the exploration budget "
        "({:.0f}% of {} {:.4f} ms x {} iterations expected to remain = {:.3f} ms; {:.3f} ms "
        "spent)",
        setup, iterations, steps(), kClearLoser, b->name, 100 * share, b->name, b->exec_ms(), left,
        budget, spent);
    return false;
  }
  // Kernel k's read iterations, each beyond b's time (its first, colder one included); 0 before
  // one is read.
  static double excess(const Cand& k, const Cand* b) {
    return k.seen > 0 ? std::max(0.0, k.spent_ms / k.seen - b->exec_ms()) : 0.0;
  }
  // What measuring has cost beyond running `b` throughout: the other kernels' set-ups (measured
  // or not) and every measured iteration read so far above b's time; not the first kernel's
  // set-up and first SpMV, which are the solve's own (any kernel pays them).
  double explored_ms(const Cand* b) const {
    double excess = 0;
    for (const auto& c : cands_) {
      if (!c.failed.empty()) continue;
      const bool opening = &c == opening_cand();
      if (&c != b && !opening) excess += c.setup_ms;
      if (!b) continue;
      const int skip = opening && c.seen > 0 ? 1 : 0;
      excess += c.spent_ms - (skip ? c.first_ms : 0.0) - (c.seen - skip) * b->exec_ms();
    }
    return std::max(0.0, excess);
  }
  // The kernel that ran the first marked SpMV (null before it).
  const Cand* opening_cand() const {
    for (const Mark& m : mark_of_)
      if (m.kind == Mark::kIteration) return &cands_[m.cand];
    return nullptr;
  }
  // Every kernel measured (or stopped as a clear loser, skipped, or failed to set up), the last
  // measured iteration's span closed.
  bool measured_all() const {
    for (const auto& c : cands_)
      if (open(c)) return false;
    return mark_of_.empty() || mark_of_.back().kind == Mark::kUntimed;
  }
  // Reads the spans the device has passed (all of them, waiting, with `wait`), in order, into
  // the kernels' first and timed iterations; a kernel whose first timed iteration is clearly
  // slower than the best so far is measured no further.
  void harvest(bool wait) {
    while (harvested_ + 1 < mark_of_.size()) {
      const int i = static_cast<int>(harvested_);
      const std::optional<double> t = marks_.elapsed_ms(i, i + 1, wait);
      if (!t) return;
      ++harvested_;
      const Mark m = mark_of_[i];
      if (m.kind == Mark::kUntimed) continue;
      if (m.kind == Mark::kSetUp) {
        cands_[m.cand].setup_ms = *t;
        continue;
      }
      Cand& c = cands_[m.cand];
      c.spent_ms += *t;
      if (c.seen++ == 0) {
        c.first_ms = *t;
        continue;
      }
      const Cand* b = best();
      c.ms.push_back(*t);
      if (c.ms.size() == 1 && b && b != &c && *t > kClearLoser * b->exec_ms()) c.stopped = true;
    }
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
    harvest(true);  // every closed span (the last one's end is marked: measured_all)
    const Cand* b = best();
    std::string measured;
    kernel_lines_.clear();
    for (const auto& c : cands_) {
      if (!c.failed.empty() || !c.skipped.empty()) {
        kernel_lines_ += fmt::format("kernel {} not measured: {}\n    ", c.name,
                                     c.failed.empty() ? c.skipped : c.failed);
        continue;
      }
      if (c.seen == 0) continue;
      a->add_measured(c.name, c.exec_ms(), c.setup_ms);
      measured += fmt::format("{}{} x {}{} (first {:.4f} ms; set up in {:.3f} ms)",
                              measured.empty() ? "" : ", ", c.name, c.seen,
                              c.stopped ? ", a clear loser" : "", c.first_ms, c.setup_ms);
    }
    const double excess = explored_ms(b);
    excess_ms_ = excess;
    a->add_explored_ms(excess);
    close_layer_exploration(a, b, executions, excess);
    kernel_lines_ += fmt::format(
        "kernels measured on the solve's own iterations: {}; {:.3f} ms beyond running the best "
        "throughout, counted in the exploration (timed in the loop the solve runs, between marks "
        "in the stream; the layer's auto was made in {:.3f} ms before the solve)\n    ",
        measured.empty() ? std::string("none") : measured, excess, layer_ms_);
    // Not fenced: the layer's own profiling fences around what it times, and its screening is
    // host work the iteration in flight hides in part (a fence on each side lets the device run
    // dry).
    Kokkos::Timer t;
    layer_->decide_over(executions, note);
    const double decide_ms = ms_since(t);
    const std::string& out = a->chosen_outside();
    current_ = layer_.get();
    for (auto& c : cands_)
      if (!out.empty() && c.name == out) current_ = c.op;
    // The kernels not chosen are kept until auto goes, or reorders (their memory for P A P^T):
    // a release waits for the device.
    kernel_lines_ += fmt::format(
        "the layer's decision (its screening, probes and any profiling) took {:.3f} ms\n    ",
        decide_ms);
    if (o_.reorder.enabled) plan_reorder(executions, b);
  }

  // One exploration budget for the kernels and the layer's strategies. A kernel skipped for the
  // budget is not profiled by the layer either (the gather is both: else the layer would profile
  // it, fenced SpMVs of a ones vector and their vectors' allocation, where the kernels' measuring
  // had judged it past the budget). And the layer explores nothing where what is left of the budget
  // over the iterations expected to remain cannot cover 1 + profile_steps SpMVs at the best
  // kernel's time, the least a strategy's profiling costs (each an SpMV beside the solve's).
  void close_layer_exploration(remap::AutoStrategy<double>* a, const Cand* b,
                               std::int64_t executions, double spent) {
    for (const auto& c : cands_)
      if (!c.skipped.empty())
        a->add_unexplored(c.name, "the kernels' measuring judged it past the exploration budget");
    const double share = o_.remap_opt.explore_budget;
    if (!b || !(share > 0)) return;
    const double left = share * b->exec_ms() * static_cast<double>(executions) - spent;
    const double least = steps() * b->exec_ms();
    if (left >= least) return;
    a->add_unexplored(
        "", fmt::format("what is left of the exploration budget ({:.0f}% of {} {:.4f} ms x {} "
                        "iterations expected to remain, less the kernels' measuring {:.3f} ms: "
                        "{:.3f} ms) is less than {} profiled SpMVs at {}'s time ({:.3f} ms)",
                        100 * share, b->name, b->exec_ms(), executions, spent, std::max(0.0, left),
                        steps(), b->name, least));
  }

  // remap.reorder auto's deferred reorder (SpmvOptions::DeferredReorder): the order is
  // scattered, so labelprop (seed 001 §3.4) may make the SpMV faster, but on a short solve it
  // costs more than it saves. Seed 001 §4's rule for any remapping, on the solve's own figures:
  // what the reorder can save is the iterations left x what it wins back per iteration
  // (saving_per_iteration: the warm-up's measured share where x stays in the L2, else the best
  // measured iteration above the floor of the bytes any order moves); it runs where that
  // exceeds its predicted cost (the warm-up's measured reorder, fixed + per matrix entry, and
  // the chosen kernel's set-up again). The iterations left: remaining_iterations' central
  // estimate (spmv.hpp: CG's residual slows down, so the rate's extrapolation alone falls far
  // short), re-estimated after every later iteration, so a solve that turns out long is reordered
  // then. Its cost not measured (no warm-up): it runs at the decision.
  void plan_reorder(std::int64_t executions, const Cand* best_kernel) {
    remap::AutoStrategy<double>* a = layer_->auto_strategy();
    remap::RemapStrategy<double>* strategy = current_ == layer_.get() ? a->chosen() : nullptr;
    rebuild_ = o_;
    rebuild_.reorder = {};
    rebuild_.remap = "gather";
    double setup_ms = 0;
    for (const auto& c : cands_)
      if (c.op == current_) {
        rebuild_.kernel = kernel_of(c.name);
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
    RemainingIterations left{executions, executions, executions};
    if (o_.decide_after > 0)
      left = remaining_iterations(residuals_, tolerance_,
                                  std::max<std::int64_t>(0, max_iterations_ - seen_it_));
    consider(left, seen_it_, "at the decision");
    if (pending_)
      kernel_lines_ += fmt::format(
          "{}; at the decision: the order kept for now: it could save {} x {} "
          "= {:.2f} ms, under {}; re-estimated after every iteration\n    ",
          c.note, left_text(left), bound_text_, left.central * saving_per_it_ms_, cost_text_);
  }
  // The iterations a reorder is judged over (remaining_iterations' central estimate), and how
  // they were estimated.
  static std::string left_text(const RemainingIterations& r) {
    if (r.upper == r.lower) return fmt::format("{} iterations", r.central);
    return fmt::format(
        "{} iterations (expected to remain: between {}, the later half's rate kept, and {}, its "
        "power law kept)",
        r.central, r.lower, r.upper);
  }
  // Before the decision point, once a kernel is measured: the solve is expected to run at least
  // to the decision point, and from kBracketFrom residuals on as long as remaining_iterations'
  // central estimate where that is more; where those iterations could lose more than the reorder
  // costs (a matrix whose x is far past the L2, its SpMV far above its floor; a long solve in the
  // L2), it runs now, and a fresh auto on P A P^T measures the kernels and decides there (its own
  // decision point unchanged). Deciding at the decision point instead would lose the iterations to
  // it. A solve that then ends sooner than estimated has paid the reorder for less than it cost.
  bool consider_early(std::int64_t it) {
    const Cand* b = best();
    if (!b || !cost_measured()) return false;
    const Saving sv = saving_per_iteration(b, b->op);
    const double cost = predicted_cost_ms(b->setup_ms);
    // At least the iterations to the decision point; from kBracketFrom residuals on (where the
    // estimate is bracketed), the iterations expected to remain where more.
    std::int64_t left = o_.decide_after - it;
    const RemainingIterations est = remaining_iterations(
        residuals_, tolerance_, std::max<std::int64_t>(0, max_iterations_ - it));
    const bool bracketed = est.upper > est.lower && est.central > left;
    if (bracketed) left = est.central;
    if (!(static_cast<double>(left) * sv.ms > cost)) return false;
    const std::string left_how =
        bracketed ? "the " + left_text(est) : fmt::format("the {} iterations to it", left);
    SpmvOptions inner = o_;
    inner.reorder = {};
    release_kernels(nullptr);  // measured on the old order: done with (their memory for P A P^T)
    const Applied r = reorder_into([&](const DeviceCsr& ra) { return make_auto_spmv(ra, inner); });
    current_ = reordered_.get();
    early_ = true;
    reorder_note_ = fmt::format(
        "{}; labelprop before the decision point (after {} iterations): {} could lose {} x {} = "
        "{:.2f} ms, over {}; {} in {:.2f} ms (order {:.2f}, applying it {:.2f}, a new auto over "
        "P A P^T {:.2f}); the solve's vectors follow it",
        o_.reorder.note, it, left_how, left, saving_text(sv), static_cast<double>(left) * sv.ms,
        cost_text(cost, b->name, b->setup_ms), cg::describe(r.g), r.total_ms, r.order_ms,
        r.apply_ms, r.total_ms - r.order_ms - r.apply_ms);
    kernel_lines_ = reorder_note_ + "\n    ";
    return true;
  }

  // What the reorder can win back per iteration, from kernel `b`'s measured iteration (its SpMV
  // in `op`'s format): where x stays in the L2 (8 bytes a column, at most half of it), the share
  // of an SpMV the warm-up measured an order to win back there (a grid in labelprop's order
  // against the same scattered), of the iteration less what is not its SpMV there (the update's
  // vectors and the dots' own rows, their bytes at the copy bandwidth, per row: DRAM time only,
  // not the iteration's launches, so on a small matrix the saving is overstated; taking the share
  // of the whole iteration overstated it more); past it, the whole iteration above the floor of the
  // bytes any order moves (the scattered reads come from memory, 32 bytes a sector). Without the
  // warm-up's share: the bound for both.
  struct Saving {
    double ms = 0;        // per iteration
    double exec_ms = 0;   // the kernel's measured iteration
    double share = 0;     // where x stays in the L2: the warm-up's share (else 0)
    double other_ms = 0;  // of exec_ms, what is not the SpMV (the warm-up's, per row x rows)
    double floor_ms = 0;  // past it: the bytes' floor
    std::string name = "-";
  };
  Saving saving_per_iteration(const Cand* b, const CgSpmv* op) const {
    Saving sv;
    if (b) {
      sv.exec_ms = b->exec_ms();
      sv.name = b->name;
    }
    if (x_in_l2() && o_.reorder.cache_gain > 0) {
      sv.share = o_.reorder.cache_gain;
      // decide_after 0: the kernels were timed on bare SpMVs with their dots, not iterations.
      sv.other_ms =
          o_.decide_after == 0
              ? 0.0
              : std::min(sv.exec_ms, o_.reorder.other_ms_per_row * static_cast<double>(a_.rows));
      sv.ms = (sv.exec_ms - sv.other_ms) * sv.share;
      return sv;
    }
    const double bytes = op && op->format_bytes() > 0 ? op->format_bytes() : a_.min_spmv_bytes();
    sv.floor_ms = remap::AutoStrategy<double>::floor_ms_for(bytes);
    sv.ms = std::max(0.0, sv.exec_ms - sv.floor_ms);
    return sv;
  }
  static std::string saving_text(const Saving& sv) {
    if (sv.share > 0 && sv.other_ms > 0)
      return fmt::format(
          "(({} {:.4f} ms - {:.4f} ms of it beside the SpMV) x {:.0f}%, what an order wins back "
          "of an SpMV where x stays in the L2, both measured by the warm-up)",
          sv.name, sv.exec_ms, sv.other_ms, 100 * sv.share);
    if (sv.share > 0)
      return fmt::format(
          "({} {:.4f} ms, the whole iteration taken as SpMV, x {:.0f}%, what an order wins back "
          "of an SpMV where x stays in the L2, measured by the warm-up)",
          sv.name, sv.exec_ms, 100 * sv.share);
    return fmt::format("({} {:.4f} ms - floor {:.4f} ms, at most)", sv.name, sv.exec_ms,
                       sv.floor_ms);
  }
  // The reorder's cost: the warm-up's fixed + per-entry figures, and `setup_ms` to set up the
  // kernel again on P A P^T.
  bool cost_measured() const { return o_.reorder.fixed_ms > 0 || o_.reorder.ms_per_entry > 0; }
  // x (8 bytes a column) in at most half of the L2.
  bool x_in_l2() const {
    return 8.0 * static_cast<double>(a_.cols) <=
           0.5 * static_cast<double>(remap::device_l2_bytes());
  }
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
  void consider(const RemainingIterations& left, std::int64_t it, const char* when) {
    const double bound_ms = static_cast<double>(left.central) * saving_per_it_ms_;
    if (!(bound_ms > cost_ms_)) {
      last_it_ = it;
      last_left_ = left;
      return;
    }
    pending_ = false;
    run_reorder(fmt::format("{} (after {} iterations): it can save {} x {} = {:.2f} ms, over {}",
                            when, it, left_text(left), bound_text_, bound_ms, cost_text_));
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
    release_kernels(current_);  // the kernels not chosen: their memory for P A P^T
    const Applied r = reorder_into([&](const DeviceCsr& ra) { return make_spmv(ra, rebuild_); });
    release_kernels(nullptr);  // the chosen one on the old order is done with too
    current_ = reordered_.get();
    reorder_note_ = fmt::format(
        "{}; labelprop {}; {} in {:.2f} ms (order {:.2f}, applying it {:.2f}, {} set up again "
        "{:.2f}); the solve's vectors follow it",
        o_.reorder.note, why, cg::describe(r.g), r.total_ms, r.order_ms, r.apply_ms,
        rebuild_.kernel, r.total_ms - r.order_ms - r.apply_ms);
    kernel_lines_ += reorder_note_ + "\n    ";
  }

  // The kernels' objects go (all but `keep`); the iteration in flight may run one of them, so
  // the device is waited for first.
  void release_kernels(const CgSpmv* keep) {
    Kokkos::fence();
    for (auto& c : cands_)
      if (c.op != keep) {
        c.own.reset();
        c.op = nullptr;
      }
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
  StreamMarks marks_;
  std::vector<Mark> mark_of_;  // per mark: what the span from it to the next one is
  std::size_t harvested_ = 0;  // the marks whose span has been read
  std::vector<double> residuals_;
  std::int64_t seen_it_ = 0, max_iterations_ = 0;  // the last iteration observed; the solve's
  double tolerance_ = 0;                           // limits, as observe() was told them
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
  std::int64_t last_it_ = 0;       // the last estimate that kept the order: after that
  RemainingIterations last_left_;  // iteration, these remaining
};

}  // namespace

std::vector<std::string> auto_candidate_kernels() {
  std::vector<std::string> k = {"sell", "csr-warp", "csr-thread"};
  if (have_cusparse()) k.push_back("cusparse");
  return k;
}

std::unique_ptr<CgSpmv> make_auto_spmv(const DeviceCsr& a, const SpmvOptions& o) {
  return std::make_unique<AutoSpmv>(a, o);
}

}  // namespace mdremap::cg

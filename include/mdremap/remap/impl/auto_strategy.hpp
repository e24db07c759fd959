#pragma once
// `auto` (seed 001 §4: the Fig. 6 guidelines plus online profiling, G-Streamline style), choosing
// the candidate with the smallest predicted time over the whole run it is told about
// (RemapOptions::horizon; cost_model.hpp): plans (host copy of the pattern, host and device
// planning, measured), the first execution's one-time remap, and remap + compute per execution,
// times the executions between re-plans. Candidates are every registered strategy that applies to
// the kernel, planned lazily and profiled one after the other on the app's real executions:
//   - gather first (no plan): its prediction is the bar;
//   - a candidate whose plans alone (estimated from a sample where the planner can tell, else
//     measured) exceed the most it could save against the best so far (every execution at the
//     floor of the bytes any strategy moves instead of the best one's time) is not profiled;
//   - the others run `profile_steps` + 1 executions (the first one separately: it carries any
//     one-time remap), fenced and timed;
//   - the app may hand in alternatives it measured itself on its real executions (another kernel
//     shape, a vendor library: add_measured); they compete as finished candidates, and when one
//     wins, auto runs nothing and says so (chosen_outside()).
// The choice then runs alone and the losers' copies are released. Included by registry.hpp.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

#include "mdremap/median.hpp"
#include "mdremap/remap/device_cache.hpp"
#include "mdremap/remap/impl/cost_model.hpp"

namespace mdremap::remap {

namespace detail {
// Every strategy of the list but auto, with whether it applies to the kernel o describes.
template <class... S>
std::vector<std::pair<std::string, Applicability>> candidates(TypeList<S...>,
                                                              const RemapOptions& o) {
  std::vector<std::pair<std::string, Applicability>> out;
  (out.emplace_back(S::kName, S::applies(o)), ...);
  return out;
}
}  // namespace detail

// R: the registry whose strategies are the candidates (registry.hpp).
template <class T, class R>
class AutoStrategy final : public RemapStrategy<T> {
 public:
  static constexpr const char* kName = "auto";
  static constexpr bool kChooses = true;
  // Reads A in place (no copy): serves kernels that also write through the pattern.
  static constexpr bool kReadsInPlace = true;
  static constexpr const char* kHelp =
      "Fig. 6 guidelines + online profiling: the smallest predicted whole-run time (seed 001 §4)";
  static std::vector<RemapKey> keys() {
    return {
        RemapKey::integer(
            "profile_steps", "auto: timed executions per candidate (seed 001 §4)",
            [](const RemapSettings& s) { return s.options.profile_steps; },
            [](RemapSettings& s, long long v) { s.options.profile_steps = static_cast<int>(v); })
            .at_least(1, "must be at least 1"),
        RemapKey::real(
            "explore_budget",
            "auto: stop exploring once it has spent this share of the best predicted run (0: "
            "no limit)",
            [](const RemapSettings& s) { return s.options.explore_budget; },
            [](RemapSettings& s, double v) { s.options.explore_budget = v; })
            .within(0, 1, "must be in [0, 1] (0 = no limit)")};
  }
  static Applicability applies(const RemapOptions&) { return {}; }

  explicit AutoStrategy(const RemapOptions& o) : RemapStrategy<T>(o) {
    if (o.profile_steps < 1) throw Error("auto: profile steps must be at least 1");
  }
  // The device's copy bandwidth (read + write): a fenced device-to-device copy of as many bytes as
  // one execution moves at least, rounded up to a power of two and clamped to 2 x 1 MB .. 2 x
  // 256 MB (past a GPU's L2 and the host's caches, yet cheap: the probe must cost far less than
  // the run it screens, so its allocation and first touch are bounded), best of three, measured
  // once per process and size (the cache locked: CG's warm-up probes on a thread of its own). A
  // bandwidth measured too high only makes the bound weaker.
  static double copy_gb_per_s(double bytes) {
    static std::mutex lock;
    static std::map<std::size_t, double> measured;
    const std::size_t n =
        probe_elements(bytes / 2.0, std::size_t(1) << 20, std::size_t(1) << 28, sizeof(double));
    const std::lock_guard<std::mutex> held(lock);
    if (auto it = measured.find(n); it != measured.end()) return it->second;
    Kokkos::View<double*> a(Kokkos::view_alloc("auto_bw_a", Kokkos::WithoutInitializing), n);
    Kokkos::View<double*> b(Kokkos::view_alloc("auto_bw_b", Kokkos::WithoutInitializing), n);
    Kokkos::deep_copy(a, 1.0);
    Kokkos::deep_copy(b, 0.0);
    double best = 1e300;
    for (int k = 0; k < 3; ++k) {
      Kokkos::fence();
      Kokkos::Timer t;
      Kokkos::deep_copy(b, a);
      Kokkos::fence();
      best = std::min(best, t.seconds());
    }
    return measured[n] = 2.0 * static_cast<double>(n * sizeof(double)) / best / 1e9;
  }
  // The least time an execution moving `bytes` can take: 0 where they may stay in the last-level
  // cache (at most twice its size), else those bytes at the device's copy bandwidth.
  static double floor_ms_for(double bytes) {
    if (!(bytes > 2.0 * static_cast<double>(device_l2_bytes()))) return 0.0;
    return bytes / (1e6 * copy_gb_per_s(bytes));
  }
  const char* key() const override { return kName; }
  std::string name() const override {
    if (chosen_) return std::string(kName) + ":" + chosen_->name();
    if (!outside_.empty()) return std::string(kName) + ":" + outside_;
    return std::string(kName);
  }
  // Undecided, auto makes (and times) the host copy itself when a candidate needs it.
  bool needs_host_pattern() const override {
    return chosen_ ? chosen_->needs_host_pattern() : false;
  }

  void plan(const PatternView& pv, const IrregularPattern* host) override {
    pv_ = pv;
    if (chosen_) return chosen_->plan(pv, host);
    host_.reset();
    host_copy_ms_ = 0;
    if (cands_.empty()) choose_candidates();
    // A new pattern during profiling: every candidate planned so far plans again.
    for (auto& c : cands_)
      if (c.s) plan_candidate(c);
  }
  void release_pattern() override {
    if (chosen_) chosen_->release_pattern();
  }
  void set_data(Kokkos::View<const T*> data, bool changed) override {
    data_ = data;
    if (chosen_) return chosen_->set_data(data, changed);
    for (auto& c : cands_)
      if (c.s) c.s->set_data(data, changed);
  }
  void remap_now() override {
    if (chosen_) chosen_->remap_now();
  }
  TransactionCount model_transactions(const IrregularPattern& host) const override {
    if (!chosen_) return count_transactions(host);
    return chosen_->model_transactions(host);
  }
  TransactionBreakdown model_breakdown(const IrregularPattern& host) const override {
    if (!chosen_) return count_breakdown_gather(host, transaction_model(pv_));
    return chosen_->model_breakdown(host);
  }
  RemapReport report() const override {
    RemapReport r = chosen_ ? chosen_->report() : RemapReport{};
    r.strategy = name();
    r.decision = decision_;
    r.predictions.clear();
    for (const auto& c : cands_) r.predictions.push_back(c.p);
    if (best_ >= 0) r.predicted_run_ms = cands_[best_].p.run_ms;
    r.selection_ms = selection_ms_;
    r.selection_exec_ms = selection_exec_ms_;
    return r;
  }
  // The order of the last execution's outputs: while profiling, the candidate that ran it.
  const ThreadPermutation& thread_perm() const override {
    const RemapStrategy<T>* s = chosen_ ? chosen_ : last_ran_;
    return s ? s->thread_perm() : RemapStrategy<T>::thread_perm();
  }
  Kokkos::View<const std::int64_t*> thread_perm_device() const override {
    const RemapStrategy<T>* s = chosen_ ? chosen_ : last_ran_;
    return s ? s->thread_perm_device() : Kokkos::View<const std::int64_t*>();
  }
  bool decided() const { return chosen_ != nullptr || !outside_.empty(); }
  // The name of the app's own alternative auto chose (empty when it chose a strategy of its own
  // or has not decided): the app runs that one; executing through auto then is an error.
  const std::string& chosen_outside() const { return outside_; }
  // A candidate the app measured itself on its real executions, before auto profiles anything:
  // one execution takes exec_ms after setup_ms of set-up already spent. A name of one of auto's
  // own candidates (the gather, timed through the same strategy) stands for its profile; any
  // other name is an alternative outside the layer, which auto can choose but never runs.
  void add_measured(const std::string& name, double exec_ms, double setup_ms) {
    if (decided()) throw Error("auto: measured candidates are handed in before the decision");
    if (cands_.empty()) choose_candidates();
    // A candidate planned for profiling may have run untimed executions (the app's reductions,
    // without profile_reductions), no timed one: it goes back to the queue (planned again when
    // its turn comes), or is the one measured.
    if (profiling_ >= 0) {
      Candidate& p = cands_[profiling_];
      if (p.first_done) throw Error("auto: measured candidates are handed in before profiling");
      if (p.p.name != name) {
        if (last_ran_ == p.s.get()) last_ran_ = nullptr;
        p.s.reset();
      }
      profiling_ = -1;
    }
    Candidate* c = nullptr;
    for (auto& k : cands_)
      if (k.p.name == name) c = &k;
    if (!c) {
      cands_.emplace_back();
      c = &cands_.back();
      c->p.name = name;
      c->outside = true;
    }
    if (c->done && !c->p.profiled) return;  // does not apply (or already screened out)
    c->p.exec_ms = exec_ms;
    c->p.plan_ms = setup_ms;
    c->p.first_extra_ms = 0;
    c->p.profiled = true;
    c->p.note = c->outside ? "measured by the app (not a remap strategy)" : "measured by the app";
    c->p.run_ms = predict_run_ms(c->p, this->opt_.horizon);
    c->measured = true;
    c->done = true;
  }
  // While undecided: plans the next candidate to profile, or decides when none is left (an app
  // driving auto's profiling calls it before each execution, since a choice outside the layer
  // runs nothing). Returns decided().
  bool prepare() {
    if (!decided()) advance();
    return decided();
  }
  // Exploration the app spent before handing its measurements in (counted in the budget).
  void add_explored_ms(double ms) { explore_ms_ += ms; }
  // Not to be explored, the app's reason given (before the decision): the candidate `name`, where
  // it is one of auto's own (an app that measures the gather itself and judged measuring it past
  // its budget), or, with an empty name, every candidate not finished yet (an app whose own
  // exploration budget is spent). Candidates finished or measured keep what they have.
  void add_unexplored(const std::string& name, const std::string& why) {
    if (decided()) throw Error("auto: unexplored candidates are handed in before the decision");
    if (profiling_ >= 0) throw Error("auto: unexplored candidates are handed in before profiling");
    if (cands_.empty()) choose_candidates();
    for (auto& c : cands_) {
      if (c.done || c.outside || (!name.empty() && c.p.name != name)) continue;
      c.p.note = "not explored: " + why;
      c.done = true;
    }
  }
  // The run horizon, while undecided: an app that learns how long its run will be (CG from its
  // residuals) tells auto before it decides.
  void set_horizon(const RunHorizon& h) {
    if (chosen_) throw Error("auto: the horizon cannot change after the decision");
    this->opt_.horizon = h;
    for (auto& c : cands_)  // the predictions so far, over the new horizon
      if (c.p.profiled) c.p.run_ms = predict_run_ms(c.p, h);
  }
  RemapStrategy<T>* chosen() { return chosen_; }

  template <class Body, class Sums>
  void execute(const Body& body, bool ev, Sums& sums) {
    if (!decided()) advance();
    if (chosen_) return remap::execute<T, R>(*chosen_, body, ev, sums);
    if (!outside_.empty())
      throw Error("auto chose '" + outside_ + "', which the app runs itself, not auto");
    Candidate& c = cands_[profiling_];
    if (ev && !this->opt_.profile_reductions) {  // blocking reductions would distort the sample
      remap::execute<T, R>(*c.s, body, ev, sums);
      last_ran_ = c.s.get();
      return;
    }
    Kokkos::fence();
    Kokkos::Timer timer;
    remap::execute<T, R>(*c.s, body, ev, sums);
    last_ran_ = c.s.get();
    Kokkos::fence();
    const double ms = ms_since(timer);
    c.exec_total += ms;
    if (profiling_ != 0) explore_ms_ += ms;
    // The first execution after a plan is timed apart: it may carry one-time work even where
    // the data change every execution (dup of references copies the pattern once, seed 000
    // §6.3.1). Its excess over the median is counted once per plan.
    if (!c.first_done) {
      c.first_done = true;
      c.first_ms = ms;
      return;
    }
    c.ms.push_back(ms);
    // A second execution already far slower than the best run's executions cannot win: no more
    // of them are spent on it.
    const int best = best_finished();
    if (c.ms.size() == 1 && best >= 0 && ms > kClearLoser * cands_[best].p.exec_ms) {
      c.p.note = fmt::format("stopped after two executions: {:.3f} ms > {} x the best {:.3f} ms",
                             ms, kClearLoser, cands_[best].p.exec_ms);
      finish_candidate(c);
      return;
    }
    if (static_cast<int>(c.ms.size()) >= this->opt_.profile_steps) finish_candidate(c);
  }
  template <class Body, class Sums>
  void compute_only(const Body& body, bool ev, Sums& sums) {
    if (!chosen_) return execute(body, ev, sums);  // undecided, or throws (outside)
    remap::compute_only<T, R>(*chosen_, body, ev, sums);
  }

 private:
  struct Candidate {
    std::unique_ptr<RemapStrategy<T>> s;
    CandidatePrediction p;
    std::vector<double> ms;
    double first_ms = 0;
    double plan_total = 0, exec_total = 0;  // every plan and profiled execution of it
    bool first_done = false, done = false;
    bool measured = false;  // profiled by the app (add_measured)
    bool outside = false;   // the app's own alternative: no strategy of the layer
  };
  // seed 001 Fig. 6: T threads vs Z data; single reference pattern -> padding; block working set
  // within shared memory -> sharing; else duplication. The guideline names a first choice; every
  // applicable candidate is then measured.
  void choose_candidates() {
    const RemapOptions& o = this->opt_;
    const std::int64_t Tn = pv_.threads, Z = pv_.data_count;
    std::string rule;
    if (Tn <= 2 * Z)
      rule = fmt::format("T={} threads is comparable with Z={} elements -> dup", Tn, Z);
    else if (o.reference_patterns == 1)
      rule = "one reference pattern -> padding";
    else
      rule = "-> sharing where the block working set fits shared memory, else dup";
    guideline_ = "Fig. 6 guideline: " + rule;
    for (const auto& [n, a] : detail::candidates(typename R::template list<T>{}, o)) {
      Candidate c;
      c.p.name = n;
      if (!a.ok) {
        c.done = true;
        c.p.note = "does not apply: " + a.why;
      } else if (n == "gather" && (o.path == GatherPath::Texture || o.path == GatherPath::Split) &&
                 !texture_path_available()) {
        c.done = true;
        c.p.note = std::string(to_string(o.path)) + " path unavailable on this backend";
      }
      cands_.push_back(std::move(c));
    }
  }

  // The best predicted whole run among the candidates finished so far.
  double best_run_ms() const {
    double b = std::numeric_limits<double>::infinity();
    for (const auto& c : cands_)
      if (c.done && c.p.profiled) b = std::min(b, c.p.run_ms);
    return b;
  }

  // Elements of `size` bytes in a probe of about `bytes`: a power of two within [lo, hi] bytes.
  static std::size_t probe_elements(double bytes, std::size_t lo, std::size_t hi,
                                    std::size_t size) {
    std::size_t b = lo;
    while (b < hi && static_cast<double>(b) < bytes) b *= 2;
    return b / size;
  }

  // The host copy of the pattern: its index (and lengths) over the device-to-host bandwidth,
  // twice for the reformatting pass on the host. The bandwidth is measured once per process and
  // size on a copy about as large as the pattern (a power of two, 1 MB .. 8 MB: a short pageable
  // copy runs below the streaming rate, so the estimate errs long, and the probe stays cheap).
  double estimate_host_copy_ms() const {
    const double entries = pv_.layout == PatternLayout::Offsets
                               ? static_cast<double>(pv_.index.extent(0))
                               : static_cast<double>(pv_.threads) * pv_.rows;
    const double bytes = 4.0 * (entries + static_cast<double>(pv_.threads));
    static std::map<std::size_t, double> measured;
    const std::size_t n =
        probe_elements(bytes, std::size_t(1) << 20, std::size_t(1) << 23, sizeof(int));
    auto it = measured.find(n);
    if (it == measured.end()) {
      Kokkos::View<int*> d(Kokkos::view_alloc("auto_d2h", Kokkos::WithoutInitializing), n);
      Kokkos::deep_copy(d, 1);
      auto h = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, Kokkos::HostSpace(), d);
      double best = 1e300;
      for (int k = 0; k < 2; ++k) {
        Kokkos::fence();
        Kokkos::Timer t;
        Kokkos::deep_copy(h, d);
        best = std::min(best, t.seconds());
      }
      it = measured.emplace(n, static_cast<double>(n * sizeof(int)) / best / 1e9).first;
    }
    return 2.0 * bytes / (1e6 * it->second);
  }

  const IrregularPattern* host(double& copy_ms) {
    if (!host_) {
      Kokkos::Timer t;
      host_ = std::make_unique<IrregularPattern>(host_pattern(pv_, sizeof(T)));
      host_copy_ms_ = ms_since(t);
    }
    copy_ms = host_copy_ms_;
    return host_.get();
  }

  void plan_candidate(Candidate& c) {
    double copy_ms = 0;
    const IrregularPattern* h = c.s->needs_host_pattern() ? host(copy_ms) : nullptr;
    Kokkos::fence();
    Kokkos::Timer t;
    c.s->plan(pv_, h);
    Kokkos::fence();
    c.p.plan_ms = copy_ms + ms_since(t);
    c.plan_total += c.p.plan_ms;
    if (data_.data()) c.s->set_data(data_, true);
  }

  // Before an execution while undecided: releases the copies of finished candidates that are not
  // the best so far (a dup copy can take gigabytes; the last execution's outputs have been
  // consumed by now), then plans the next candidate to profile, skipping those whose plans alone
  // exceed the best predicted run, or decides when none is left.
  void advance() {
    const int best = best_finished();
    for (int k = 0; k < static_cast<int>(cands_.size()); ++k)
      if (k != best && cands_[k].done && cands_[k].s) {
        if (last_ran_ == cands_[k].s.get()) last_ran_ = nullptr;
        cands_[k].s.reset();
      }
    if (profiling_ >= 0 && !cands_[profiling_].done) return;
    const RemapOptions& o = this->opt_;
    Kokkos::Timer spent;
    struct Count {  // what advance() itself takes is exploration once a first candidate is done
      AutoStrategy* a;
      Kokkos::Timer& t;
      ~Count() {
        if (a->best_finished() >= 0) a->explore_ms_ += ms_since(t);
      }
    } count{this, spent};
    for (int k = 0; k < static_cast<int>(cands_.size()); ++k) {
      Candidate& c = cands_[k];
      if (c.done) continue;
      const double bar_now = best_run_ms();
      if (o.explore_budget > 0 && std::isfinite(bar_now) &&
          explore_ms_ + ms_since(spent) > o.explore_budget * bar_now) {
        c.p.note = fmt::format(
            "not explored: the exploration budget ({:.0f}% of the best run {:.1f} ms) is spent "
            "({:.1f} ms)",
            100 * o.explore_budget, bar_now, explore_ms_ + ms_since(spent));
        c.done = true;
        continue;
      }
      // Its profiled executions alone, at the best one's time, past what is left of the budget:
      // not explored, before it is made or screened (making and screening it would cost a short
      // run several times the decision it comes to anyway).
      if (o.explore_budget > 0 && best_finished() >= 0 && std::isfinite(bar_now)) {
        const double runs = (o.profile_steps + 1) * cands_[best_finished()].p.exec_ms;
        const double left = o.explore_budget * bar_now - explore_ms_ - ms_since(spent);
        if (runs > left) {
          c.p.note = fmt::format(
              "not explored: its {} profiled executions alone would take at least {:.2f} ms, "
              "more than the {:.2f} ms left of the exploration budget ({:.0f}% of the best run "
              "{:.1f} ms)",
              o.profile_steps + 1, runs, std::max(0.0, left), 100 * o.explore_budget, bar_now);
          c.done = true;
          continue;
        }
      }
      // Candidates plan in the foreground: a profiled execution must be the candidate's own.
      RemapOptions co = o;
      co.plan_overlap = false;
      c.s = make_strategy<T, R>(c.p.name, co);
      const double bar = best_run_ms();
      // A host planner needs the host copy of the pattern first: estimated from its bytes at the
      // measured device-to-host bandwidth before it is made.
      if (c.s->needs_host_pattern() && !host_) {
        const double est_copy = estimate_host_copy_ms();
        if (predict_plans_ms(est_copy, o.horizon) > saving_bound_ms()) {
          c.p.plan_ms = est_copy;
          c.p.note = fmt::format(
              "the host copy of the pattern alone (estimated {:.1f} ms x {} plans) exceeds the "
              "most it could save, {:.1f} ms ({}): not profiled",
              est_copy, o.horizon.plans(), saving_bound_ms(), saving_text());
          c.s.reset();
          c.done = true;
          continue;
        }
      }
      // A host planner is first timed on the pattern's first threads, gathered on the device
      // (host_pattern_head): one whose plans would cost more than it could save is dropped before
      // the whole pattern crosses to the host. The sample's partition has fewer levels than the
      // whole one, so it can only underestimate: a verdict against it is final, one for it is
      // checked again on the whole pattern below.
      if (c.s->needs_host_pattern() && !host_ && pv_.threads > 2 * kHeadThreads) {
        Kokkos::Timer head_clock;
        const IrregularPattern head = host_pattern_head(pv_, sizeof(T), kHeadThreads);
        // Making the head on the host, scaled to every thread: the host copy of the whole
        // pattern is at least that where the pattern is more than an index to copy (SP's two
        // levels are gathered first: 1.7 s at 1M variables against a copy estimate of 0.2 s).
        const double head_scaled = ms_since(head_clock) * static_cast<double>(pv_.threads) /
                                   static_cast<double>(kHeadThreads);
        const double est = c.s->estimate_plan_ms(pv_, &head);
        const double est_copy = estimate_host_copy_ms();
        if (est >= 0 && predict_plans_ms(est_copy + est, o.horizon) > saving_bound_ms()) {
          c.p.plan_ms = est_copy + est;
          c.p.note = fmt::format(
              "plans alone (estimated {:.1f} ms x {} from its first {} threads, with the host "
              "copy) exceed the most it could save, {:.1f} ms ({}): not profiled",
              c.p.plan_ms, o.horizon.plans(), kHeadThreads, saving_bound_ms(), saving_text());
          c.s.reset();
          c.done = true;
          continue;
        }
        // The check on the whole pattern costs the host copy and the planner on 1/32 of the
        // threads (at least): exploration, so within the budget's remainder or not at all.
        // The head's own making, scaled, counts here (fixed costs scaled too: it errs long, so it
        // only limits exploring, never rejects a candidate outright).
        const double screen = std::max(est_copy, head_scaled) + (est >= 0 ? est / 32 : 0.0);
        const double left = o.explore_budget * bar_now - explore_ms_ - ms_since(spent);
        if (o.explore_budget > 0 && std::isfinite(bar_now) && screen > left) {
          c.p.plan_ms = est_copy + est;
          c.p.note = fmt::format(
              "not explored: checking its plan (estimated {:.1f} ms from its first {} threads) "
              "on the whole pattern would take about {:.1f} ms (host copy and 1/32 of a plan), "
              "more than the {:.1f} ms left of the exploration budget ({:.0f}% of the best run "
              "{:.1f} ms)",
              est, kHeadThreads, screen, std::max(0.0, left), 100 * o.explore_budget, bar_now);
          c.s.reset();
          c.done = true;
          continue;
        }
      }
      double copy_ms = 0;
      const IrregularPattern* h = c.s->needs_host_pattern() ? host(copy_ms) : nullptr;
      // The bytes one execution must move at least, at the device's copy bandwidth: a lower
      // bound on the candidate's run that needs no profiling.
      const double bytes = c.s->min_exec_bytes(pv_);
      if (bytes > 0 && std::isfinite(bar)) {
        const double floor_ms =
            static_cast<double>(std::max<std::int64_t>(1, o.horizon.executions)) * bytes /
            (1e6 * copy_gb_per_s(bytes));
        if (floor_ms > bar) {
          c.p.note = fmt::format(
              "moves at least {:.2f} GB an execution: at the measured {:.0f} GB/s copy "
              "bandwidth its run takes at least {:.1f} ms > the best {:.1f} ms: not profiled",
              bytes / 1e9, copy_gb_per_s(bytes), floor_ms, bar);
          c.s.reset();
          c.done = true;
          continue;
        }
      }
      const double est = c.s->estimate_plan_ms(pv_, h);
      // What exploring it would cost at least: its plan (estimated where the planner can tell)
      // and its profiled executions at the best one's time; not begun past the budget.
      if (o.explore_budget > 0 && best_finished() >= 0) {
        const double cost =
            std::max(0.0, est) + (o.profile_steps + 1) * cands_[best_finished()].p.exec_ms;
        const double left = o.explore_budget * best_run_ms() - explore_ms_ - ms_since(spent);
        if (cost > left) {
          c.p.plan_ms = copy_ms + std::max(0.0, est);
          c.p.note = fmt::format(
              "not explored: its plan and {} profiled executions would take at least {:.2f} ms, "
              "more than the {:.2f} ms left of the exploration budget ({:.0f}% of the best run "
              "{:.1f} ms)",
              o.profile_steps + 1, cost, std::max(0.0, left), 100 * o.explore_budget,
              best_run_ms());
          c.s.reset();
          c.done = true;
          continue;
        }
      }
      const double save = saving_bound_ms();
      if (est >= 0 && predict_plans_ms(copy_ms + est, o.horizon) > save) {
        c.p.plan_ms = copy_ms + est;
        c.p.note = fmt::format(
            "plans alone (estimated {:.1f} ms x {}) exceed the most it could save, {:.1f} ms ({}): "
            "not profiled",
            c.p.plan_ms, o.horizon.plans(), save, saving_text());
        c.s.reset();
        c.done = true;
        continue;
      }
      plan_candidate(c);
      if (predict_plans_ms(c.p.plan_ms, o.horizon) > saving_bound_ms()) {
        c.p.note = fmt::format(
            "plans alone ({:.1f} ms x {}) exceed the most it could save, {:.1f} ms ({}): not "
            "profiled",
            c.p.plan_ms, o.horizon.plans(), saving_bound_ms(), saving_text());
        c.s.reset();
        c.done = true;
        continue;
      }
      profiling_ = k;
      return;
    }
    // This call's time so far goes into the exploration the decision reports.
    if (best_finished() >= 0) explore_ms_ += ms_since(spent);
    spent.reset();
    decide();
  }
  // The bytes every execution moves whatever the strategy: each data element and each weight read
  // once. At the copy bandwidth, the floor of any candidate's execution, where those bytes exceed
  // twice the last-level cache (they then come from memory every execution); 0 where they may stay
  // in the cache, which serves them faster than the copy bandwidth.
  double floor_exec_ms() const {
    const double entries = pv_.layout == PatternLayout::Offsets
                               ? static_cast<double>(pv_.index.extent(0))
                               : static_cast<double>(pv_.threads) * pv_.rows;
    const double bytes = static_cast<double>(pv_.data_count) * sizeof(T) +
                         (pv_.has_weight() ? entries * sizeof(double) : 0.0);
    return floor_ms_for(bytes);
  }
  // max_saving_ms against the best candidate finished so far (infinite before one is).
  double saving_bound_ms() const {
    const int b = best_finished();
    if (b < 0) return std::numeric_limits<double>::infinity();
    return max_saving_ms(cands_[b].p.exec_ms, floor_exec_ms(), this->opt_.horizon);
  }
  std::string saving_text() const {
    const int b = best_finished();
    if (b < 0) return "no candidate finished";
    return fmt::format("{} executions x ({} {:.4f} ms - floor {:.4f} ms)",
                       std::max<std::int64_t>(1, this->opt_.horizon.executions), cands_[b].p.name,
                       cands_[b].p.exec_ms, floor_exec_ms());
  }
  int best_finished() const {
    int b = -1;
    for (int k = 0; k < static_cast<int>(cands_.size()); ++k)
      if (cands_[k].done && cands_[k].p.profiled &&
          (b < 0 || cands_[k].p.run_ms < cands_[b].p.run_ms))
        b = k;
    return b;
  }

  void finish_candidate(Candidate& c) {
    c.p.exec_ms = median(c.ms);
    c.p.first_extra_ms = std::max(0.0, c.first_ms - c.p.exec_ms);
    c.p.profiled = true;
    c.p.run_ms = predict_run_ms(c.p, this->opt_.horizon);
    c.done = true;
  }

  void decide() {
    std::vector<CandidatePrediction> preds;
    std::vector<double> sunk;
    for (const auto& c : cands_) {
      preds.push_back(c.p);
      // A candidate still alive keeps its first plan and its first remap: spent already.
      // So is the set-up of the app's own alternatives it measured (it keeps those; one of
      // auto's candidates it measured is planned here again if chosen).
      sunk.push_back((c.s || c.outside) && c.p.profiled ? c.p.plan_ms + c.p.first_extra_ms : 0.0);
    }
    best_ = choose_candidate(preds, this->opt_.horizon, sunk);
    if (best_ < 0) throw Error("auto: no candidate could be profiled");
    for (std::size_t k = 0; k < cands_.size(); ++k) cands_[k].p.run_ms = preds[k].run_ms;
    Candidate& b = cands_[best_];
    if (b.outside) {
      outside_ = b.p.name;
    } else if (!b.s) {  // released as a loser earlier, or measured by the app: planned now
      b.s = make_strategy<T, R>(b.p.name, this->opt_);
      plan_candidate(b);
    }
    if (!b.outside) chosen_ = b.s.get();
    // The losers' remapped copies are released (a dup copy can take gigabytes).
    for (std::size_t k = 0; k < cands_.size(); ++k)
      if (static_cast<int>(k) != best_) cands_[k].s.reset();
    last_ran_ = nullptr;
    profiling_ = -1;
    // Time spent on candidates not kept: their plans and profiled executions.
    selection_ms_ = selection_exec_ms_ = 0;
    for (std::size_t k = 0; k < cands_.size(); ++k)
      if (static_cast<int>(k) != best_) {
        selection_ms_ += cands_[k].plan_total + cands_[k].exec_total;
        selection_exec_ms_ += cands_[k].exec_total;
      }
    host_.reset();
    const RunHorizon& h = this->opt_.horizon;
    std::string lines;
    for (const auto& c : cands_) {
      if (c.p.profiled)
        lines += fmt::format(
            "\n    {:<8} plan {:9.3f} ms x {}  first +{:8.3f} ms  exec {:8.4f} ms x {}"
            "  -> run {:10.1f} ms{}",
            c.p.name, c.p.plan_ms, h.plans(), c.p.first_extra_ms, c.p.exec_ms,
            std::max<std::int64_t>(1, h.executions), c.p.run_ms,
            c.measured ? " (" + c.p.note + ")" : std::string());
      else
        lines += fmt::format("\n    {:<8} {}", c.p.name, c.p.note);
    }
    decision_ = fmt::format(
        "auto chose {} ({}; whole-run prediction over {} executions, re-planned {}; median of {} "
        "profiled executions each):{}",
        chosen_ ? chosen_->name() : outside_ + " (the app's own)", guideline_,
        h.executions > 0 ? std::to_string(h.executions) : std::string("an unknown number of"),
        h.plan_every > 0 ? fmt::format("every {}", h.plan_every) : std::string("never"),
        this->opt_.profile_steps, lines);
    decision_ += fmt::format(
        "\n    exploration {:.2f} ms{}", explore_ms_,
        this->opt_.explore_budget > 0
            ? fmt::format(" (budget {:.0f}% of the best run)", 100 * this->opt_.explore_budget)
            : std::string());
  }

  PatternView pv_;
  Kokkos::View<const T*> data_;
  std::unique_ptr<IrregularPattern> host_;
  double host_copy_ms_ = 0;
  std::vector<Candidate> cands_;
  RemapStrategy<T>* chosen_ = nullptr;
  std::string outside_;  // the app's own alternative, when auto chose it
  const RemapStrategy<T>* last_ran_ = nullptr;
  // A candidate whose first execution takes this many times the best run's executions stops.
  static constexpr double kClearLoser = 1.5;
  int best_ = -1;
  int profiling_ = -1;  // candidate being profiled
  double selection_ms_ = 0, selection_exec_ms_ = 0;
  static constexpr std::int64_t kHeadThreads = 16384;  // threads of a planner's first timing
  double explore_ms_ = 0;  // exploration spent so far (see RemapOptions::explore_budget)
  std::string guideline_, decision_;
};

}  // namespace mdremap::remap

#pragma once
// Strategies by name (BRIEF section 3: a name -> factory registry), the visitor that runs an app's
// compute body through whichever strategy was chosen, and `auto` (seed 001 §4).
//
// Adding a strategy: one header with the class (plan / set_data / execute / compute_only), one
// line in strategy_factories() and one in visit().
#include <fmt/format.h>
#include <algorithm>

#include <functional>
#include <map>
#include <memory>
#include <numeric>

#include "mdremap/remap/sharing.hpp"
#include "remap/duplication.hpp"
#include "remap/gather_strategy.hpp"
#include "remap/padding_strategy.hpp"
#include "remap/sharing_strategy.hpp"

namespace mdremap::remap {

template <class T>
class AutoStrategy;

// Calls f(concrete strategy&); the compute bodies are templates, so the dispatch is here.
template <class T, class F>
void visit(RemapStrategy<T>& s, F&& f) {
  if (auto* g = dynamic_cast<GatherStrategy<T>*>(&s)) return f(*g);
  if (auto* d = dynamic_cast<DuplicationStrategy<T>*>(&s)) return f(*d);
  if (auto* p = dynamic_cast<PaddingStrategy<T>*>(&s)) return f(*p);
  if (auto* h = dynamic_cast<SharingStrategy<T>*>(&s)) return f(*h);
  if (auto* a = dynamic_cast<AutoStrategy<T>*>(&s)) return f(*a);
  throw Error("remap: strategy '" + s.name() + "' is not registered with visit()");
}

template <class T>
using StrategyFactory = std::function<std::unique_ptr<RemapStrategy<T>>(const RemapOptions&)>;

template <class T>
const std::map<std::string, StrategyFactory<T>>& strategy_factories();

inline const std::vector<std::string>& strategy_names() {
  static const std::vector<std::string> n = {"gather", "dup", "padding", "sharing", "auto"};
  return n;
}

template <class T>
std::unique_ptr<RemapStrategy<T>> make_strategy(const std::string& name, const RemapOptions& o) {
  const auto& f = strategy_factories<T>();
  const auto it = f.find(name);
  if (it == f.end()) {
    std::string all;
    for (const auto& n : strategy_names()) all += " " + n;
    throw Error("unknown remap mode '" + name + "' (one of:" + all + ")");
  }
  return it->second(o);
}

// `auto` (seed 001 §4): the Fig. 6 guidelines name a first choice; online profiling of the
// applicable candidates over their first executions (G-Streamline style) picks the one with the
// smallest median time (remap + compute), which then runs alone.
template <class T>
class AutoStrategy final : public RemapStrategy<T> {
 public:
  explicit AutoStrategy(const RemapOptions& o) : RemapStrategy<T>(o) {
    if (o.profile_steps < 1) throw Error("auto: profile steps must be at least 1");
  }
  std::string name() const override {
    return chosen_ ? "auto:" + chosen_->name() : std::string("auto");
  }
  bool needs_host_pattern() const override {
    if (chosen_) return chosen_->needs_host_pattern();
    if (cands_.empty()) return true;  // the guidelines look at the block working set
    for (const auto& c : cands_)
      if (c.s && c.s->needs_host_pattern()) return true;
    return false;
  }

  void plan(const PatternView& pv, const IrregularPattern* host) override {
    if (cands_.empty()) choose_candidates(pv, host);
    if (chosen_) {
      chosen_->plan(pv, host);
      return;
    }
    for (auto& c : cands_) c.s->plan(pv, host);
  }
  void set_data(Kokkos::View<const T*> data, bool changed) override {
    if (chosen_) return chosen_->set_data(data, changed);
    for (auto& c : cands_) c.s->set_data(data, changed);
  }
  void remap_now() override {
    if (chosen_) chosen_->remap_now();
  }
  TransactionCount model_transactions(const IrregularPattern& host) const override {
    if (!chosen_) return count_transactions(host);
    return chosen_->model_transactions(host);
  }
  RemapReport report() const override {
    RemapReport r = chosen_ ? chosen_->report() : RemapReport{};
    r.strategy = name();
    r.decision = decision_;
    return r;
  }
  bool decided() const { return chosen_ != nullptr; }
  RemapStrategy<T>* chosen() { return chosen_; }
  // Median profiled time per candidate (ms), in candidate order.
  std::vector<std::pair<std::string, double>> profile() const {
    std::vector<std::pair<std::string, double>> out;
    for (const auto& c : cands_) out.emplace_back(c.name, median(c.ms));
    return out;
  }

  template <class Body>
  void execute(const Body& body, bool ev, Sums2& sums);
  template <class Body>
  void compute_only(const Body& body, bool ev, Sums2& sums);

 private:
  struct Candidate {
    std::unique_ptr<RemapStrategy<T>> s;
    std::vector<double> ms;
    std::string name;
  };
  static double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  }

  // seed 001 Fig. 6: T threads vs Z data; single reference pattern -> padding; block working set
  // D1 within shared memory -> sharing; else duplication.
  void choose_candidates(const PatternView& pv, const IrregularPattern* host) {
    RemapOptions o = this->opt_;
    const std::int64_t Tn = pv.threads, Z = pv.data_count;
    SharingStrategy<T> probe(o);
    const double smem = static_cast<double>(probe.capacity_bytes());
    double d1 = 0;
    if (host) d1 = mean_block_working_set(*host, o.block_threads) * sizeof(T);
    std::string rule;
    if (Tn <= 2 * Z)
      rule = fmt::format("T={} threads is comparable with Z={} elements -> dup", Tn, Z);
    else if (o.reference_patterns == 1)
      rule = "one reference pattern -> padding";
    else if (host && d1 <= smem)
      rule = fmt::format("block working set D1={:.0f} B fits shared memory ({:.0f} B) -> sharing",
                         d1, smem);
    else
      rule = "-> dup";
    cands_.push_back({std::make_unique<GatherStrategy<T>>(o), {}});
    cands_.push_back({std::make_unique<DuplicationStrategy<T>>(o), {}});
    std::string skipped;
    if (host && d1 <= smem)
      cands_.push_back({std::make_unique<SharingStrategy<T>>(o), {}});
    else
      skipped += fmt::format("; sharing skipped (D1={:.0f} B > shared memory {:.0f} B)", d1, smem);
    if (o.reference_patterns == 1)
      cands_.push_back({std::make_unique<PaddingStrategy<T>>(o), {}});
    else
      skipped += fmt::format("; padding skipped ({} has {} reference patterns)", o.kernel,
                             o.reference_patterns);
    for (auto& c : cands_) c.name = c.s->name();
    guideline_ = "Fig. 6 guideline: " + rule + skipped;
  }

  void decide() {
    std::size_t best = 0;
    std::string times;
    for (std::size_t k = 0; k < cands_.size(); ++k) {
      times +=
          fmt::format("{}{} {:.3f} ms", k ? ", " : "", cands_[k].s->name(), median(cands_[k].ms));
      if (median(cands_[k].ms) < median(cands_[best].ms)) best = k;
    }
    chosen_ = cands_[best].s.get();
    // The losers' remapped copies are released (a dup copy can take gigabytes).
    for (std::size_t k = 0; k < cands_.size(); ++k)
      if (k != best) cands_[k].s.reset();
    decision_ =
        fmt::format("auto chose {} ({}; online profiling, median of {} executions each: {})",
                    chosen_->name(), guideline_, this->opt_.profile_steps, times);
  }

  std::vector<Candidate> cands_;
  RemapStrategy<T>* chosen_ = nullptr;
  std::size_t next_ = 0;  // candidate being profiled
  std::string guideline_, decision_;
};

template <class T>
template <class Body>
void AutoStrategy<T>::execute(const Body& body, bool ev, Sums2& sums) {
  if (chosen_) {
    visit(*chosen_, [&](auto& s) { s.execute(body, ev, sums); });
    return;
  }
  Candidate& c = cands_[next_];
  Kokkos::fence();
  Kokkos::Timer timer;
  visit(*c.s, [&](auto& s) { s.execute(body, ev, sums); });
  Kokkos::fence();
  if (ev) return;  // blocking reductions would distort the sample: profile plain steps only
  c.ms.push_back(ms_since(timer));
  if (static_cast<int>(c.ms.size()) >= this->opt_.profile_steps && ++next_ == cands_.size())
    decide();
}

template <class T>
template <class Body>
void AutoStrategy<T>::compute_only(const Body& body, bool ev, Sums2& sums) {
  if (!chosen_) return execute(body, ev, sums);
  visit(*chosen_, [&](auto& s) { s.compute_only(body, ev, sums); });
}

template <class T>
const std::map<std::string, StrategyFactory<T>>& strategy_factories() {
  static const std::map<std::string, StrategyFactory<T>> f = {
      {"gather", [](const RemapOptions& o) { return std::make_unique<GatherStrategy<T>>(o); }},
      {"dup", [](const RemapOptions& o) { return std::make_unique<DuplicationStrategy<T>>(o); }},
      {"padding", [](const RemapOptions& o) { return std::make_unique<PaddingStrategy<T>>(o); }},
      {"sharing", [](const RemapOptions& o) { return std::make_unique<SharingStrategy<T>>(o); }},
      {"auto", [](const RemapOptions& o) { return std::make_unique<AutoStrategy<T>>(o); }},
  };
  return f;
}

}  // namespace mdremap::remap

#include "cg/remap_spmv.hpp"

#include <fmt/format.h>

#include "cg/spmv_body.hpp"
#include "mdremap/error.hpp"
#include "mdremap/remap/gather_strategy.hpp"
#include "mdremap/remap/registry.hpp"

namespace mdremap::cg {

// x changes every CG iteration, so every execution says so; dup's reference copies (ELL) stay
// valid regardless (seed 000 §6.3.1).
RemapSpmv::RemapSpmv(const DeviceCsr& a, const std::string& mode, remap::RemapOptions o,
                     std::int64_t decide_after)
    : a_(a), decide_after_(decide_after) {
  describe_cg_kernel(o);
  s_ = remap::make_strategy<double>(mode, o);
  auto_ = dynamic_cast<remap::AutoStrategy<double>*>(s_.get());
  pv_ = spmv_pattern_view(a);
  if (s_->needs_host_pattern()) {
    const remap::IrregularPattern host = remap::host_pattern(pv_, sizeof(double));
    s_->plan(pv_, &host);
  } else {
    s_->plan(pv_, nullptr);
  }
  opt_ = o;
  if (auto_ && decide_after_ == 0) decide();
  // One remap timed on a zero vector. The gather remaps nothing, nor does an auto still
  // deciding (it runs nothing before its decision): no vector is made for them (its allocation
  // and release, a device synchronisation, would count in auto's exploration).
  if (std::string(s_->key()) != remap::GatherStrategy<double>::kName &&
      !(auto_ && !auto_->decided())) {
    Kokkos::View<double*> x0("cg::x0", a.cols);
    s_->set_data(x0, true);
    Kokkos::fence();
    Kokkos::Timer t;
    s_->remap_now();
    remap_ms_ = 1e3 * t.seconds();
  }
}

RemapSpmv::~RemapSpmv() = default;

std::string RemapSpmv::name() const {
  return s_->name();
}

std::string RemapSpmv::describe() const {
  const auto r = s_->report();
  std::string d = fmt::format("csr-thread through remap strategy '{}'", s_->name());
  if (!r.dup_target.empty()) d += fmt::format(" (dup of {})", r.dup_target);
  if (!r.decision.empty()) d += ": " + r.decision;
  return d;
}

void RemapSpmv::apply(Kokkos::View<const double*> x, Kokkos::View<double*> y) {
  check_order();
  s_->set_data(x, true);
  cur_ = x;
  Sums2 s;
  remap::execute(*s_, SpmvBody<StoreRow>{{y}}, false, s);
}

Sums2 RemapSpmv::apply_dots(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                            Kokkos::View<double*> w) {
  check_order();
  s_->set_data(u, true);
  cur_ = u;
  Sums2 s;
  // auto, undecided: the fused reduction, whose executions the layer's auto leaves to the solve's
  // decision point (it profiles plain executions of its own accord).
  if (fused_dots_ || (auto_ && !auto_->decided())) {
    remap::execute(*s_, SpmvBody<CgRow>{{w, u, r}}, true, s);
    return s;
  }
  // Kokkos runs a range reduction as a few blocks per multiprocessor looping over the rows, at
  // a fraction of the bandwidth the plain SpMV's thread per row reaches; the dots after it read w,
  // u, r once more and still win (spmv.fused_dots false, the default).
  remap::execute(*s_, SpmvBody<CgRow>{{w, u, r}}, false, s);
  return cg_dots(w, u, r);
}

bool RemapSpmv::runs_unobserved() const {
  return !fused_dots_ && (!auto_ || auto_->decided());
}

void RemapSpmv::observe(std::int64_t it, double rel, double tolerance,
                        std::int64_t max_iterations) {
  if (!auto_ || auto_->decided() || decide_after_ < 0) return;
  residuals_.push_back(rel);
  if (it < decide_after_) return;
  const DecisionHorizon h = horizon_after(residuals_, it, rel, tolerance, max_iterations);
  decide_over(h.left, h.note);
}

void RemapSpmv::solve_ended(std::int64_t iterations) {
  if (!auto_ || auto_->decided() || decide_after_ < 0) return;
  decide_over(1, fmt::format("the solve ended after {} iterations, before the decision point "
                             "({}): it ran on the gather; decided afterwards for one more SpMV",
                             iterations, decide_after_));
}

remap::RemapReport RemapSpmv::report() const {
  return s_->report();
}

remap::TransactionBreakdown RemapSpmv::model_breakdown(const remap::IrregularPattern& h) const {
  return s_->model_breakdown(h);
}

// CG plans once.
void RemapSpmv::decide_over(std::int64_t executions, const std::string& note) {
  if (!auto_) throw Error("cg: decide_over on strategy '" + s_->name() + "', which is not auto");
  horizon_note_ = note;
  remap::RunHorizon h;
  h.executions = std::max<std::int64_t>(1, executions);
  h.plan_every = 0;
  auto_->set_horizon(h);
  decide();
}

// `auto` profiles on SpMVs of a ones vector (as many as its candidates need; none when the app
// measured them all): plain ones, or with the iteration's dot products where the kernel-level
// auto compares them with its own measurements of whole iterations (profile_reductions).
void RemapSpmv::decide() {
  Kokkos::View<double*> x, y;  // made only when a candidate is profiled
  bool made = false;
  const int limit = 64 * (opt_.profile_steps + 2);
  for (int i = 0; i < limit && !auto_->prepare(); ++i) {
    if (!made) {
      made = true;
      x = Kokkos::View<double*>("cg::auto_x", a_.cols);
      y = Kokkos::View<double*>("cg::auto_y", a_.rows);
      Kokkos::deep_copy(x, 1.0);
    }
    s_->set_data(x, true);
    Sums2 s;
    if (opt_.profile_reductions)  // as a CG iteration runs it: w = A u with both dots, u = r = x
      remap::execute(*s_, SpmvBody<CgRow>{{y, x, x}}, true, s);
    else
      remap::execute(*s_, SpmvBody<StoreRow>{{y}}, false, s);
  }
  if (!auto_->decided())
    throw Error(fmt::format("auto: no decision after {} profiling SpMVs", limit));
  if (cur_.data() && auto_->chosen_outside().empty()) s_->set_data(cur_, true);
}

// The bodies write row t at thread t: a strategy that regroups threads would need the outputs
// mapped back (none that applies to CG's body does).
void RemapSpmv::check_order() const {
  if (!s_->thread_perm().empty())
    throw Error("cg: strategy '" + s_->name() +
                "' regroups rows; CG's SpMV body does not map "
                "them back");
}

}  // namespace mdremap::cg

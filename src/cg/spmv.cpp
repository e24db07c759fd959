#include "cg/spmv.hpp"

#include <fmt/format.h>

#include <cmath>

#include "cg/cusparse_spmv.hpp"
#include "cg/spmv_body.hpp"
#include "mdremap/error.hpp"
#include "mdremap/remap/registry.hpp"

namespace mdremap::cg {

namespace {

// The SpMV body through a remap strategy (thread per row). x changes every CG iteration, so every
// execution says so; dup's reference copies (ELL) stay valid regardless (seed 000 §6.3.1).
class RemapSpmv final : public CgSpmv {
 public:
  RemapSpmv(const DeviceCsr& a, const std::string& mode, remap::RemapOptions o,
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
    Kokkos::View<double*> x0("cg::x0", a.cols);
    s_->set_data(x0, true);
    Kokkos::fence();
    Kokkos::Timer t;
    s_->remap_now();
    remap_ms_ = 1e3 * t.seconds();
  }
  double remap_ms() const override { return remap_ms_; }
  std::string name() const override { return s_->name(); }
  std::string describe() const override {
    const auto r = s_->report();
    std::string d = fmt::format("csr-thread through remap strategy '{}'", s_->name());
    if (!r.dup_target.empty()) d += fmt::format(" (dup of {})", r.dup_target);
    if (!r.decision.empty()) d += ": " + r.decision;
    return d;
  }
  void apply(Kokkos::View<const double*> x, Kokkos::View<double*> y) override {
    check_order();
    s_->set_data(x, true);
    cur_ = x;
    Sums2 s;
    remap::execute(*s_, SpmvBody<StoreRow>{{y}}, false, s);
  }
  Sums2 apply_dots(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                   Kokkos::View<double*> w) override {
    check_order();
    s_->set_data(u, true);
    cur_ = u;
    Sums2 s;
    remap::execute(*s_, SpmvBody<CgRow>{{w, u, r}}, true, s);
    return s;
  }
  void observe(std::int64_t it, double rel, double tolerance,
               std::int64_t max_iterations) override {
    if (!auto_ || auto_->decided()) return;
    residuals_.push_back(rel);
    if (it < decide_after_) return;
    const std::int64_t left = expected_remaining_iterations(
        residuals_, tolerance, std::max<std::int64_t>(0, max_iterations - it));
    horizon_note_ = fmt::format(
        "decided after {} iterations (relative residual {:.3g}): about {} more to {:.3g} "
        "(rate of the last {} iterations extrapolated; at most {})",
        it, rel, left, tolerance, residuals_.size() - residuals_.size() / 2,
        std::max<std::int64_t>(0, max_iterations - it));
    decide_over(left);
  }
  void solve_ended(std::int64_t iterations) override {
    if (!auto_ || auto_->decided()) return;
    horizon_note_ = fmt::format(
        "the solve ended after {} iterations, before the decision point ({}): it ran on the "
        "gather; decided afterwards for one more SpMV",
        iterations, decide_after_);
    decide_over(1);
  }
  std::string horizon_note() const override { return horizon_note_; }
  bool has_report() const override { return true; }
  remap::RemapReport report() const override { return s_->report(); }
  bool models_transactions() const override { return true; }
  remap::TransactionBreakdown model_breakdown(const remap::IrregularPattern& h) const override {
    return s_->model_breakdown(h);
  }

 private:
  // `auto` profiles plain executions only (a blocking reduction would distort its samples), and
  // every CG iteration reduces: it decides on plain SpMVs of a ones vector before the solve.
  // Over `executions` more SpMVs (CG plans once).
  void decide_over(std::int64_t executions) {
    remap::RunHorizon h;
    h.executions = std::max<std::int64_t>(1, executions);
    h.plan_every = 0;
    auto_->set_horizon(h);
    decide();
  }
  void decide() {
    Kokkos::View<double*> x("cg::auto_x", a_.cols), y("cg::auto_y", a_.rows);
    Kokkos::deep_copy(x, 1.0);
    const int limit = 64 * (opt_.profile_steps + 2);
    for (int i = 0; i < limit && !auto_->decided(); ++i) {
      s_->set_data(x, true);
      Sums2 s;
      remap::execute(*s_, SpmvBody<StoreRow>{{y}}, false, s);
    }
    if (!auto_->decided())
      throw Error(fmt::format("auto: no decision after {} profiling SpMVs", limit));
    if (cur_.data()) s_->set_data(cur_, true);
  }
  // The bodies write row t at thread t: a strategy that regroups threads would need the outputs
  // mapped back (none that applies to CG's body does).
  void check_order() const {
    if (!s_->thread_perm().empty())
      throw Error("cg: strategy '" + s_->name() +
                  "' regroups rows; CG's SpMV body does not map "
                  "them back");
  }
  DeviceCsr a_;
  remap::PatternView pv_;
  std::unique_ptr<remap::RemapStrategy<double>> s_;
  remap::AutoStrategy<double>* auto_ = nullptr;  // s_ when it is auto
  remap::RemapOptions opt_;
  std::int64_t decide_after_ = 0;
  std::vector<double> residuals_;
  std::string horizon_note_;
  Kokkos::View<const double*> cur_;
  double remap_ms_ = 0;
};

// s0 = w . u and s1 = r . u in one pass.
Sums2 dots(Kokkos::View<const double*> w, Kokkos::View<const double*> u,
           Kokkos::View<const double*> r) {
  Sums2 s;
  Kokkos::parallel_reduce(
      "CG::dots", Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>(0, w.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t t, Sums2& acc) {
        const double ut = u(t);
        acc.s0 += w(t) * ut;
        acc.s1 += r(t) * ut;
      },
      Kokkos::Sum<Sums2>(s));
  return s;
}

class CsrLanesSpmv final : public CgSpmv {
 public:
  CsrLanesSpmv(const DeviceCsr& a, int vector_length)
      : a_(a), vl_(vector_length), rows_per_team_(std::max(1, 128 / vector_length)) {}
  std::string name() const override { return "csr-warp"; }
  std::string describe() const override {
    return fmt::format("csr-warp ({} lanes per row, {} rows per team)", vl_, rows_per_team_);
  }
  void apply(Kokkos::View<const double*> x, Kokkos::View<double*> y) override {
    Sums2 s;
    run_lanes_per_row("CG::spmv_lanes", StoreRow{y}, CsrGatherAccess(a_, x), a_.rows, vl_,
                      rows_per_team_, false, s);
  }
  // The lanes kernel writes w only; both dot products follow in one range reduction (w, u and r
  // read once more: 24 B a row). A team-policy reduction with vector lanes, as Kokkos' CUDA
  // backend generates it, cost 5x the SpMV itself (session 6: 0.40-0.50 ms a CG iteration against
  // a 0.07-0.10 ms SpMV).
  Sums2 apply_dots(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                   Kokkos::View<double*> w) override {
    Sums2 s;
    run_lanes_per_row("CG::spmv_lanes", StoreRow{w}, CsrGatherAccess(a_, u), a_.rows, vl_,
                      rows_per_team_, false, s);
    return dots(w, u, r);
  }

 private:
  DeviceCsr a_;
  int vl_, rows_per_team_;
};

}  // namespace

const std::vector<std::string>& spmv_kernel_names() {
  static const std::vector<std::string> n = {"csr-thread", "csr-warp", "cusparse"};
  return n;
}

bool have_cusparse() {
#ifdef MDREMAP_HAS_CUSPARSE
  return true;
#else
  return false;
#endif
}

std::int64_t expected_remaining_iterations(const std::vector<double>& residuals, double tolerance,
                                           std::int64_t at_most) {
  const std::size_t k = residuals.size();
  if (k == 0 || at_most <= 0) return std::max<std::int64_t>(0, at_most);
  const double last = residuals[k - 1];
  if (!(last > tolerance)) return 0;
  const std::size_t from = k / 2;  // the later half: past CG's first, faster drop
  const double first =
      from > 0 ? residuals[from - 1] : 1.0;  // the residual before iteration 1 is 1
  const double span = static_cast<double>(k - from);
  if (!(first > 0) || !(last > 0) || !(last < first)) return at_most;
  const double rate = std::log(last / first) / span;  // < 0
  const double need = std::ceil(std::log(tolerance / last) / rate - 1e-9);
  return std::min<std::int64_t>(at_most, static_cast<std::int64_t>(std::max(1.0, need)));
}

int auto_vector_length(const DeviceCsr& a) {
  const double mean = a.rows > 0 ? static_cast<double>(a.nnz) / a.rows : 1.0;
  int v = 2;
  while (v < 32 && v < mean) v *= 2;
  return v;
}

remap::PatternView spmv_pattern_view(const DeviceCsr& a) {
  remap::PatternView pv;
  pv.layout = remap::PatternLayout::Offsets;
  pv.index = a.col;
  pv.len = a.len;
  pv.start = a.rowptr;
  pv.weight = a.val;
  pv.threads = a.rows;
  pv.rows = a.max_len;
  pv.data_count = a.cols;
  return pv;
}

void describe_cg_kernel(remap::RemapOptions& o) {
  o.reference_patterns = CgRow::kReferencePatterns;
  o.kernel = "CG's SpMV (it reads u(t), r(t) of its own row for the fused dot products)";
}

void check_remap_mode(const std::string& mode, remap::RemapOptions o) {
  describe_cg_kernel(o);
  (void)remap::make_strategy<double>(mode, o);  // constructors check applicability, allocate none
}

std::unique_ptr<CgSpmv> make_spmv(const DeviceCsr& a, const SpmvOptions& o) {
  if (o.kernel != "csr-thread" && o.remap != "gather")
    throw Error(
        fmt::format("spmv kernel '{}' runs its own gather: remap strategy '{}' needs "
                    "kernel csr-thread",
                    o.kernel, o.remap));
  if (o.kernel == "csr-thread")
    return std::make_unique<RemapSpmv>(a, o.remap, o.remap_opt, o.decide_after);
  if (o.kernel == "csr-warp") {
    const int v = o.vector_length == 0 ? auto_vector_length(a) : o.vector_length;
    if (v < 1 || v > 32 || (v & (v - 1)) != 0)
      throw Error(fmt::format("csr-warp: vector length must be a power of two <= 32, got {}", v));
    return std::make_unique<CsrLanesSpmv>(a, v);
  }
  if (o.kernel == "cusparse") {
#ifdef MDREMAP_HAS_CUSPARSE
    return make_cusparse_spmv(a);
#else
    throw Error(
        "spmv kernel 'cusparse' needs a CUDA build (the cuSPARSE anchor); this binary "
        "runs on the host");
#endif
  }
  throw Error(fmt::format("unknown spmv kernel '{}' (csr-thread, csr-warp or cusparse)", o.kernel));
}

}  // namespace mdremap::cg

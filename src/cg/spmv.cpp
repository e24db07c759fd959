#include "cg/spmv.hpp"

#include <fmt/format.h>

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
  RemapSpmv(const DeviceCsr& a, const std::string& mode, remap::RemapOptions o) : a_(a) {
    describe_cg_kernel(o);
    s_ = remap::make_strategy<double>(mode, o);
    pv_ = spmv_pattern_view(a);
    if (s_->needs_host_pattern()) {
      const remap::IrregularPattern host = remap::host_pattern(pv_, sizeof(double));
      s_->plan(pv_, &host);
    } else {
      s_->plan(pv_, nullptr);
    }
    decide(o);
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
    Sums2 s;
    remap::execute(*s_, SpmvBody<StoreRow>{{y}}, false, s);
  }
  Sums2 apply_dots(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                   Kokkos::View<double*> w) override {
    check_order();
    s_->set_data(u, true);
    Sums2 s;
    remap::execute(*s_, SpmvBody<CgRow>{{w, u, r}}, true, s);
    return s;
  }
  bool has_report() const override { return true; }
  remap::RemapReport report() const override { return s_->report(); }
  bool models_transactions() const override { return true; }
  remap::TransactionBreakdown model_breakdown(const remap::IrregularPattern& h) const override {
    return s_->model_breakdown(h);
  }

 private:
  // `auto` profiles plain executions only (a blocking reduction would distort its samples), and
  // every CG iteration reduces: it decides on plain SpMVs of a ones vector before the solve.
  void decide(const remap::RemapOptions& o) {
    auto* a = dynamic_cast<remap::AutoStrategy<double>*>(s_.get());
    if (!a) return;
    Kokkos::View<double*> x("cg::auto_x", a_.cols), y("cg::auto_y", a_.rows);
    Kokkos::deep_copy(x, 1.0);
    const int limit = 64 * (o.profile_steps + 2);
    for (int i = 0; i < limit && !a->decided(); ++i) {
      s_->set_data(x, true);
      Sums2 s;
      remap::execute(*s_, SpmvBody<StoreRow>{{y}}, false, s);
    }
    if (!a->decided())
      throw Error(fmt::format("auto: no decision after {} profiling SpMVs", limit));
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
  double remap_ms_ = 0;
};

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
  Sums2 apply_dots(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                   Kokkos::View<double*> w) override {
    Sums2 s;
    run_lanes_per_row("CG::spmv_lanes_dots", CgRow{w, u, r}, CsrGatherAccess(a_, u), a_.rows, vl_,
                      rows_per_team_, true, s);
    return s;
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
  if (o.kernel == "csr-thread") return std::make_unique<RemapSpmv>(a, o.remap, o.remap_opt);
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

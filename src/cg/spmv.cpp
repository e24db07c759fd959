#include "cg/spmv.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "cg/auto_spmv.hpp"
#include "cg/cusparse_spmv.hpp"
#include "cg/remap_spmv.hpp"
#include "cg/sell_spmv.hpp"
#include "cg/spmv_body.hpp"
#include "mdremap/error.hpp"
#include "mdremap/remap/registry.hpp"

namespace mdremap::cg {

namespace {

// s0 += w . u, s1 += r . u over the rows.
struct CgDots {
  Kokkos::View<const double*> w, u, r;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t, Sums2& acc) const {
    const double ut = u(t);
    acc.s0 += w(t) * ut;
    acc.s1 += r(t) * ut;
  }
};

Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>> rows_of(Kokkos::View<const double*> w) {
  return Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>(0, w.extent(0));
}

}  // namespace

Sums2 cg_dots(Kokkos::View<const double*> w, Kokkos::View<const double*> u,
              Kokkos::View<const double*> r) {
  Sums2 s;
  Kokkos::parallel_reduce("CG::dots", rows_of(w), CgDots{w, u, r}, Kokkos::Sum<Sums2>(s));
  return s;
}

void cg_dots_into(Kokkos::View<const double*> w, Kokkos::View<const double*> u,
                  Kokkos::View<const double*> r, Kokkos::View<Sums2> out) {
  Kokkos::parallel_reduce("CG::dots_device", rows_of(w), CgDots{w, u, r},
                          Kokkos::Sum<Sums2, Kokkos::DefaultExecutionSpace::memory_space>(out));
}

namespace {

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
  // backend generates it, cost several times the SpMV itself.
  Sums2 apply_dots(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                   Kokkos::View<double*> w) override {
    Sums2 s;
    run_lanes_per_row("CG::spmv_lanes", StoreRow{w}, CsrGatherAccess(a_, u), a_.rows, vl_,
                      rows_per_team_, false, s);
    return cg_dots(w, u, r);
  }
  bool runs_unobserved() const override { return true; }

 private:
  DeviceCsr a_;
  int vl_, rows_per_team_;
};

}  // namespace

const std::vector<std::string>& spmv_kernel_names() {
  static const std::vector<std::string> n = {"csr-thread", "csr-warp", "sell", "cusparse", "auto"};
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
  // Compared in double first: a residual that barely falls can need more than int64 holds.
  if (!(need < static_cast<double>(at_most))) return at_most;
  return static_cast<std::int64_t>(std::max(1.0, need));
}

RemainingIterations remaining_iterations(const std::vector<double>& residuals, double tolerance,
                                         std::int64_t at_most) {
  RemainingIterations r;
  r.lower = r.upper = r.central = expected_remaining_iterations(residuals, tolerance, at_most);
  const std::size_t k = residuals.size();
  if (k < kBracketFrom || r.lower <= 0 || r.lower >= at_most) return r;
  const std::size_t from = k / 2;
  const double first = residuals[from - 1], last = residuals[k - 1];
  // r(i) = last (i / k)^-b through (from, first) and (k, last); r(k + m) = tolerance.
  const double b = std::log(first / last) / std::log(static_cast<double>(k) / from);
  if (!(b > 0)) return r;
  const double log_end = std::log(static_cast<double>(k)) + std::log(last / tolerance) / b;
  const double cap = static_cast<double>(k) + static_cast<double>(at_most);
  const double end = log_end >= std::log(cap) ? cap : std::exp(log_end);
  r.upper = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::ceil(end - k - 1e-9)), r.lower,
                                     at_most);
  if (r.upper > r.lower) {
    const double lo = static_cast<double>(r.lower), hi = static_cast<double>(r.upper);
    r.central =
        std::clamp<std::int64_t>(std::llround((hi - lo) / std::log(hi / lo)), r.lower, r.upper);
  }
  return r;
}

DecisionHorizon horizon_after(const std::vector<double>& residuals, std::int64_t it, double rel,
                              double tolerance, std::int64_t max_iterations) {
  const std::int64_t at_most = std::max<std::int64_t>(0, max_iterations - it);
  DecisionHorizon h;
  h.left = expected_remaining_iterations(residuals, tolerance, at_most);
  h.note = fmt::format(
      "decided after {} iterations (relative residual {:.3g}): about {} more to {:.3g} (rate of "
      "the last {} iterations extrapolated; at most {})",
      it, rel, h.left, tolerance, residuals.size() - residuals.size() / 2, at_most);
  return h;
}

int auto_vector_length(const DeviceCsr& a) {
  const double mean = a.rows > 0 ? static_cast<double>(a.nnz) / a.rows : 1.0;
  int v = 2;
  while (v < 32 && 2.0 * v <= mean / 2) v *= 2;
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
  remap::StrategyChoice(mode).check(o);  // constructors check applicability, allocate none
}

std::unique_ptr<CgSpmv> make_spmv(const DeviceCsr& a, const SpmvOptions& o) {
  if (o.kernel == "auto") {
    if (!o.remap.chooses())
      throw Error(
          fmt::format("spmv kernel 'auto' chooses the remap strategy too: remap mode "
                      "must be auto, not '{}'",
                      o.remap.name()));
    return make_auto_spmv(a, o);
  }
  if (o.kernel != "csr-thread" && !o.remap.is_gather())
    throw Error(
        fmt::format("spmv kernel '{}' runs its own gather: remap strategy '{}' needs "
                    "kernel csr-thread",
                    o.kernel, o.remap.name()));
  if (o.kernel == "csr-thread") {
    auto op = std::make_unique<RemapSpmv>(a, o.remap.name(), o.remap_opt, o.decide_after);
    op->set_fused_dots(o.fused_dots);
    return op;
  }
  if (o.kernel == "csr-warp") {
    const int v = o.vector_length == 0 ? auto_vector_length(a) : o.vector_length;
    if (v < 1 || v > 32 || (v & (v - 1)) != 0)
      throw Error(fmt::format("csr-warp: vector length must be a power of two <= 32, got {}", v));
    return std::make_unique<CsrLanesSpmv>(a, v);
  }
  if (o.kernel == "sell")
    return make_sell_spmv(a, o.sell_sigma, o.l2_persist, o.sell_fused_dots, o.sell_diagonals);
  if (o.kernel == "cusparse") {
#ifdef MDREMAP_HAS_CUSPARSE
    return make_cusparse_spmv(a, o.l2_persist);
#else
    throw Error(
        "spmv kernel 'cusparse' needs a CUDA build (the cuSPARSE anchor); this binary "
        "runs on the host");
#endif
  }
  throw Error(fmt::format("unknown spmv kernel '{}' (csr-thread, csr-warp, sell, cusparse or auto)",
                          o.kernel));
}

}  // namespace mdremap::cg

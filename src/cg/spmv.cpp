#include "cg/spmv.hpp"

#include <fmt/format.h>

#include "cg/cusparse_spmv.hpp"
#include "cg/spmv_body.hpp"
#include "mdremap/error.hpp"

namespace mdremap::cg {

namespace {

class CsrThreadSpmv final : public CgSpmv {
 public:
  explicit CsrThreadSpmv(const DeviceCsr& a) : a_(a) {}
  std::string name() const override { return "csr-thread"; }
  void apply(Kokkos::View<const double*> x, Kokkos::View<double*> y) override {
    Sums2 s;
    run_thread_per_row("CG::spmv_thread", SpmvBody<StoreRow>{{y}}, CsrGatherAccess(a_, x), a_.rows,
                       false, s);
  }
  Sums2 apply_dots(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                   Kokkos::View<double*> w) override {
    Sums2 s;
    run_thread_per_row("CG::spmv_thread_dots", SpmvBody<CgRow>{{w, u, r}}, CsrGatherAccess(a_, u),
                       a_.rows, true, s);
    return s;
  }

 private:
  DeviceCsr a_;
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

std::unique_ptr<CgSpmv> make_spmv(const DeviceCsr& a, const SpmvOptions& o) {
  if (o.kernel == "csr-thread") return std::make_unique<CsrThreadSpmv>(a);
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

// cuSPARSE CSR SpMV, set up once (BRIEF section 12's fair anchor: no per-call set-up).
#include "cg/cusparse_spmv.hpp"

#include <cusparse.h>
#include <fmt/format.h>

#include <limits>
#include <mutex>

#include "mdremap/error.hpp"
#include "mdremap/remap/l2_window.hpp"

namespace mdremap::cg {

namespace {

void check(cusparseStatus_t st, const char* what) {
  if (st != CUSPARSE_STATUS_SUCCESS)
    throw Error(fmt::format("cuSPARSE {}: {}", what, cusparseGetErrorString(st)));
}

// Row offsets as int32 (a free function: nvcc allows no device lambda in a constructor).
Kokkos::View<int*> offsets32(Kokkos::View<const std::int64_t*> src) {
  Kokkos::View<int*> dst(Kokkos::view_alloc("cg::cusparse_rowptr32", Kokkos::WithoutInitializing),
                         src.extent(0));
  Kokkos::parallel_for(
      "CG::rowptr32", Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>(0, src.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t i) { dst(i) = static_cast<int>(src(i)); });
  return dst;
}

// One handle for the process, made at its first use and destroyed at Kokkos::finalize: making a
// handle costs a fraction of a millisecond (the library's own state on the device), which a
// solve's `auto` would otherwise pay once more for each candidate it sets up. The warm-up
// (cg/warm_up.hpp) usually makes it on its own thread beside the matrix's set-up. Used by one
// thread at a time (the warm-up is joined before the solve's set-up).
cusparseHandle_t process_handle(double& made_ms) {
  static std::once_flag once;
  static cusparseHandle_t h = nullptr;
  static cusparseStatus_t status = CUSPARSE_STATUS_SUCCESS;
  made_ms = 0;
  std::call_once(once, [&made_ms] {
    Kokkos::Timer t;
    status = cusparseCreate(&h);
    made_ms = 1e3 * t.seconds();
    if (status == CUSPARSE_STATUS_SUCCESS) Kokkos::push_finalize_hook([] { cusparseDestroy(h); });
  });
  check(status, "create");
  return h;
}

class CusparseSpmv final : public CgSpmv {
 public:
  CusparseSpmv(const DeviceCsr& a, bool l2_persist) : a_(a) {
    Kokkos::fence();
    Kokkos::Timer setup;
    // 32-bit row offsets and columns, as CuPy's csr_matrix holds them.
    if (a.nnz > std::numeric_limits<int>::max())
      throw Error("cusparse: the anchor uses 32-bit row offsets (at most 2^31-1 entries)");
    rowptr32_ = offsets32(a.rowptr);
    x0_ = Kokkos::View<double*>("cg::cusparse_x0", a.cols);
    y0_ = Kokkos::View<double*>("cg::cusparse_y0", a.rows);
    Kokkos::fence();
    h_ = process_handle(handle_ms_);
    check(cusparseSetStream(h_, Kokkos::DefaultExecutionSpace().cuda_stream()), "set stream");
    check(cusparseCreateCsr(&mat_, a.rows, a.cols, a.nnz, rowptr32_.data(), a.col.data(),
                            a.val.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                            CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
          "create CSR descriptor");
    check(cusparseCreateDnVec(&vx_, a.cols, x0_.data(), CUDA_R_64F), "create x descriptor");
    check(cusparseCreateDnVec(&vy_, a.rows, y0_.data(), CUDA_R_64F), "create y descriptor");
    std::size_t bytes = 0;
    check(cusparseSpMV_bufferSize(h_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, mat_, vx_, &zero_,
                                  vy_, CUDA_R_64F, kAlg, &bytes),
          "SpMV buffer size");
    buffer_ = Kokkos::View<char*>("cg::cusparse_buffer", bytes > 0 ? bytes : 1);
    check(cusparseSpMV_preprocess(h_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, mat_, vx_, &zero_,
                                  vy_, CUDA_R_64F, kAlg, buffer_.data()),
          "SpMV preprocess");
    Kokkos::fence();
    // Every call sets its own vectors, so the set-up ones can go (the large case's x is 128 MiB).
    x0_ = {};
    y0_ = {};
    if (l2_persist)
      window_ =
          std::make_unique<remap::L2PersistWindow>(a.val.data(), a.val.span() * sizeof(double));
    setup_ms_ = 1e3 * setup.seconds();
  }
  ~CusparseSpmv() override {
    if (vy_) cusparseDestroyDnVec(vy_);
    if (vx_) cusparseDestroyDnVec(vx_);
    if (mat_) cusparseDestroySpMat(mat_);
  }
  CusparseSpmv(const CusparseSpmv&) = delete;
  CusparseSpmv& operator=(const CusparseSpmv&) = delete;

  std::string name() const override { return "cusparse"; }
  std::string describe() const override {
    return fmt::format(
        "cusparse (cusparseSpMV CSR, 32-bit indices, buffer {} bytes, preprocessed; set up in "
        "{:.3f} ms, {}{})",
        buffer_.extent(0), setup_ms_,
        handle_ms_ > 0 ? fmt::format("the process's handle made here in {:.3f} ms", handle_ms_)
                       : std::string("the process's handle made before"),
        window_ ? "; values in " + window_->describe() : std::string());
  }
  void apply(Kokkos::View<const double*> x, Kokkos::View<double*> y) override {
    check(cusparseDnVecSetValues(vx_, const_cast<double*>(x.data())), "set x");
    check(cusparseDnVecSetValues(vy_, y.data()), "set y");
    check(cusparseSpMV(h_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, mat_, vx_, &zero_, vy_,
                       CUDA_R_64F, kAlg, buffer_.data()),
          "SpMV");
  }
  // cuSPARSE's SpMV cannot fuse the dots: they follow as a reduce (the cuSPARSE version of CG).
  remap::Sums2 apply_dots(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                          Kokkos::View<double*> w) override {
    apply(u, w);
    return cg_dots(w, u, r);
  }
  bool runs_unobserved() const override { return true; }

 private:
  static constexpr cusparseSpMVAlg_t kAlg = CUSPARSE_SPMV_ALG_DEFAULT;
  DeviceCsr a_;
  Kokkos::View<int*> rowptr32_;
  Kokkos::View<double*> x0_, y0_;
  Kokkos::View<char*> buffer_;
  cusparseHandle_t h_ = nullptr;
  cusparseSpMatDescr_t mat_ = nullptr;
  cusparseDnVecDescr_t vx_ = nullptr, vy_ = nullptr;
  double one_ = 1.0, zero_ = 0.0;
  double setup_ms_ = 0, handle_ms_ = 0;
  std::unique_ptr<remap::L2PersistWindow> window_;  // destroyed first: before the handle's users
};

}  // namespace

std::unique_ptr<CgSpmv> make_cusparse_spmv(const DeviceCsr& a, bool l2_persist) {
  return std::make_unique<CusparseSpmv>(a, l2_persist);
}

}  // namespace mdremap::cg

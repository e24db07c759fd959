#pragma once
// The SpMV kernels CG can run (BRIEF section 6, `--spmv`): our CSR kernels, thread per row
// (`csr-thread`) and lanes per row (`csr-warp`, a warp or part of one per row), both running the
// SpmvBody compute body; and cuSPARSE's CSR SpMV (`cusparse`, CUDA builds), the anchor.
#include <Kokkos_Core.hpp>
#include <memory>
#include <string>
#include <vector>

#include "cg/device_csr.hpp"
#include "mdremap/remap/device_pattern.hpp"

namespace mdremap::cg {

struct SpmvOptions {
  std::string kernel = "csr-thread";  // csr-thread | csr-warp | cusparse
  int vector_length = 0;  // csr-warp: lanes per row (power of 2, <= 32); 0 = from the mean row
};

class CgSpmv {
 public:
  virtual ~CgSpmv() = default;
  virtual std::string name() const = 0;
  virtual std::string describe() const { return name(); }
  // y = A x.
  virtual void apply(Kokkos::View<const double*> x, Kokkos::View<double*> y) = 0;
  // w = A u and, over all rows, s0 = w . u and s1 = r . u. Blocks until done (the CG
  // iteration's one host synchronisation).
  virtual remap::Sums2 apply_dots(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                                  Kokkos::View<double*> w) = 0;
};

const std::vector<std::string>& spmv_kernel_names();
// Whether this build has the cuSPARSE anchor (CUDA builds).
bool have_cusparse();
// Lanes per row for csr-warp: the smallest power of two >= the mean row length, in [2, 32].
int auto_vector_length(const DeviceCsr& a);

// Throws mdremap::Error for an unknown kernel, a vector length that is not a power of two <= 32,
// or cusparse in a build without CUDA.
std::unique_ptr<CgSpmv> make_spmv(const DeviceCsr& a, const SpmvOptions& o);

}  // namespace mdremap::cg

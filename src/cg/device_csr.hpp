#pragma once
// The CG matrix on the device (BRIEF section 6): CSR as Kokkos Views (row starts int64, columns
// int32, values double) plus the row lengths, which are the irregular pattern's len[t] when the
// SpMV's x[col[rowptr[t] + j]] is handed to the remap layer.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "cg/csr.hpp"

namespace mdremap::cg {

struct DeviceCsr {
  Kokkos::View<std::int64_t*> rowptr;  // rows + 1
  Kokkos::View<int*> col;              // nnz
  Kokkos::View<double*> val;           // nnz
  Kokkos::View<int*> len;              // rows: rowptr[t+1] - rowptr[t]
  std::int64_t rows = 0, cols = 0, nnz = 0;
  int max_len = 0;

  static DeviceCsr upload(const HostCsr& a);
  // Arrays of these sizes, not filled (upload and the device permutation write every entry).
  static DeviceCsr allocate(std::int64_t rows, std::int64_t cols, std::int64_t nnz, int max_len);
  HostCsr download() const;
  // Bytes an SpMV must move at least: the matrix once (rowptr, col, val), x once, y once.
  double min_spmv_bytes() const { return 8.0 * (rows + 1) + 12.0 * nnz + 8.0 * cols + 8.0 * rows; }
};

// The laplace2d generator's matrix (5-point, diagonal 4, off-diagonals -1, x fastest) made on
// the device, with no host work: the warm-up's reorder runs on it (cg/warm_up.cpp).
DeviceCsr laplace2d_on_device(int nx, int ny);

// 1 / A(t,t) per row (Jacobi); rows without a positive diagonal get 1 (the host checks refuse
// such matrices before they get here).
Kokkos::View<double*> inverse_diagonal(const DeviceCsr& a);

}  // namespace mdremap::cg

#pragma once
// A sparse matrix on the host in CSR (BRIEF section 6): row starts int64 (no overflow past 2^31
// entries), column indices int32, values double; columns sorted and unique within each row.
// Host only (no Kokkos), so the Matrix Market reader and the generators link without a device.
#include <cstdint>
#include <string>
#include <vector>

namespace mdremap::cg {

struct HostCsr {
  std::int64_t rows = 0, cols = 0;
  std::vector<std::int64_t> rowptr{0};  // rows + 1
  std::vector<std::int32_t> col;        // nnz
  std::vector<double> val;              // nnz

  std::int64_t nnz() const { return rowptr.empty() ? 0 : rowptr.back(); }
  std::int64_t row_len(std::int64_t r) const { return rowptr[r + 1] - rowptr[r]; }
  std::int64_t max_row_len() const;
  // Value of entry (r, c), 0 where absent (binary search in the sorted row).
  double at(std::int64_t r, std::int32_t c) const;
};

// Triplets to CSR: entries sorted by column within each row, duplicates summed (Matrix Market
// semantics). Indices are 0-based and must already be in range.
HostCsr coo_to_csr(std::int64_t rows, std::int64_t cols, const std::vector<std::int32_t>& row,
                   const std::vector<std::int32_t>& col, const std::vector<double>& val);

// A structural or numerical asymmetry: entry (row, col) = value while (col, row) = mirror.
struct Asymmetry {
  bool found = false;
  std::int64_t row = 0, col = 0, index = 0;  // index: position of (row, col) in a.col / a.val
  double value = 0, mirror = 0;
};
// First entry whose mirror differs by more than rel_tol relative to the larger magnitude.
Asymmetry find_asymmetry(const HostCsr& a, double rel_tol = 0.0);

// y = A x, serially, in row order (the reference the device kernels are checked against).
void spmv_reference(const HostCsr& a, const std::vector<double>& x, std::vector<double>& y);

// A random permutation of 0..n-1 (new_of_old), a pure function of (n, seed): Fisher-Yates driven
// by a counter-based mixer, the same on every platform and compiler.
std::vector<std::int32_t> random_permutation(std::int64_t n, std::uint64_t seed);
std::vector<std::int32_t> invert_permutation(const std::vector<std::int32_t>& p);

// P A P^T for new_of_old = P: row and column i of A become row and column p[i].
HostCsr permute_symmetric(const HostCsr& a, const std::vector<std::int32_t>& new_of_old);

// A counter-based 64-bit mixer (SplitMix64 finaliser) and a uniform double in [0, 1).
std::uint64_t mix(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0);
double unit(std::uint64_t bits);

}  // namespace mdremap::cg

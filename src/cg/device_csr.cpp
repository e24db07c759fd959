#include "cg/device_csr.hpp"

#include <limits>

#include "mdremap/error.hpp"

namespace mdremap::cg {

DeviceCsr DeviceCsr::allocate(std::int64_t rows, std::int64_t cols, std::int64_t nnz, int max_len) {
  DeviceCsr d;
  d.rows = rows;
  d.cols = cols;
  d.nnz = nnz;
  d.max_len = max_len;
  d.rowptr = Kokkos::View<std::int64_t*>(
      Kokkos::view_alloc("cg::rowptr", Kokkos::WithoutInitializing), rows + 1);
  d.col = Kokkos::View<int*>(Kokkos::view_alloc("cg::col", Kokkos::WithoutInitializing), nnz);
  d.val = Kokkos::View<double*>(Kokkos::view_alloc("cg::val", Kokkos::WithoutInitializing), nnz);
  d.len = Kokkos::View<int*>(Kokkos::view_alloc("cg::len", Kokkos::WithoutInitializing), rows);
  return d;
}

DeviceCsr DeviceCsr::upload(const HostCsr& a) {
  if (a.max_row_len() > std::numeric_limits<int>::max())
    throw Error("cg: a row has more than 2^31 entries");
  DeviceCsr d = allocate(a.rows, a.cols, a.nnz(), static_cast<int>(a.max_row_len()));
  Kokkos::deep_copy(d.rowptr, Kokkos::View<const std::int64_t*, Kokkos::HostSpace>(
                                  a.rowptr.data(), a.rowptr.size()));
  Kokkos::deep_copy(d.col, Kokkos::View<const int*, Kokkos::HostSpace>(a.col.data(), a.col.size()));
  Kokkos::deep_copy(d.val,
                    Kokkos::View<const double*, Kokkos::HostSpace>(a.val.data(), a.val.size()));
  auto rp = d.rowptr;
  auto len = d.len;
  Kokkos::parallel_for(
      "CG::row_lengths", Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>(0, a.rows),
      KOKKOS_LAMBDA(const std::int64_t t) { len(t) = static_cast<int>(rp(t + 1) - rp(t)); });
  return d;
}

HostCsr DeviceCsr::download() const {
  HostCsr h;
  h.rows = rows;
  h.cols = cols;
  h.rowptr.resize(rows + 1);
  h.col.resize(nnz);
  h.val.resize(nnz);
  Kokkos::deep_copy(Kokkos::View<std::int64_t*, Kokkos::HostSpace>(h.rowptr.data(), rows + 1),
                    rowptr);
  Kokkos::deep_copy(Kokkos::View<int*, Kokkos::HostSpace>(h.col.data(), nnz), col);
  Kokkos::deep_copy(Kokkos::View<double*, Kokkos::HostSpace>(h.val.data(), nnz), val);
  return h;
}

namespace {

// Neighbour j of point p of an nx x ny grid (south, west, p, east, north), -1 past the boundary.
struct GridNeighbour {
  std::int64_t nx, ny;
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(const std::int64_t p, const int j) const {
    const std::int64_t x = p % nx, y = p / nx;
    switch (j) {
      case 0:
        return y > 0 ? p - nx : -1;
      case 1:
        return x > 0 ? p - 1 : -1;
      case 2:
        return p;
      case 3:
        return x + 1 < nx ? p + 1 : -1;
      default:
        return y + 1 < ny ? p + nx : -1;
    }
  }
};

}  // namespace

// Every array is written whole (rowptr and len by the scan, col and val by the fill).
DeviceCsr laplace2d_on_device(int nx, int ny) {
  using Policy = Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>;
  DeviceCsr d;
  const std::int64_t n = static_cast<std::int64_t>(nx) * ny;
  d.rows = d.cols = n;
  d.max_len = 5;
  d.rowptr = Kokkos::View<std::int64_t*>(
      Kokkos::view_alloc("cg::warm_rowptr", Kokkos::WithoutInitializing), n + 1);
  d.len = Kokkos::View<int*>(Kokkos::view_alloc("cg::warm_len", Kokkos::WithoutInitializing), n);
  const auto rp = d.rowptr;
  const auto len = d.len;
  const GridNeighbour at{nx, ny};
  Kokkos::parallel_scan(
      "CG::warm_grid_rows", Policy(0, n + 1),
      KOKKOS_LAMBDA(const std::int64_t p, std::int64_t& pos, const bool final) {
        if (final) rp(p) = pos;
        if (p == n) return;
        int k = 0;
        for (int j = 0; j < 5; ++j) k += at(p, j) >= 0;
        if (final) len(p) = k;
        pos += k;
      },
      d.nnz);
  d.col =
      Kokkos::View<int*>(Kokkos::view_alloc("cg::warm_col", Kokkos::WithoutInitializing), d.nnz);
  d.val =
      Kokkos::View<double*>(Kokkos::view_alloc("cg::warm_val", Kokkos::WithoutInitializing), d.nnz);
  const auto col = d.col;
  const auto val = d.val;
  Kokkos::parallel_for(
      "CG::warm_grid_fill", Policy(0, n), KOKKOS_LAMBDA(const std::int64_t p) {
        std::int64_t k = rp(p);
        for (int j = 0; j < 5; ++j) {
          const std::int64_t q = at(p, j);
          if (q < 0) continue;
          col(k) = static_cast<int>(q);
          val(k) = q == p ? 4.0 : -1.0;
          ++k;
        }
      });
  return d;
}

Kokkos::View<double*> inverse_diagonal(const DeviceCsr& a) {
  Kokkos::View<double*> dinv(Kokkos::view_alloc("cg::dinv", Kokkos::WithoutInitializing), a.rows);
  auto rp = a.rowptr;
  auto col = a.col;
  auto val = a.val;
  Kokkos::parallel_for(
      "CG::inverse_diagonal", Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>(0, a.rows),
      KOKKOS_LAMBDA(const std::int64_t t) {
        double d = 0;
        for (std::int64_t k = rp(t); k < rp(t + 1); ++k)
          if (col(k) == t) d = val(k);
        dinv(t) = d > 0 ? 1.0 / d : 1.0;
      });
  return dinv;
}

}  // namespace mdremap::cg

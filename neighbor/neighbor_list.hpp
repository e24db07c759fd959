#pragma once
// Verlet neighbour lists built on the device from a cell binning (BRIEF section 4).
// Storage is column-major, neighbors[j*n + i] for j < counts[i]: the layout the remap papers
// optimise (thread i's j-th reference is row j). Overflow grows the list, never drops pairs.
// The layer's units: ghosts.hpp (periodic images), cells.hpp (binning), stencil.hpp,
// list_build.hpp (the kernels and their registry), verlet_builder.hpp (the driver),
// spatial_order.hpp (atom orders), periodic.hpp (wrap, displacement), options.hpp (deck enums).
#include <cstdint>

#include "neighbor/ghosts.hpp"
#include "neighbor/spaces.hpp"

namespace mdremap::neighbor {

template <class Space>
struct BasicNeighborList {
  std::int64_t n = 0;  // local atoms (threads); entries index local + ghost atoms
  int maxneigh = 0;    // row count: capacity per atom
  int max_count = 0;   // longest list of the last build
  bool half = false;   // half: each pair once (j > i); full: both directions
  // Entry j of atom i is neighbors[j * stride_j + i * stride_i]. Column-major (stride_j = n
  // rounded up to a multiple of 32, so each row starts on a 128-byte line; stride_i = 1) is the
  // layout the papers optimise: a warp's threads read row j together.
  // Row-major (stride_j = 1, stride_i = maxneigh) suits a CPU thread that walks one atom's list.
  bool column_major = true;
  std::int64_t stride_j = 0, stride_i = 1;
  Kokkos::View<int*, Space> neighbors;  // maxneigh * stride_j (column-major) or n * maxneigh
  KOKKOS_INLINE_FUNCTION std::int64_t slot(int j, std::int64_t i) const {
    return j * stride_j + i * stride_i;
  }
  Kokkos::View<int*, Space> counts;  // n
  // CSR copy (built on request): row_ptr[n+1], col[row_ptr[i] .. row_ptr[i+1])
  Kokkos::View<std::int64_t*, Space> row_ptr;
  Kokkos::View<int*, Space> col;
  void build_csr();  // csr.cpp
  double mean_count() const;
};
using NeighborList = BasicNeighborList<ExecSpace>;

}  // namespace mdremap::neighbor

#pragma once
// The CG matrix reordered on the device (remap.reorder: labelprop): the rows' order from the
// remap layer's multilevel label propagation over the matrix's pattern (remap/graph_order.hpp;
// seed 001 §3.4), applied as P A P^T with the vectors following, so a permuted mesh matrix gets
// its locality back without the host touching it.
#include <Kokkos_Core.hpp>
#include <string>

#include "cg/device_csr.hpp"
#include "mdremap/remap/graph_order.hpp"

namespace mdremap::cg {

// The order (new -> old) of `a`'s rows: rows adjacent where A(i, j) != 0 (A symmetric: rows i
// and j then share x entries i and j), clusters of about `cluster_rows` at every level.
remap::GraphOrder labelprop_order(const DeviceCsr& a, int cluster_rows);

// P A P^T for a new -> old order (rows and columns together: CG's vectors live in both spaces);
// the columns of each row sorted, as the host CSR keeps them.
DeviceCsr permute_symmetric(const DeviceCsr& a, Kokkos::View<const int*> order);

// out[i] = v[order[i]]; an empty v gives an empty vector.
Kokkos::View<double*> permute_vector(Kokkos::View<const double*> v, Kokkos::View<const int*> order);
// The same into `out` (v's length), and back: out[order[i]] = v[i].
void permute_vector_into(Kokkos::View<const double*> v, Kokkos::View<const int*> order,
                         Kokkos::View<double*> out);
void unpermute_vector_into(Kokkos::View<const double*> v, Kokkos::View<const int*> order,
                           Kokkos::View<double*> out);

// A pseudo-random order of 2^bits rows (bits even, 2..30) made on the device without host work
// or a sort: a four-round Feistel network over the index's two halves, a bijection whatever its
// round function (a multiply-xorshift hash of the other half and the round). The warm-up
// scatters a grid with it (cg/warm_up.cpp).
Kokkos::View<int*> pseudo_random_order(int bits);

// The fraction of the entries lying more than `reach` columns from their row: near 0 for a mesh
// in its own numbering (a 3D grid's farthest neighbour is a plane away), near 1 after a random
// symmetric permutation. remap.reorder auto runs labelprop where it exceeds kScatteredFraction
// at kScatteredReach (the 16-bit reach of sell's column offsets, 256 KB of x).
double scattered_fraction(const DeviceCsr& a, std::int64_t reach);
inline constexpr std::int64_t kScatteredReach = 32767;
inline constexpr double kScatteredFraction = 0.5;

// One line for the run's output: levels, their sizes and rounds.
std::string describe(const remap::GraphOrder& g);

}  // namespace mdremap::cg

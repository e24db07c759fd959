#pragma once
// Cluster-pair neighbour lists (neighbor.list: cluster), the scheme of GROMACS' NBNXM module
// (Páll & Hess 2013, "A flexible algorithm for calculating pair interactions on SIMD
// architectures", CPC 184:2641): atoms are grouped into clusters of M spatially close atoms and
// the list holds, per i-cluster, the j-clusters whose bounding boxes come within the list cutoff,
// each with an M x M interaction mask. One index (and a mask) then stands for up to M x M atom
// pairs, and a j-cluster's M positions are one contiguous load that the i-cluster's M lanes share:
// seed 001 §3.4's sharing (a block's working set loaded once, coalesced, reused) at the
// granularity of a warp or a SIMD register.
//
// The units: cluster_grid.hpp (atoms into padded clusters, bounding boxes, the per-step copy of
// positions in cluster order), cluster_builder.hpp (the pair search and its driver).
#include <cstdint>

#include "neighbor/spaces.hpp"

namespace mdremap::neighbor {

// The cluster sizes a list supports: powers of two whose M x M mask rows fit 32-bit words.
KOKKOS_INLINE_FUNCTION constexpr bool valid_cluster_size(int m) {
  return m == 4 || m == 8 || m == 16;
}
// 32-bit mask words per cluster pair: bit ii * M + jj (i atom ii, j atom jj) of the pair's mask
// is in word (ii * M + jj) / 32.
KOKKOS_INLINE_FUNCTION constexpr int cluster_mask_words(int m) {
  return (m * m + 31) / 32;
}

// The default cluster size: 8 on a GPU (GROMACS' GPU clusters; a warp holds 4 of them), the SIMD
// width in T on a CPU (8 doubles or 16 floats with AVX-512, else 4). Defined once, in
// cluster_builder.cpp, so every translation unit (CUDA ones included) agrees.
template <class T, class Space>
int default_cluster_size();

// Where entry k of i atom slot s of a packed list lies (`slots` i atom slots in all): in groups of
// four per slot (one 16-byte load), group g of every slot before group g + 1, so the threads of a
// warp, a slot each, read and write neighbouring groups.
KOKKOS_INLINE_FUNCTION constexpr std::int64_t packed_entry_index(const std::int64_t s, const int k,
                                                                 const std::int64_t slots) {
  return (std::int64_t(k / 4) * slots + s) * 4 + (k & 3);
}

template <class Space>
struct BasicClusterList {
  int m = 8;            // atoms per cluster (valid_cluster_size)
  int words = 2;        // cluster_mask_words(m)
  std::int64_t n = 0;   // local atoms
  int n_iclusters = 0;  // clusters of local atoms: the i-clusters, numbered first
  int n_clusters = 0;   // all clusters: the local ones, then the ghosts'
  // Slot s = c * m + k (atom k of cluster c) holds an index into the force kernel's positions
  // (local atoms, then ghosts), or -1: a padding slot (a column's count is not a multiple of m).
  Kokkos::View<int*, Space> atom;
  // Row ic (an i-cluster) is entries [ic * max_pairs, ic * max_pairs + count(ic)): the j-cluster
  // cj and its mask, words at mask((ic * max_pairs + k) * words + w). A mask bit is set for an
  // atom pair within the list cutoff at the build, the atom with itself and padding excluded:
  // the force kernel evaluates exactly those pairs, the plain full list's pairs.
  int max_pairs = 0;  // row capacity
  int max_count = 0;  // longest row of the last build
  Kokkos::View<int*, Space> count;
  Kokkos::View<int*, Space> cj;
  Kokkos::View<std::uint32_t*, Space> mask;
  // The GPU's per-atom form of the same rows (CUDA builds; clusters of at most 8 atoms and fewer
  // than 2^24 clusters, else `packed` is false): i atom slot s's non-empty mask rows, in row
  // order, each packed as (j-cluster << 8 | the row's M bits) at
  // entry(packed_entry_index(s, k, n_iclusters * m)), k < entries(s). The force kernel walks
  // these: one 32-bit word per j-cluster an atom has pairs with, four read at once, no empty rows
  // (cluster_cuda.hpp). max_pairs is a multiple of 4.
  bool packed = false;
  Kokkos::View<std::uint32_t*, Space> entry;
  Kokkos::View<int*, Space> entries;
  // What the last build found (host): cluster pairs, and the atom pairs their masks select (-1
  // until count_cluster_atom_pairs, cluster_builder.hpp, counts them).
  std::int64_t cluster_pairs = 0;
  std::int64_t atom_pairs = -1;
  std::int64_t atom_rows = -1;  // non-empty mask rows: the packed entries (counted with the pairs)
  std::int64_t padding = 0;     // padding slots of the i-clusters
};
using ClusterList = BasicClusterList<ExecSpace>;

}  // namespace mdremap::neighbor

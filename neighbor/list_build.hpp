#pragma once
// What a list-build kernel gets and the registry that picks one. A kernel fills counts and the
// neighbour rows of the local atoms from the cell binning; the driver (verlet_builder.cpp) bins,
// grows the rows until every pair fits and never looks inside a kernel.
#include <cstdint>
#include <string>

#include "neighbor/spaces.hpp"
#include "neighbor/stencil.hpp"

namespace mdremap::neighbor {

// The build kernels. On the GPU, CellCandidates (default): a warp per cell whose lanes take
// candidates; CellAtoms: a warp per cell whose lanes take the cell's atoms (the earlier kernel,
// kept to cross-check the new one and for stencils of more than 32 rows). On the host, Avx512
// where compiled in (MDREMAP_HOST_AVX512), else Portable (a Kokkos thread per atom).
enum class BuildKernel { Auto, Portable, HostAvx512, CellCandidates, CellAtoms };
std::string to_string(BuildKernel k);

// Plain arguments of one build: views of the binning and the list, the stencil, the strides.
template <class T, class Space>
struct ListBuildArgs {
  using ReadOnly = Kokkos::MemoryTraits<Kokkos::RandomAccess>;  // LDG.NC on CUDA
  std::int64_t n = 0;                                           // local atoms (the lists' rows)
  std::int64_t ntotal = 0;                                      // local atoms and ghosts
  int nbin[3] = {1, 1, 1}, ext[3] = {0, 0, 0}, ncells = 0;
  Kokkos::View<const int*, Space, ReadOnly> offset, perm;  // cell starts; atoms in cell order
  Kokkos::View<const int*, Space> bin_of, bin_count, owner;
  Kokkos::View<const Vec4<T>*, Space, ReadOnly> xs;  // positions in cell order
  Kokkos::View<const T*, Space> xsoa;                // or as x, y, z blocks (soa_positions)
  Stencil stencil;
  T rsq = 0;  // list cutoff squared
  // Output: entry j of atom i at nbrs[j * sj + i * si], never past maxneigh; counts[i] the
  // atom's full count (the driver regrows when one exceeds maxneigh).
  Kokkos::View<int*, Space> counts, nbrs;
  int maxneigh = 0;
  std::int64_t sj = 0, si = 1;
  // What the driver reads back, in one copy after the kernel (3 ints on the device, zero on
  // entry): [0] the most candidates of a cell the kernel saw (0 where it does not count them),
  // [1] the largest full count of a row (every kernel fills it: report_max_count), [2] nonzero
  // where `candidates` was too few for a cell, whose rows were then not written (the driver builds
  // again with candidates = [0]).
  Kokkos::View<int*, Space> stats;
  int candidates = 0;  // the most candidates of a cell at the last build (0: not known yet)
};

// stats[1] = the largest of counts, without a wait (a reduction into device memory).
template <class T, class Space>
void report_max_count(const ListBuildArgs<T, Space>& a) {
  const auto counts = a.counts;
  Kokkos::parallel_reduce(
      "Neighbor::max_count", Kokkos::RangePolicy<Space>(0, a.n),
      KOKKOS_LAMBDA(const std::int64_t i, int& mc) {
        if (counts(i) > mc) mc = counts(i);
      },
      Kokkos::Max<int, Space>(Kokkos::View<int, Space>(a.stats.data() + 1)));
}

// One registered kernel instantiation: backend x {full, half} x {column, row}.
template <class T, class Space>
struct ListKernel {
  BuildKernel kind = BuildKernel::Auto;
  bool half = false, column_major = true;
  bool soa_positions = false;  // reads ListBuildArgs::xsoa instead of xs
  // Builds the lists; returns the kernel that did (CellCandidates hands a build it cannot take,
  // too many stencil rows or candidates for shared memory, to CellAtoms, and says so).
  BuildKernel (*run)(const ListBuildArgs<T, Space>&) = nullptr;
};

// The kernel for Space, list kind and layout: `want` by name, or Auto: the first registered for
// the backend (GPU: CellCandidates; host: HostAvx512, else Portable). Error if none is compiled.
template <class T, class Space>
ListKernel<T, Space> pick_list_kernel(BuildKernel want, bool half, bool column_major);

}  // namespace mdremap::neighbor

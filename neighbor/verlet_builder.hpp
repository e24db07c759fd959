#pragma once
// The Verlet list builder: bins local atoms and ghosts, then runs the build kernel it picked at
// setup (list_build.hpp) until every pair fits.
#include "neighbor/cells.hpp"
#include "neighbor/list_build.hpp"
#include "neighbor/neighbor_list.hpp"

namespace mdremap::neighbor {

template <class T, class Space = ExecSpace>
class VerletListBuilder {
 public:
  // bin_size: cell edge, between a third of the list cutoff and the list cutoff. kernel: the
  // build kernel by name (Auto: the backend's default; an Error if it is not compiled in).
  VerletListBuilder(double list_cutoff, bool half, bool column_major = true, double bin_size = 0,
                    BuildKernel kernel = BuildKernel::Auto);
  // xall holds nlocal wrapped atoms then their ghosts (g). Lists cover the local atoms; a half
  // list holds each physical pair once (half stencil; see CellBinning::bin for why images are
  // exact). Grows `list` until every pair fits.
  void build(nondeduced_t<Kokkos::View<const Vec4<T>*, Space>> xall,
             const BasicGhostAtoms<Space>& g, const Box<T>& box, BasicNeighborList<Space>& list);
  const CellBinning<T, Space>& binning() const { return bins_; }
  double list_cutoff() const { return rlist_; }
  double bin_size() const { return bin_size_; }
  int regrows() const { return regrows_; }
  // Builds done again because a cell had more candidates than the last build's count and its
  // margin (the GPU kernel's shared memory).
  int candidate_rebuilds() const { return candidate_rebuilds_; }
  BuildKernel kernel() const { return kernel_.kind; }
  // The kernel the last build ran (CellAtoms where CellCandidates does not apply).
  BuildKernel last_kernel() const { return last_kernel_; }

 private:
  double rlist_;
  bool half_;
  bool column_major_;
  double bin_size_;
  ListKernel<T, Space> kernel_;
  CellBinning<T, Space> bins_;
  int regrows_ = 0;
  int candidate_rebuilds_ = 0;
  int candidates_ = 0;               // the most candidates of a cell at the last build
  Kokkos::View<int*, Space> stats_;  // ListBuildArgs::stats
  BuildKernel last_kernel_ = BuildKernel::Auto;
  Kokkos::View<int*, Space> neighbor_store_, count_store_;  // the lists' kept storage
  static Kokkos::View<int*, Space> grown(Kokkos::View<int*, Space>& store,
                                         Kokkos::View<int*, Space>& held, const char* label,
                                         std::int64_t need);
};

}  // namespace mdremap::neighbor

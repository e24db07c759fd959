#pragma once
// The cluster-pair list builder (cluster_list.hpp): clusters the atoms (cluster_grid.hpp), then
// for each i-cluster visits the columns within the list cutoff, culls their clusters by bounding
// box (GROMACS' NBNXM search, Páll & Hess 2013 §3) and keeps those whose mask (the atom pairs
// within the cutoff) is not empty. Rows grow until every pair fits, as the plain list's do.
#include "neighbor/cluster_grid.hpp"

namespace mdremap::neighbor {

template <class T, class Space = ExecSpace>
class ClusterListBuilder {
 public:
  // cluster_size: valid_cluster_size(), or 0 for default_cluster_size<T, Space>().
  ClusterListBuilder(double list_cutoff, int cluster_size = 0);
  // xall holds nlocal wrapped atoms then their ghosts (g), as VerletListBuilder::build takes them.
  void build(nondeduced_t<Kokkos::View<const Vec4<T>*, Space>> xall,
             const BasicGhostAtoms<Space>& g, const Box<T>& box, BasicClusterList<Space>& list);
  const ClusterGrid<T, Space>& grid() const { return grid_; }
  double list_cutoff() const { return rlist_; }
  int cluster_size() const { return m_; }
  int regrows() const { return regrows_; }

 private:
  double rlist_;
  int m_;
  ClusterGrid<T, Space> grid_;
  int regrows_ = 0;
};

// The atom pairs the list's masks select (one pass over the masks; also stored in atom_pairs).
template <class Space>
std::int64_t count_cluster_atom_pairs(BasicClusterList<Space>& list);

}  // namespace mdremap::neighbor

#pragma once
// compute.rdf on the device: at each sample, the atom pairs closer than r_max histogrammed into
// `bins` shells, the counts summed over the samples (LAMMPS' compute rdf, averaged over the run
// as fix ave/time would). The pairs come from a half list of their own, built at the sample at
// cutoff r_max over the positions of that step (LAMMPS' occasional list): exact at any r_max up
// to half the box, whatever the force list's cutoff, skin and age. The force list, and every step
// that takes no sample, stay as they are.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <memory>

#include "md/compute/rdf_table.hpp"
#include "mdremap/types.hpp"
#include "neighbor/neighbor_list.hpp"
#include "neighbor/verlet_builder.hpp"

namespace mdremap::md {

class RdfCompute {
 public:
  RdfCompute(int bins, double r_max);
  // Forgets the samples (a run's start: after set-up, and again after a minimisation).
  void reset();
  // One sample from the local positions x[0, n) (wrapped or not) in the periodic box. Throws
  // mdremap::Error when the box has shrunk below twice r_max (a barostat).
  template <class S>
  void sample(Kokkos::View<const Vec4<S>*> x, std::int64_t n, const Box<double>& box);
  // The average over the samples so far, normalised (one copy of the bins to the host).
  RdfTable average(std::int64_t natoms) const;
  std::int64_t samples() const { return samples_; }
  int bins() const { return bins_; }
  double r_max() const { return r_max_; }

  // The sample's kernels (public: a CUDA extended lambda's enclosing function must be).
  template <class S>
  void load_positions(Kokkos::View<const Vec4<S>*> x, std::int64_t n);
  void count_pairs(double volume);

 private:
  int bins_;
  double r_max_;
  std::int64_t samples_ = 0;
  double volume_sum_ = 0;
  neighbor::VerletListBuilder<double> builder_;
  neighbor::GhostAtoms ghosts_;
  neighbor::NeighborList list_;
  Kokkos::View<Vec4<double>*> local_, all_;  // wrapped positions; then with their images
  Kokkos::View<double*> counts_;             // this sample's pairs per bin
  Kokkos::View<double*> weighted_;           // sum over samples of 2 counts x volume
};

}  // namespace mdremap::md

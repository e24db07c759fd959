#pragma once
// compute.msd on the device (LAMMPS' compute msd, without its com option): the mean over the
// atoms of |x_u(t) - x_u(0)|^2, x_u = x + image * L the unwrapped position, per axis and in all.
// The reference x_u(0) is taken at the run's start (after set-up, again after a minimisation;
// a run continued from a checkpoint measures from the checkpoint's positions). With a box that
// changes (npt, c-rescale) the positions are unwrapped with the box of the step they are taken
// at, and the reference keeps the unwrapped positions of the start: LAMMPS' convention.
#include <Kokkos_Core.hpp>
#include <array>
#include <cstdint>

#include "mdremap/atoms.hpp"
#include "mdremap/types.hpp"

namespace mdremap::md {

template <class S>
class MsdCompute {
 public:
  // The unwrapped positions of atoms a (image counts by atom id, `natoms` ids) become the
  // reference, stored by atom id.
  void reset(const AtomArrays<S>& a, Kokkos::View<const int* [3]> image, const Box<double>& box,
             std::int64_t natoms);
  // The mean squared displacement along x, y, z and in all, over the `natoms` atoms.
  std::array<double, 4> sample(const AtomArrays<S>& a, Kokkos::View<const int* [3]> image,
                               const Box<double>& box, std::int64_t natoms) const;

 private:
  Kokkos::View<double* [3]> reference_;  // by atom id
};

}  // namespace mdremap::md

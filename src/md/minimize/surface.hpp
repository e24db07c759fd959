#pragma once
// What a minimiser moves on: the engine's atoms and their potential energy surface. The
// minimisers (fire.hpp, cg.hpp) change positions and ask for the energy and forces there; the
// engine keeps its neighbour lists valid (a rebuild when an atom has moved more than skin/2, as
// LAMMPS' `neigh_modify every 1 delay 0 check yes` during minimisation) and never reorders the
// atoms while a minimiser holds per-atom vectors.
#include <cstdint>
#include <string>

#include "mdremap/atoms.hpp"
#include "mdremap/types.hpp"

namespace mdremap::md {

// Why a minimisation stopped (LAMMPS' stopping criteria, in its words).
enum class MinimizeStop {
  MaxIterations,
  MaxEvaluations,
  EnergyTolerance,
  ForceTolerance,
  NotDownhill,     // CG: the search direction is not downhill
  ZeroAlpha,       // CG: the line search backtracked to a zero step
  ZeroForce,       // every force component is zero
  ZeroQuadratic,   // CG: the quadratic line search's factors vanished
  UphillTooOften,  // FIRE: uphill at too many iterations in a row
};
std::string to_string(MinimizeStop s);

// Progress during a minimisation (per-atom energy, the force vector's 2-norm).
struct MinimizeObserver {
  virtual ~MinimizeObserver() = default;
  virtual void iteration(std::int64_t /*iter*/, double /*energy*/, double /*fnorm*/) {}
};

struct MinimizeResult {
  MinimizeStop stop = MinimizeStop::MaxIterations;
  std::int64_t iterations = 0;
  std::int64_t evaluations = 0;
  // Energies per atom; the force vector's 2-norm and its largest component.
  double e_initial = 0, e_next_to_last = 0, e_final = 0;
  double fnorm_initial = 0, fnorm_final = 0;
  double fmax_initial = 0, fmax_final = 0;
  double alpha_final = 0;  // CG: the last line search's step (0 for FIRE)
  double seconds = 0;      // the iterations' time, device work fenced
};

template <class S>
class EnergySurface {
 public:
  virtual ~EnergySurface() = default;
  virtual AtomArrays<S>& atoms() = 0;
  virtual const TypeTable<S>& masses() const = 0;
  virtual std::int64_t natoms() const = 0;
  // The total potential energy at the current positions, with the forces into atoms().f.
  virtual double energy_forces() = 0;
  // Whether the last energy_forces() rebuilt the lists, wrapping positions into the box (a
  // minimiser holding positions of its own moves them by the same box lengths).
  virtual bool wrapped() const = 0;
  virtual Box<double> box() const = 0;
};

}  // namespace mdremap::md

#pragma once
// What the deck's `minimize:` section asks for (no Kokkos): the minimiser, its stopping rules and
// its parameters. The defaults are LAMMPS' (`min_style`, `min_modify`), so a deck and a LAMMPS
// input with the same numbers take the same path to the same minimum.
#include <cstdint>
#include <string>

namespace mdremap::io {
class DeckSection;
}

namespace mdremap::md {

enum class MinimizeStyle { Fire, Cg };

struct MinimizeSettings {
  bool enabled = false;  // the deck has a `minimize:` section (or `mdremap minimize`)
  MinimizeStyle style = MinimizeStyle::Fire;
  // Stopping rules (LAMMPS `minimize etol ftol maxiter maxeval`): the relative change of the
  // energy per atom over an iteration, |dE| < etol (|E| + |E_prev| + 1e-8) / 2; the force
  // vector's 2-norm (over all 3N components) below ftol; the iteration and evaluation limits.
  double etol = 1e-8;
  double ftol = 1e-6;
  std::int64_t max_iterations = 10000;
  std::int64_t max_evaluations = 100000;
  double dmax = 0.1;  // the largest move of any coordinate in one iteration (sigma)
  // FIRE 2.0 (Guenole et al., Comput. Mater. Sci. 175 (2020) 109584, Algorithm 2), LAMMPS'
  // defaults: the time step starts at integrator.dt and stays within [tmin, tmax] * dt.
  int delay = 20;              // N_delay: steps after an uphill move before dt may grow
  double dt_grow = 1.1;        // f_inc
  double dt_shrink = 0.5;      // f_dec
  double alpha0 = 0.25;        // alpha_start
  double alpha_shrink = 0.99;  // f_alpha
  double tmax = 10.0;
  double tmin = 0.02;
  bool half_step_back = true;  // an uphill move first takes back half a step (Sec. 3.2)
  int thermo = 0;              // a progress line every this many iterations (0: the start only)
};

std::string to_string(MinimizeStyle s);

// Reads the `minimize:` section (call only where the deck has one).
MinimizeSettings read_minimize(io::DeckSection& s);

}  // namespace mdremap::md

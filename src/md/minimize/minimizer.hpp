#pragma once
// Energy minimisation of an engine's atoms at fixed box (BRIEF section 2: a user's own system
// is minimised before its dynamics). `minimize` runs the deck's minimiser on the surface the
// engine gives (surface.hpp): FIRE 2.0 (fire.cpp) or Polak-Ribiere conjugate gradients with a
// quadratic line search (cg.cpp), both as LAMMPS' `min_style fire` and `min_style cg`.
#include "md/minimize/settings.hpp"
#include "md/minimize/surface.hpp"

namespace mdremap::md {

// `dt` is the FIRE time step's start (integrator.dt, as LAMMPS' timestep).
template <class S>
MinimizeResult minimize(EnergySurface<S>& surface, const MinimizeSettings& settings, double dt,
                        MinimizeObserver* obs);

template <class S>
MinimizeResult minimize_fire(EnergySurface<S>& surface, const MinimizeSettings& settings, double dt,
                             MinimizeObserver* obs);
template <class S>
MinimizeResult minimize_cg(EnergySurface<S>& surface, const MinimizeSettings& settings,
                           MinimizeObserver* obs);

}  // namespace mdremap::md

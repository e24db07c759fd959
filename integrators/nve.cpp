// NVE velocity Verlet.
#include "integrators/nve.hpp"

#include "integrators/velocity_verlet.hpp"

namespace mdremap::integrators {

template <class S>
void Nve<S>::initial_integrate(AtomArrays<S>& a, std::int64_t) {
  half_kick(a, mass_, dt_);
  drift(a, dt_);
}

template <class S>
void Nve<S>::final_integrate(AtomArrays<S>& a, std::int64_t) {
  half_kick(a, mass_, dt_);
}

template class Nve<float>;
template class Nve<double>;

}  // namespace mdremap::integrators

// NVE velocity Verlet.
#include "integrators/nve.hpp"

#include "integrators/velocity_verlet.hpp"

namespace mdremap::integrators {

template <class S>
void Nve<S>::initial_integrate(AtomArrays<S>& a, std::int64_t) {
  kick_drift(a, mass_, dt_, 1);
}

template <class S>
void Nve<S>::final_and_initial(AtomArrays<S>& a, std::int64_t) {
  kick_drift(a, mass_, dt_, 2);
}

template <class S>
void Nve<S>::final_integrate(AtomArrays<S>& a, std::int64_t) {
  half_kick(a, mass_, dt_);
}

template class Nve<float>;
template class Nve<double>;

}  // namespace mdremap::integrators

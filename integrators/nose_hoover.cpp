#include "integrators/nose_hoover.hpp"

#include <fmt/format.h>

#include <cmath>

#include "integrators/velocity_verlet.hpp"
#include "mdremap/error.hpp"

namespace mdremap::integrators {

template <class S>
NoseHoover<S>::NoseHoover(const IntegratorSettings& s)
    : Nve<S>(s),
      kt_(s.keys.real("temperature")),
      dof_(s.dof),
      tau_(s.keys.real("damp")),
      sum_over_ranks_(s.sum_over_ranks) {
  const int m = static_cast<int>(s.keys.integer("chain"));
  q_.assign(m, kt_ * tau_ * tau_);
  q_[0] = dof_ * kt_ * tau_ * tau_;
  xi_.assign(m, 0.0);
  vxi_.assign(m, 0.0);
}

// One half step (dt/2) of the chain: outer quarter kicks of the chain velocities around the
// velocity scaling, each kick damped by the next link (MTTK 1996, Eqs. 29-31).
template <class S>
void NoseHoover<S>::chain_half_step(AtomArrays<S>& a) {
  const int m = static_cast<int>(q_.size());
  const double dt = this->dt_;
  double ke2 = twice_kinetic_energy(a, this->mass_);
  if (sum_over_ranks_) ke2 = sum_over_ranks_(ke2);
  auto force = [&](int k) {
    return k == 0 ? (ke2 - dof_ * kt_) / q_[0]
                  : (q_[k - 1] * vxi_[k - 1] * vxi_[k - 1] - kt_) / q_[k];
  };
  auto kick = [&](int k) {
    const double damp = k + 1 < m ? std::exp(-0.125 * dt * vxi_[k + 1]) : 1.0;
    vxi_[k] *= damp;
    vxi_[k] += 0.25 * dt * force(k);
    vxi_[k] *= damp;
  };
  for (int k = m - 1; k >= 0; --k) kick(k);
  const double scale = std::exp(-0.5 * dt * vxi_[0]);
  scale_velocities(a, scale);
  ke2 *= scale * scale;
  for (int k = 0; k < m; ++k) xi_[k] += 0.5 * dt * vxi_[k];
  for (int k = 0; k < m; ++k) kick(k);
}

template <class S>
void NoseHoover<S>::initial_integrate(AtomArrays<S>& a, std::int64_t) {
  chain_half_step(a);
  half_kick(a, this->mass_, this->dt_);
  drift(a, this->dt_);
}

template <class S>
void NoseHoover<S>::final_integrate(AtomArrays<S>& a, std::int64_t) {
  half_kick(a, this->mass_, this->dt_);
  chain_half_step(a);
}

template <class S>
IntegratorState NoseHoover<S>::checkpoint_state() const {
  IntegratorState st;
  st.style = Spec::kName;
  st.thermostat = xi_;
  st.thermostat.insert(st.thermostat.end(), vxi_.begin(), vxi_.end());
  return st;
}

template <class S>
void NoseHoover<S>::restore_state(const IntegratorState& st) {
  const auto& s = st.thermostat;
  if (s.size() != 2 * xi_.size())
    throw Error(fmt::format("Nose-Hoover state has {} values, expected {} (chain length differs?)",
                            s.size(), 2 * xi_.size()));
  std::copy(s.begin(), s.begin() + xi_.size(), xi_.begin());
  std::copy(s.begin() + xi_.size(), s.end(), vxi_.begin());
}

template <class S>
double NoseHoover<S>::thermostat_energy() const {
  double e = dof_ * kt_ * xi_[0];
  for (size_t k = 0; k < q_.size(); ++k) e += 0.5 * q_[k] * vxi_[k] * vxi_[k];
  for (size_t k = 1; k < q_.size(); ++k) e += kt_ * xi_[k];
  return e;
}

template <class S>
std::string NoseHoover<S>::describe() const {
  return fmt::format("nose-hoover (T {}, damp {}, chain {})", kt_, tau_, q_.size());
}

template class NoseHoover<float>;
template class NoseHoover<double>;

}  // namespace mdremap::integrators

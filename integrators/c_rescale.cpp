#include "integrators/c_rescale.hpp"

#include <fmt/format.h>

#include <cmath>
#include <random>

#include "integrators/velocity_verlet.hpp"
#include "mdremap/error.hpp"
#include "mdremap/rng.hpp"

namespace mdremap::integrators {

template <class S>
CRescale<S>::CRescale(const IntegratorSettings& s)
    : Nve<S>(s),
      kt_(s.keys.real("temperature")),
      tau_t_(s.keys.real("damp")),
      p0_(s.keys.real("pressure")),
      tau_p_(s.keys.real("pdamp")),
      beta_(s.keys.real("compressibility")),
      dof_(s.dof),
      seed_(s.keys.seed("seed")),
      sum_over_ranks_(s.sum_over_ranks) {}

template <class S>
void CRescale<S>::begin_run(std::int64_t, std::int64_t) {
  if (!cell_) throw Error("c-rescale: the engine gave no box to couple to");
}

// Bussi 2007 Eq. (A7) over dt/2: the new kinetic energy drawn from its canonical relaxation,
// the velocities scaled to it. The Nf - 1 squared normals are one chi-squared (gamma) draw from
// a generator seeded by (seed, step, half).
template <class S>
void CRescale<S>::rescale_velocities(AtomArrays<S>& a, std::int64_t step, int half) {
  double ke2 = twice_kinetic_energy(a, this->mass_);
  if (sum_over_ranks_) ke2 = sum_over_ranks_(ke2);
  if (!(ke2 > 0)) {
    if (half == 0) half_kick(a, this->mass_, this->dt_);
    return;
  }
  const double k = 0.5 * ke2, k0 = 0.5 * dof_ * kt_;
  const double c = std::exp(-0.5 * this->dt_ / tau_t_);
  const std::uint64_t key = hash3(seed_, static_cast<std::uint64_t>(step), 2u + half);
  const double r1 = gaussian(key, 0, 1);
  std::mt19937_64 gen(key);
  const double chi2 = dof_ > 1 ? std::gamma_distribution<double>(0.5 * (dof_ - 1), 2.0)(gen) : 0;
  const double knew = k * c + k0 / dof_ * (1 - c) * (r1 * r1 + chi2) +
                      2.0 * r1 * std::sqrt(c * (1 - c) * k * k0 / dof_);
  heat_ += k - knew;
  const double s = std::sqrt(knew / k);
  const double f[3] = {s, s, s};
  // The first half step's scaling goes with its half kick (one pass, the same arithmetic).
  if (half == 0)
    kick_and_scale(a, this->mass_, this->dt_, f, KickOrder::ScaleThenKick);
  else
    scale_velocities(a, f);
}

// Bernetti & Bussi 2020 Eq. (5) over dt, isotropic: d(log V) = -(beta / tau_p) (P0 - P - kT/V)
// dt + sqrt(2 kT beta dt / (V tau_p)) R, with P from the current kinetic energy and the last
// forces' virial; lengths and positions scale by exp(d/3), velocities by exp(-d/3).
template <class S>
void CRescale<S>::cell_step(AtomArrays<S>& a, std::int64_t step) {
  const auto len = cell_->lengths();
  const double vol = len[0] * len[1] * len[2];
  const auto w = cell_->virial();
  double ke2 = twice_kinetic_energy(a, this->mass_);
  if (sum_over_ranks_) ke2 = sum_over_ranks_(ke2);
  const double p = (ke2 + w[0] + w[1] + w[2]) / (3.0 * vol);
  const double dt = this->dt_;
  const double r = gaussian(hash3(seed_, static_cast<std::uint64_t>(step), 1u), 0, 1);
  const double deps = -beta_ / tau_p_ * (p0_ - p - kt_ / vol) * dt +
                      std::sqrt(2.0 * kt_ * beta_ * dt / (vol * tau_p_)) * r;
  const double f = std::exp(deps / 3.0);
  cell_->dilate({f, f, f});
  scale_velocities(a, 1.0 / f);
  heat_ -= 0.5 * ke2 * (1.0 / (f * f) - 1.0);
}

template <class S>
void CRescale<S>::initial_integrate(AtomArrays<S>& a, std::int64_t step) {
  rescale_velocities(a, step, 0);  // and the half kick
  cell_step(a, step);
  drift(a, this->dt_);
}

template <class S>
void CRescale<S>::final_integrate(AtomArrays<S>& a, std::int64_t step) {
  half_kick(a, this->mass_, this->dt_);
  rescale_velocities(a, step, 1);
}

template <class S>
IntegratorState CRescale<S>::checkpoint_state() const {
  IntegratorState st;
  st.style = Spec::kName;
  st.thermostat = {heat_};
  st.rng_seed = seed_;
  return st;
}

template <class S>
void CRescale<S>::restore_state(const IntegratorState& st) {
  if (st.thermostat.size() != 1)
    throw Error(fmt::format("c-rescale state has {} values, expected 1", st.thermostat.size()));
  heat_ = st.thermostat[0];
  // The checkpoint's seed continues its stream, as Langevin's does.
  if (st.style == Spec::kName) seed_ = st.rng_seed;
}

template <class S>
std::string CRescale<S>::describe() const {
  return fmt::format("c-rescale (T {} damp {}, P {} pdamp {} compressibility {}, seed {})", kt_,
                     tau_t_, p0_, tau_p_, beta_, seed_);
}

template class CRescale<float>;
template class CRescale<double>;

}  // namespace mdremap::integrators

#include "integrators/npt_mtk.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "integrators/velocity_verlet.hpp"
#include "mdremap/error.hpp"

namespace mdremap::integrators {

template <class S>
MtkNpt<S>::MtkNpt(const IntegratorSettings& s)
    : Nve<S>(s),
      aniso_(s.keys.choice("coupling") == "aniso"),
      dof_(s.dof),
      natoms_((s.dof + 3.0) / 3.0),
      t_start_(s.keys.real("temperature")),
      t_stop_(s.keys.has("temperature_stop") ? s.keys.real("temperature_stop") : t_start_),
      t_freq_(1.0 / s.keys.real("damp")),
      p_start_(s.keys.real("pressure")),
      p_stop_(s.keys.has("pressure_stop") ? s.keys.real("pressure_stop") : p_start_),
      p_freq_(1.0 / s.keys.real("pdamp")),
      sum_over_ranks_(s.sum_over_ranks) {
  const int mt = static_cast<int>(s.keys.integer("chain"));
  const int mp = static_cast<int>(s.keys.integer("pchain"));
  eta_mass_.assign(mt, 0.0);
  eta_.assign(mt, 0.0);
  eta_dot_.assign(mt + 1, 0.0);  // a last link at rest closes the chain
  eta_dotdot_.assign(mt, 0.0);
  etap_mass_.assign(mp, 0.0);
  etap_.assign(mp, 0.0);
  etap_dot_.assign(mp + 1, 0.0);
  etap_dotdot_.assign(mp, 0.0);
}

template <class S>
double MtkNpt<S>::ramp(double start, double stop, std::int64_t step) const {
  const double span = double(ramp_last_ - ramp_first_);
  const double f = span > 0 ? double(step - ramp_first_) / span : 0.0;
  return start + f * (stop - start);
}

template <class S>
void MtkNpt<S>::targets(std::int64_t step) {
  t_target_ = ramp(t_start_, t_stop_, step);
  p_target_ = ramp(p_start_, p_stop_, step);
}

// The first run sets the ramp and the masses: the chains' Q from kT / freq^2 (the first link
// of the particle chain times the degrees of freedom), the cell's W = N kT / pfreq^2 per axis
// (MTK 1994 §III), and the links' initial forces from a chain at rest. A restored run keeps
// the checkpoint's.
template <class S>
void MtkNpt<S>::begin_run(std::int64_t first, std::int64_t last) {
  if (!cell_) throw Error("npt: the engine gave no box to couple to");
  // The barostat's chain opens a step with the last step's targets: a restored run's are those
  // of its first step.
  if (started_) {
    targets(first);
    return;
  }
  started_ = true;
  ramp_first_ = first;
  ramp_last_ = last;
  targets(first);
  const double kt = t_target_;
  for (double& w : omega_mass_) w = natoms_ * kt / (p_freq_ * p_freq_);
  for (double& q : etap_mass_) q = kt / (p_freq_ * p_freq_);
  for (std::size_t k = 1; k < etap_mass_.size(); ++k)
    etap_dotdot_[k] =
        (etap_mass_[k - 1] * etap_dot_[k - 1] * etap_dot_[k - 1] - kt) / etap_mass_[k];
  eta_mass_[0] = dof_ * kt / (t_freq_ * t_freq_);
  for (std::size_t k = 1; k < eta_mass_.size(); ++k) {
    eta_mass_[k] = kt / (t_freq_ * t_freq_);
    eta_dotdot_[k] = (eta_mass_[k - 1] * eta_dot_[k - 1] * eta_dot_[k - 1] - kt) / eta_mass_[k];
  }
  const auto len = cell_->lengths();
  vol0_ = len[0] * len[1] * len[2];
}

// The pressure the cell feels: kinetic part of the current velocities plus the virial of the
// last forces, over the current volume; per axis (aniso) or its mean.
template <class S>
void MtkNpt<S>::current_pressure(AtomArrays<S>& a) {
  const auto len = cell_->lengths();
  const double vol = len[0] * len[1] * len[2];
  const auto w = cell_->virial();
  if (aniso_) {
    const auto k = kinetic_tensor(a, this->mass_);
    double kd[3] = {k[0], k[1], k[2]};
    if (sum_over_ranks_)
      for (double& x : kd) x = sum_over_ranks_(x);
    for (int d = 0; d < 3; ++d) {
      mvv_[d] = kd[d];
      p_current_[d] = (kd[d] + w[d]) / vol;
    }
    ke2_ = kd[0] + kd[1] + kd[2];
  } else {
    ke2_ = twice_kinetic_energy(a, this->mass_);
    if (sum_over_ranks_) ke2_ = sum_over_ranks_(ke2_);
    const double p = (ke2_ + w[0] + w[1] + w[2]) / (3.0 * vol);
    p_current_ = {p, p, p};
  }
}

// Half step of the particles' chain: the links' velocities in quarter steps from the last link
// in, the velocity scaling, the links' positions, and back out (MTK 1996 Eqs. 29-31).
template <class S>
void MtkNpt<S>::chain_half_step(AtomArrays<S>& a, const double* known_ke2) {
  const double dt = this->dt_, kt = t_target_;
  const int m = static_cast<int>(eta_mass_.size());
  eta_mass_[0] = dof_ * kt / (t_freq_ * t_freq_);
  for (int k = 1; k < m; ++k) eta_mass_[k] = kt / (t_freq_ * t_freq_);
  double ke2 = 0;
  if (known_ke2) {
    ke2 = *known_ke2;
  } else {
    ke2 = twice_kinetic_energy(a, this->mass_);
    if (sum_over_ranks_) ke2 = sum_over_ranks_(ke2);
  }
  eta_dotdot_[0] = (ke2 - dof_ * kt) / eta_mass_[0];
  for (int k = m - 1; k >= 0; --k) {
    const double e = std::exp(-0.125 * dt * eta_dot_[k + 1]);
    eta_dot_[k] = (eta_dot_[k] * e + 0.25 * dt * eta_dotdot_[k]) * e;
  }
  const double scale = std::exp(-0.5 * dt * eta_dot_[0]);
  scale_velocities(a, scale);
  ke2 *= scale * scale;
  eta_dotdot_[0] = (ke2 - dof_ * kt) / eta_mass_[0];
  for (int k = 0; k < m; ++k) eta_[k] += 0.5 * dt * eta_dot_[k];
  for (int k = 0; k < m; ++k) {
    const double e = std::exp(-0.125 * dt * eta_dot_[k + 1]);
    if (k > 0)
      eta_dotdot_[k] = (eta_mass_[k - 1] * eta_dot_[k - 1] * eta_dot_[k - 1] - kt) / eta_mass_[k];
    eta_dot_[k] = (eta_dot_[k] * e + 0.25 * dt * eta_dotdot_[k]) * e;
  }
}

// Half step of the barostat's chain, which thermostats the cell velocities.
template <class S>
void MtkNpt<S>::barostat_chain_half_step() {
  const int m = static_cast<int>(etap_mass_.size());
  if (m == 0) return;
  const double dt = this->dt_, kt = t_target_;
  auto cell_ke2 = [&] {
    double s = 0;
    for (int d = 0; d < 3; ++d) s += omega_mass_[d] * omega_dot_[d] * omega_dot_[d];
    return s;
  };
  etap_dotdot_[0] = (cell_ke2() - kt) / etap_mass_[0];
  for (int k = m - 1; k >= 0; --k) {
    const double e = std::exp(-0.125 * dt * etap_dot_[k + 1]);
    etap_dot_[k] = (etap_dot_[k] * e + 0.25 * dt * etap_dotdot_[k]) * e;
  }
  for (int k = 0; k < m; ++k) etap_[k] += 0.5 * dt * etap_dot_[k];
  const double scale = std::exp(-0.5 * dt * etap_dot_[0]);
  for (double& w : omega_dot_) w *= scale;
  etap_dotdot_[0] = (cell_ke2() - kt) / etap_mass_[0];
  for (int k = 0; k < m; ++k) {
    const double e = std::exp(-0.125 * dt * etap_dot_[k + 1]);
    if (k > 0)
      etap_dotdot_[k] =
          (etap_mass_[k - 1] * etap_dot_[k - 1] * etap_dot_[k - 1] - kt) / etap_mass_[k];
    etap_dot_[k] = (etap_dot_[k] * e + 0.25 * dt * etap_dotdot_[k]) * e;
  }
}

// Half step of the cell velocities: the pressure imbalance times the volume, plus the MTK term
// (the kinetic energy over the barostat's degrees of freedom), over the cell mass.
template <class S>
void MtkNpt<S>::cell_velocity_half_step() {
  const auto len = cell_->lengths();
  const double vol = len[0] * len[1] * len[2];
  const double per = 3.0 * natoms_;  // pdim * N
  const double term1 = (aniso_ ? mvv_[0] + mvv_[1] + mvv_[2] : ke2_) / per;
  double sum = 0;
  for (int d = 0; d < 3; ++d) {
    const double f = (p_current_[d] - p_target_) * vol / omega_mass_[d] + term1 / omega_mass_[d];
    omega_dot_[d] += 0.5 * this->dt_ * f;
    sum += omega_dot_[d];
  }
  mtk_term2_ = sum / per;
}

// The particles' velocities feel the cell's motion: exp(-(omega_dot + term2) dt/2) per axis,
// applied with the half kick in one pass (before it in the first half of the step, after it in
// the second, as LAMMPS' nh_v_press and nve_v).
template <class S>
void MtkNpt<S>::kick_for_cell(AtomArrays<S>& a, KickOrder order) {
  double f[3];
  for (int d = 0; d < 3; ++d) {
    const double e = std::exp(-0.25 * this->dt_ * (omega_dot_[d] + mtk_term2_));
    f[d] = e * e;
  }
  kick_and_scale(a, this->mass_, this->dt_, f, order);
}

// Half a step of the cell strain, and the box factor it gives.
template <class S>
std::array<double, 3> MtkNpt<S>::strain_half_step() {
  const double h = 0.5 * this->dt_;
  std::array<double, 3> f;
  for (int d = 0; d < 3; ++d) {
    omega_[d] += h * omega_dot_[d];
    f[d] = std::exp(h * omega_dot_[d]);
  }
  return f;
}

template <class S>
void MtkNpt<S>::initial_integrate(AtomArrays<S>& a, std::int64_t step) {
  barostat_chain_half_step();
  targets(step);
  chain_half_step(a);
  current_pressure(a);
  cell_velocity_half_step();
  kick_for_cell(a, KickOrder::ScaleThenKick);
  // The box dilates by half a step's strain, the atoms drift, the box dilates again: one pass.
  const auto f1 = strain_half_step();
  const auto f2 = strain_half_step();
  cell_->dilate_drift(f1, this->dt_, f2);
}

template <class S>
void MtkNpt<S>::final_integrate(AtomArrays<S>& a, std::int64_t) {
  kick_for_cell(a, KickOrder::KickThenScale);
  current_pressure(a);
  cell_velocity_half_step();
  // The chain's kinetic energy is the one current_pressure() just summed (same velocities).
  chain_half_step(a, aniso_ ? nullptr : &ke2_);
  barostat_chain_half_step();
}

// The checkpoint: both chains (positions, velocities, forces), the cell's strain, velocity and
// mass, the reference volume and the ramp.
template <class S>
IntegratorState MtkNpt<S>::checkpoint_state() const {
  IntegratorState st;
  st.style = Spec::kName;
  auto& v = st.thermostat;
  auto put = [&](const auto& x, std::size_t n) { v.insert(v.end(), x.begin(), x.begin() + n); };
  put(eta_, eta_.size());
  put(eta_dot_, eta_.size());
  put(eta_dotdot_, eta_.size());
  put(etap_, etap_.size());
  put(etap_dot_, etap_.size());
  put(etap_dotdot_, etap_.size());
  put(etap_mass_, etap_.size());
  put(omega_, 3);
  put(omega_dot_, 3);
  put(omega_mass_, 3);
  v.push_back(vol0_);
  v.push_back(double(ramp_first_));
  v.push_back(double(ramp_last_));
  return st;
}

template <class S>
void MtkNpt<S>::restore_state(const IntegratorState& st) {
  const auto& v = st.thermostat;
  const std::size_t mt = eta_.size(), mp = etap_.size(), want = 3 * mt + 4 * mp + 12;
  if (v.size() != want)
    throw Error(fmt::format("npt state has {} values, expected {} (chain lengths differ?)",
                            v.size(), want));
  std::size_t i = 0;
  auto get = [&](auto& x, std::size_t n) {
    std::copy(v.begin() + i, v.begin() + i + n, x.begin());
    i += n;
  };
  get(eta_, mt);
  get(eta_dot_, mt);
  get(eta_dotdot_, mt);
  get(etap_, mp);
  get(etap_dot_, mp);
  get(etap_dotdot_, mp);
  get(etap_mass_, mp);
  get(omega_, 3);
  get(omega_dot_, 3);
  get(omega_mass_, 3);
  vol0_ = v[i];
  ramp_first_ = static_cast<std::int64_t>(v[i + 1]);
  ramp_last_ = static_cast<std::int64_t>(v[i + 2]);
  started_ = true;
}

// The extended system's energy (LAMMPS' fix npt scalar): chains, cell kinetic energy and P dV.
template <class S>
double MtkNpt<S>::thermostat_energy() const {
  const double kt = t_target_ > 0 ? t_target_ : t_start_;
  double e = 0;
  for (std::size_t k = 0; k < eta_.size(); ++k)
    e += (k == 0 ? dof_ * kt : kt) * eta_[k] + 0.5 * eta_mass_[k] * eta_dot_[k] * eta_dot_[k];
  for (std::size_t k = 0; k < etap_.size(); ++k)
    e += kt * etap_[k] + 0.5 * etap_mass_[k] * etap_dot_[k] * etap_dot_[k];
  for (int d = 0; d < 3; ++d) e += 0.5 * omega_mass_[d] * omega_dot_[d] * omega_dot_[d];
  if (cell_) {
    const auto len = cell_->lengths();
    e += p_target_ * (len[0] * len[1] * len[2] - vol0_);
  }
  return e;
}

template <class S>
std::string MtkNpt<S>::describe() const {
  return fmt::format("npt (MTK, T {} damp {} chain {}, P {} pdamp {} {} pchain {})", t_start_,
                     1.0 / t_freq_, eta_.size(), p_start_, 1.0 / p_freq_, aniso_ ? "aniso" : "iso",
                     etap_.size());
}

template class MtkNpt<float>;
template class MtkNpt<double>;

}  // namespace mdremap::integrators

#pragma once
#include <array>
#include <vector>

#include "integrators/nve.hpp"
#include "integrators/velocity_verlet.hpp"

namespace mdremap::integrators {

// Constant temperature and pressure by the Martyna-Tobias-Klein equations (Martyna, Tobias,
// Klein 1994) with Nose-Hoover chains on the particles and on the barostat, as LAMMPS' fix npt
// integrates them: the symmetric Trotter splitting of Tuckerman et al. 2006 (J. Phys. A 39,
// 5629) in the form of Shinoda, Shiga, Mikami 2004 (Phys. Rev. B 69, 134103): chain half steps
// outermost, then the barostat velocity half step and the particle velocity scaling, the half
// kick, and the drift between two half-step box dilations. Isotropic coupling (one cell
// velocity) or per axis (three, from the pressure tensor's diagonal). Targets ramp linearly
// from `temperature`/`pressure` to their `_stop` values over the first run. A checkpoint keeps
// every chain and cell variable, so a restart continues bit-identically.
template <class S>
class MtkNpt : public Nve<S> {
 public:
  using Spec = NptSpec;  // name, help and keys (catalogue.hpp)

  explicit MtkNpt(const IntegratorSettings& s);
  Virial virial_needed() const override { return aniso_ ? Virial::Tensor : Virial::Scalar; }
  void attach_cell(Cell* c) override { cell_ = c; }
  void begin_run(std::int64_t first, std::int64_t last) override;
  void initial_integrate(AtomArrays<S>& a, std::int64_t step) override;
  void final_integrate(AtomArrays<S>& a, std::int64_t step) override;
  void final_and_initial(AtomArrays<S>& a, std::int64_t step) override {
    final_integrate(a, step - 1);
    initial_integrate(a, step);
  }
  IntegratorState checkpoint_state() const override;
  void restore_state(const IntegratorState& s) override;
  double thermostat_energy() const override;
  std::string describe() const override;

 private:
  void targets(std::int64_t step);
  void current_pressure(AtomArrays<S>& a);
  // known_ke2: the summed kinetic energy of the current velocities, when already at hand.
  void chain_half_step(AtomArrays<S>& a, const double* known_ke2 = nullptr);
  void barostat_chain_half_step();
  void cell_velocity_half_step();
  void kick_for_cell(AtomArrays<S>& a, KickOrder order);
  std::array<double, 3> strain_half_step();
  double ramp(double start, double stop, std::int64_t step) const;

  Cell* cell_ = nullptr;
  bool aniso_ = false;
  double dof_, natoms_;
  double t_start_, t_stop_, t_freq_, p_start_, p_stop_, p_freq_;
  double (*sum_over_ranks_)(double);
  // targets and the current state of the step
  double t_target_ = 0, p_target_ = 0, ke2_ = 0;
  std::array<double, 3> p_current_{}, mvv_{};
  double mtk_term2_ = 0;
  // particle chain, barostat chain (masses, positions, velocities, forces) and cell
  std::vector<double> eta_mass_, eta_, eta_dot_, eta_dotdot_;
  std::vector<double> etap_mass_, etap_, etap_dot_, etap_dotdot_;
  std::array<double, 3> omega_{}, omega_dot_{}, omega_mass_{};
  double vol0_ = 0;
  std::int64_t ramp_first_ = 0, ramp_last_ = 0;
  bool started_ = false;
};

template <>
struct IntegratorFor<NptSpec> {
  template <class S>
  using type = MtkNpt<S>;
};

}  // namespace mdremap::integrators

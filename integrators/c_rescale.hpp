#pragma once
#include <array>

#include "integrators/nve.hpp"

namespace mdremap::integrators {

// Constant temperature and pressure by stochastic cell rescaling (Bernetti & Bussi, J. Chem.
// Phys. 153, 114107 (2020), Eq. 5, isotropic): the log-volume takes a first-order stochastic
// step from the pressure imbalance, with noise that gives the isothermal-isobaric volume
// distribution; positions scale with the box and velocities inversely. The temperature is held
// by Bussi's stochastic velocity rescaling (Bussi, Donadio, Parrinello, J. Chem. Phys. 126,
// 014101 (2007)), a half step either side of the velocity Verlet step. The noise is counter-based
// (seed, step): a checkpoint keeps no generator state, and restarts are bit-identical.
template <class S>
class CRescale : public Nve<S> {
 public:
  using Spec = CRescaleSpec;  // name, help and keys (catalogue.hpp)

  explicit CRescale(const IntegratorSettings& s);
  Virial virial_needed() const override { return Virial::Scalar; }
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
  double thermostat_energy() const override { return heat_; }
  std::string describe() const override;

 private:
  // The thermostat over half a step; in the first half (half 0) the half kick follows it.
  void rescale_velocities(AtomArrays<S>& a, std::int64_t step, int half);
  void cell_step(AtomArrays<S>& a, std::int64_t step);

  Cell* cell_ = nullptr;
  double kt_, tau_t_, p0_, tau_p_, beta_, dof_;
  std::uint64_t seed_;
  double (*sum_over_ranks_)(double);
  // kinetic energy the two rescalings took out (the P dV work and the potential energy's change
  // with the volume are not counted: no conserved quantity)
  double heat_ = 0;
};

template <>
struct IntegratorFor<CRescaleSpec> {
  template <class S>
  using type = CRescale<S>;
};

}  // namespace mdremap::integrators

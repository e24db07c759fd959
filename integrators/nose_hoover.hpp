#pragma once
#include "integrators/nve.hpp"

namespace mdremap::integrators {

// Nose-Hoover chain NVT (Martyna, Klein, Tuckerman 1992), integrated with the symmetric Trotter
// splitting of Martyna, Tuckerman, Tobias, Klein (1996): a thermostat half step, the velocity
// Verlet step, another thermostat half step.
template <class S>
class NoseHoover : public Nve<S> {
 public:
  explicit NoseHoover(const IntegratorSettings& s);
  void initial_integrate(AtomArrays<S>& a, std::int64_t step) override;
  void final_integrate(AtomArrays<S>& a, std::int64_t step) override;
  // The chain half steps sit between the kicks: no fusion.
  void final_and_initial(AtomArrays<S>& a, std::int64_t step) override {
    final_integrate(a, step - 1);
    initial_integrate(a, step);
  }
  std::vector<double> state() const override;
  void set_state(const std::vector<double>& s) override;
  double thermostat_energy() const override;
  std::string describe() const override;

 private:
  void chain_half_step(AtomArrays<S>& a);
  double kt_, dof_, tau_;
  std::vector<double> q_, xi_, vxi_;  // masses, positions, velocities of the chain
};

}  // namespace mdremap::integrators

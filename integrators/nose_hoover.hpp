#pragma once
#include "integrators/nve.hpp"

namespace mdremap::integrators {

// Nose-Hoover chain NVT (Martyna, Klein, Tuckerman 1992), integrated with the symmetric Trotter
// splitting of Martyna, Tuckerman, Tobias, Klein (1996): a thermostat half step, the velocity
// Verlet step, another thermostat half step. A checkpoint keeps the chain's positions and
// velocities (its thermostat values: xi then v_xi, 2 x chain).
template <class S>
class NoseHoover : public Nve<S> {
 public:
  using Spec = NoseHooverSpec;  // name, help and keys (catalogue.hpp)

  explicit NoseHoover(const IntegratorSettings& s);
  void initial_integrate(AtomArrays<S>& a, std::int64_t step) override;
  void final_integrate(AtomArrays<S>& a, std::int64_t step) override;
  // The chain half steps sit between the kicks: no fusion.
  void final_and_initial(AtomArrays<S>& a, std::int64_t step) override {
    final_integrate(a, step - 1);
    initial_integrate(a, step);
  }
  IntegratorState checkpoint_state() const override;
  void restore_state(const IntegratorState& s) override;
  double thermostat_energy() const override;
  std::string describe() const override;

 private:
  void chain_half_step(AtomArrays<S>& a);
  double kt_, dof_, tau_;
  double (*sum_over_ranks_)(double);  // IntegratorSettings::sum_over_ranks
  std::vector<double> q_, xi_, vxi_;  // masses, positions, velocities of the chain
};

template <>
struct IntegratorFor<NoseHooverSpec> {
  template <class S>
  using type = NoseHoover<S>;
};

}  // namespace mdremap::integrators

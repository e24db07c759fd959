#pragma once
#include "integrators/catalogue.hpp"
#include "integrators/integrator.hpp"

namespace mdremap::integrators {

// NVE velocity Verlet: no keys of its own (integrator.dt is every integrator's).
template <class S>
class Nve : public Integrator<S> {
 public:
  using Spec = NveSpec;  // name, help and keys (catalogue.hpp)

  explicit Nve(const IntegratorSettings& s) : dt_(s.dt), mass_(mass_table<S>(s.type_mass)) {}
  void initial_integrate(AtomArrays<S>& a, std::int64_t step) override;
  void final_integrate(AtomArrays<S>& a, std::int64_t step) override;
  void final_and_initial(AtomArrays<S>& a, std::int64_t step) override;
  std::string describe() const override { return "nve (velocity Verlet)"; }

 protected:
  double dt_;
  TypeTable<S> mass_;
};

template <>
struct IntegratorFor<NveSpec> {
  template <class S>
  using type = Nve<S>;
};

}  // namespace mdremap::integrators

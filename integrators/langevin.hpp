#pragma once
#include "integrators/nve.hpp"

namespace mdremap::integrators {

// Langevin NVT: velocity Verlet plus, after the pair forces, a drag -m v / damp and a Gaussian
// random force of variance 2 m kT / (damp dt) (fluctuation-dissipation). The noise is a pure
// function of (seed, step, atom id, component): a checkpoint keeps the seed (its rng_seed) and
// the step, no generator state.
template <class S>
class Langevin : public Nve<S> {
 public:
  using Spec = LangevinSpec;  // name, help and keys (catalogue.hpp)

  explicit Langevin(const IntegratorSettings& s);
  void post_force(AtomArrays<S>& a, std::int64_t step) override;
  IntegratorState checkpoint_state() const override;
  void restore_state(const IntegratorState& s) override;
  std::string describe() const override;

 private:
  double t_target_, damp_;
  std::uint64_t seed_;
};

template <>
struct IntegratorFor<LangevinSpec> {
  template <class S>
  using type = Langevin<S>;
};

}  // namespace mdremap::integrators

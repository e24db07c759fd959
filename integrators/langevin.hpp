#pragma once
#include "integrators/nve.hpp"

namespace mdremap::integrators {

// Langevin NVT: velocity Verlet plus, after the pair forces, a drag -m v / damp and a Gaussian
// random force of variance 2 m kT / (damp dt) (fluctuation-dissipation). The noise is a pure
// function of (seed, step, atom id, component), so it needs no saved RNG state.
template <class S>
class Langevin : public Nve<S> {
 public:
  explicit Langevin(const IntegratorSettings& s)
      : Nve<S>(s), t_target_(s.t_target), damp_(s.damp), seed_(s.seed) {}
  void post_force(AtomArrays<S>& a, std::int64_t step) override;
  std::string describe() const override;

 private:
  double t_target_, damp_;
  std::uint64_t seed_;
};

}  // namespace mdremap::integrators

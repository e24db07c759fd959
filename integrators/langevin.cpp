#include "integrators/langevin.hpp"

#include <fmt/format.h>

#include "mdremap/rng.hpp"

namespace mdremap::integrators {

template <class S>
Langevin<S>::Langevin(const IntegratorSettings& s)
    : Nve<S>(s),
      t_target_(s.keys.real("temperature")),
      damp_(s.keys.real("damp")),
      seed_(s.keys.seed("seed")) {}

template <class S>
void Langevin<S>::post_force(AtomArrays<S>& a, std::int64_t step) {
  auto v = a.v;
  auto f = a.f;
  auto type = a.type;
  auto id = a.id;
  const auto mass = this->mass_;
  const double damp = damp_;
  const double noise = 2.0 * t_target_ / (damp_ * this->dt_);
  const std::uint64_t seed = seed_;
  Kokkos::parallel_for(
      "Integrate::langevin", Kokkos::RangePolicy<ExecSpace>(0, a.n), KOKKOS_LAMBDA(const int i) {
        const double m = mass[type(i)];
        const double amp = Kokkos::sqrt(noise * m);
        const std::uint64_t key = static_cast<std::uint64_t>(id(i));
        for (int d = 0; d < 3; ++d) {
          const double xi = gaussian(seed, key, 3 * static_cast<std::uint64_t>(step) + d);
          f(i, d) += static_cast<S>(-m / damp * v(i, d) + amp * xi);
        }
      });
}

template <class S>
IntegratorState Langevin<S>::checkpoint_state() const {
  IntegratorState st;
  st.style = Spec::kName;
  st.rng_seed = seed_;
  return st;
}

// A Langevin checkpoint's noise continues with its own seed whatever the deck says; from
// another integrator's checkpoint the deck's seed starts.
template <class S>
void Langevin<S>::restore_state(const IntegratorState& s) {
  if (s.style == Spec::kName) seed_ = s.rng_seed;
}

template <class S>
std::string Langevin<S>::describe() const {
  return fmt::format("langevin (T {}, damp {}, seed {})", t_target_, damp_, seed_);
}

template class Langevin<float>;
template class Langevin<double>;

}  // namespace mdremap::integrators

#include <fmt/format.h>

#include <map>

#include "integrators/langevin.hpp"
#include "integrators/nose_hoover.hpp"
#include "integrators/nve.hpp"
#include "mdremap/error.hpp"

namespace mdremap::integrators {

namespace {

template <class S>
const std::map<std::string, IntegratorFactory<S>>& registry() {
  static const std::map<std::string, IntegratorFactory<S>> r = {
      {"nve", [](const IntegratorSettings& s) { return std::make_unique<Nve<S>>(s); }},
      {"langevin", [](const IntegratorSettings& s) { return std::make_unique<Langevin<S>>(s); }},
      {"nose-hoover",
       [](const IntegratorSettings& s) { return std::make_unique<NoseHoover<S>>(s); }},
  };
  return r;
}

}  // namespace

template <class S>
std::unique_ptr<Integrator<S>> make_integrator(const IntegratorSettings& s) {
  const auto& r = registry<S>();
  auto it = r.find(s.style);
  if (it == r.end()) throw Error(fmt::format("unknown integrator '{}'", s.style));
  return it->second(s);
}

std::vector<std::string> integrator_names() {
  std::vector<std::string> names;
  for (const auto& [k, v] : registry<double>()) names.push_back(k);
  return names;
}

template <class S>
double twice_kinetic_energy(const AtomArrays<S>& a, const TypeTable<S>& mass) {
  auto v = a.v;
  auto type = a.type;
  double ke2 = 0;
  Kokkos::parallel_reduce(
      "Integrate::kinetic", Kokkos::RangePolicy<ExecSpace>(0, a.n),
      KOKKOS_LAMBDA(const int i, double& s) {
        const double vx = v(i, 0), vy = v(i, 1), vz = v(i, 2);
        s += double(mass[type(i)]) * (vx * vx + vy * vy + vz * vz);
      },
      ke2);
  return ke2;
}

template std::unique_ptr<Integrator<float>> make_integrator<float>(const IntegratorSettings&);
template std::unique_ptr<Integrator<double>> make_integrator<double>(const IntegratorSettings&);
template double twice_kinetic_energy<float>(const AtomArrays<float>&, const TypeTable<float>&);
template double twice_kinetic_energy<double>(const AtomArrays<double>&, const TypeTable<double>&);

}  // namespace mdremap::integrators

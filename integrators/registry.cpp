#include <fmt/format.h>

#include "integrators/c_rescale.hpp"
#include "integrators/langevin.hpp"
#include "integrators/nose_hoover.hpp"
#include "integrators/npt_mtk.hpp"
#include "integrators/nve.hpp"
#include "mdremap/error.hpp"

namespace mdremap::integrators {

namespace {

template <class S>
using Factory = std::unique_ptr<Integrator<S>> (*)(const IntegratorSettings&);

struct Entry {
  IntegratorKind kind;
  Factory<float> make_float;
  Factory<double> make_double;
};

// One entry per catalogue Spec (catalogue.hpp), in its order: the class is IntegratorFor<Spec>.
template <class Spec>
Entry entry() {
  using F = typename IntegratorFor<Spec>::template type<float>;
  using D = typename IntegratorFor<Spec>::template type<double>;
  return {{Spec::kName, Spec::summary(), Spec::keys()},
          [](const IntegratorSettings& s) -> std::unique_ptr<Integrator<float>> {
            return std::make_unique<F>(s);
          },
          [](const IntegratorSettings& s) -> std::unique_ptr<Integrator<double>> {
            return std::make_unique<D>(s);
          }};
}

const std::vector<Entry>& registry() {
  static const std::vector<Entry> r =
      std::apply([](auto... spec) { return std::vector<Entry>{entry<decltype(spec)>()...}; },
                 IntegratorSpecs{});
  return r;
}

const Entry& find_entry(const std::string& name) {
  for (const auto& e : registry())
    if (e.kind.name == name) return e;
  throw Error(fmt::format("unknown integrator '{}'", name));
}

}  // namespace

template <class S>
std::unique_ptr<Integrator<S>> make_integrator(const IntegratorSettings& s) {
  const Entry& e = find_entry(s.style);
  const std::string problem = s.keys.validate(e.kind.keys);
  if (!problem.empty()) throw Error(fmt::format("integrator {}: {}", s.style, problem));
  if constexpr (std::is_same_v<S, float>)
    return e.make_float(s);
  else
    return e.make_double(s);
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

template <class S>
std::array<double, 6> kinetic_tensor(const AtomArrays<S>& a, const TypeTable<S>& mass) {
  auto v = a.v;
  auto type = a.type;
  double k[6] = {};
  Kokkos::parallel_reduce(
      "Integrate::kinetic_tensor", Kokkos::RangePolicy<ExecSpace>(0, a.n),
      KOKKOS_LAMBDA(const int i, double& xx, double& yy, double& zz, double& xy, double& xz,
                    double& yz) {
        const double m = mass[type(i)];
        const double vx = v(i, 0), vy = v(i, 1), vz = v(i, 2);
        xx += m * vx * vx;
        yy += m * vy * vy;
        zz += m * vz * vz;
        xy += m * vx * vy;
        xz += m * vx * vz;
        yz += m * vy * vz;
      },
      k[0], k[1], k[2], k[3], k[4], k[5]);
  return {k[0], k[1], k[2], k[3], k[4], k[5]};
}

template std::unique_ptr<Integrator<float>> make_integrator<float>(const IntegratorSettings&);
template std::unique_ptr<Integrator<double>> make_integrator<double>(const IntegratorSettings&);
template double twice_kinetic_energy<float>(const AtomArrays<float>&, const TypeTable<float>&);
template double twice_kinetic_energy<double>(const AtomArrays<double>&, const TypeTable<double>&);
template std::array<double, 6> kinetic_tensor<float>(const AtomArrays<float>&,
                                                     const TypeTable<float>&);
template std::array<double, 6> kinetic_tensor<double>(const AtomArrays<double>&,
                                                      const TypeTable<double>&);

}  // namespace mdremap::integrators

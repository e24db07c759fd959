// The integrators' catalogue (catalogue.hpp): keys and the lookups derived from IntegratorSpecs.
// No Kokkos here.
#include "integrators/catalogue.hpp"

#include <fmt/format.h>

#include "mdremap/error.hpp"

namespace mdremap::integrators {

std::vector<KeySpec> LangevinSpec::keys() {
  return {KeySpec::real("temperature", 1.0, "target temperature").require().positive(),
          KeySpec::real("damp", 0.5, "relaxation time of the drag (LJ time units)").positive(),
          KeySpec::seed("seed", 48279, "seed of the counter-based noise")};
}

std::vector<KeySpec> NoseHooverSpec::keys() {
  return {KeySpec::real("temperature", 1.0, "target temperature").require().positive(),
          KeySpec::real("damp", 0.5, "relaxation time of the chain (LJ time units)").positive(),
          KeySpec::integer("chain", 3, "chain length").within(1, 10, "chain length must be 1..10")};
}

std::vector<KeySpec> NptSpec::keys() {
  return {
      KeySpec::real("temperature", 1.0, "target temperature (at the start of the first run)")
          .require()
          .positive(),
      KeySpec::unset_real("temperature_stop",
                          "target temperature at the end of the first run (unset: temperature)"),
      KeySpec::real("damp", 0.5, "relaxation time of the particles' chain (LJ time units)")
          .positive(),
      KeySpec::integer("chain", 3, "particles' chain length")
          .within(1, 10, "chain length must be 1..10"),
      KeySpec::real("pressure", 1.0, "target pressure (at the start of the first run)").require(),
      KeySpec::unset_real("pressure_stop",
                          "target pressure at the end of the first run (unset: pressure)"),
      KeySpec::real("pdamp", 5.0, "relaxation time of the box (LJ time units)").positive(),
      KeySpec::integer("pchain", 3, "barostat's chain length (0: none)")
          .within(0, 10, "pchain must be 0..10"),
      KeySpec::choice("coupling", {"iso", "aniso"},
                      "iso: one box velocity from the pressure; aniso: one per axis from the "
                      "pressure tensor's diagonal")};
}

std::vector<KeySpec> CRescaleSpec::keys() {
  return {KeySpec::real("temperature", 1.0, "target temperature").require().positive(),
          KeySpec::real("damp", 0.5, "relaxation time of the kinetic energy (LJ time units)")
              .positive(),
          KeySpec::real("pressure", 1.0, "target pressure").require(),
          KeySpec::real("pdamp", 1.0, "relaxation time of the volume (LJ time units)").positive(),
          KeySpec::real("compressibility", 0.1,
                        "isothermal compressibility guess: sets how fast the volume relaxes, not "
                        "what it samples (LJ units, sigma^3 / epsilon)")
              .positive(),
          KeySpec::seed("seed", 48279, "seed of the counter-based noise")};
}

const std::vector<IntegratorKind>& integrator_kinds() {
  static const std::vector<IntegratorKind> kinds = [] {
    std::vector<IntegratorKind> k;
    std::apply(
        [&](auto... spec) {
          (k.push_back({decltype(spec)::kName, decltype(spec)::summary(), decltype(spec)::keys()}),
           ...);
        },
        IntegratorSpecs{});
    return k;
  }();
  return kinds;
}

const IntegratorKind& find_integrator(const std::string& name) {
  for (const auto& k : integrator_kinds())
    if (k.name == name) return k;
  throw Error(fmt::format("unknown integrator '{}'", name));
}

std::vector<std::string> integrator_names() {
  std::vector<std::string> names;
  for (const auto& k : integrator_kinds()) names.push_back(k.name);
  return names;
}

std::string integrator_help() {
  std::string s;
  for (const auto& k : integrator_kinds()) {
    s += fmt::format("{}: {}\n", k.name, k.summary);
    for (const auto& key : k.keys) s += "  " + key.describe() + "\n";
  }
  return s;
}

}  // namespace mdremap::integrators

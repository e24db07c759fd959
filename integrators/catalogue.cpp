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

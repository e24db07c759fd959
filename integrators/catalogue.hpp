#pragma once
// The integrators' catalogue: each style's deck name, one line of help and its keys, with no
// Kokkos (the deck validation, the fuzz harnesses and `--help` read it; the Kokkos-built registry
// makes the integrators of the same list). IntegratorSpecs is the one list: a new integrator is
// its Spec here (and in catalogue.cpp), its file pair, its IntegratorFor<Spec> in its header, and
// that header included in registry.cpp.
#include <string>
#include <tuple>
#include <vector>

#include "integrators/settings.hpp"

namespace mdremap::integrators {

struct NveSpec {
  static constexpr const char* kName = "nve";
  static std::string summary() { return "velocity Verlet (constant energy)"; }
  static std::vector<KeySpec> keys() { return {}; }
};
struct LangevinSpec {
  static constexpr const char* kName = "langevin";
  static std::string summary() { return "velocity Verlet with a Langevin thermostat (NVT)"; }
  static std::vector<KeySpec> keys();
};
struct NoseHooverSpec {
  static constexpr const char* kName = "nose-hoover";
  static std::string summary() { return "velocity Verlet with a Nose-Hoover chain (NVT)"; }
  static std::vector<KeySpec> keys();
};

struct NptSpec {
  static constexpr const char* kName = "npt";
  static std::string summary() {
    return "constant pressure: Martyna-Tobias-Klein barostat with Nose-Hoover chains "
           "(LAMMPS' fix npt)";
  }
  static std::vector<KeySpec> keys();
};

struct CRescaleSpec {
  static constexpr const char* kName = "c-rescale";
  static std::string summary() {
    return "constant pressure: Bussi's stochastic cell rescaling with stochastic velocity "
           "rescaling (isotropic)";
  }
  static std::vector<KeySpec> keys();
};

// Registration order: the order deck errors and help list them in.
using IntegratorSpecs = std::tuple<NveSpec, LangevinSpec, NoseHooverSpec, NptSpec, CRescaleSpec>;

// The integrator class template of a Spec (specialised next to each class).
template <class Spec>
struct IntegratorFor;

}  // namespace mdremap::integrators

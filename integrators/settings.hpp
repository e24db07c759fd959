#pragma once
// What an integrator reads from the deck and keeps in a checkpoint, with no deck, YAML or Kokkos
// code: each integrator declares its keys of the deck's `integrator` section (name, kind,
// default, bounds, help); the app's deck reader (src/md/params.cpp) reads exactly those, so its
// unknown-key check and the help listing (`integrator_help`) derive from the declarations.
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace mdremap::integrators {

enum class KeyKind { Real, Integer, Seed, Choice };

// One key of the `integrator` section that an integrator reads.
struct KeySpec {
  std::string name;
  KeyKind kind = KeyKind::Real;
  std::string help;
  bool required = false;
  double real_default = 0;           // Real
  long long integer_default = 0;     // Integer (read as an int)
  std::uint64_t seed_default = 0;    // Seed (read as an unsigned 64-bit integer)
  std::vector<std::string> choices;  // Choice: the values it takes, the first the default
  // Real: the deck may leave it out (KeyValues::has says; describe() says "unset")
  bool optional = false;
  // Bounds of Real and Integer values: lo < v (lo_open) or lo <= v, and v <= hi.
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  std::string bounds_problem;  // the message for a value out of bounds ("" = generic)

  static KeySpec real(std::string name, double fallback, std::string help);
  static KeySpec integer(std::string name, long long fallback, std::string help);
  static KeySpec seed(std::string name, std::uint64_t fallback, std::string help);
  static KeySpec choice(std::string name, std::vector<std::string> values, std::string help);
  static KeySpec unset_real(std::string name, std::string help);  // an optional Real
  KeySpec& require();
  KeySpec& positive();  // (0, inf): "must be positive, got V"
  KeySpec& within(double lo, double hi, std::string problem);
  // The problem with `value` for this key, or "" (non-finite numbers are problems too).
  std::string check(double value) const;
  std::string describe() const;  // one help line: name, kind, default or "required", help
};

// Values of an integrator's declared keys, by name (reads of undeclared keys throw Error).
class KeyValues {
 public:
  void set_real(const std::string& key, double v) { reals_[key] = v; }
  void set_integer(const std::string& key, long long v) { integers_[key] = v; }
  void set_seed(const std::string& key, std::uint64_t v) { seeds_[key] = v; }
  void set_choice(const std::string& key, const std::string& v) { choices_[key] = v; }
  double real(const std::string& key) const;
  long long integer(const std::string& key) const;
  std::uint64_t seed(const std::string& key) const;
  const std::string& choice(const std::string& key) const;
  // An optional Real: whether the deck gave it.
  bool has(const std::string& key) const { return reals_.count(key) > 0; }
  // The declared defaults; required keys get `required_value` (tests, tools).
  static KeyValues defaults(const std::vector<KeySpec>& keys, double required_value = 1.0);
  // The first problem of these values against the declarations ("'chain': ..."), or "".
  std::string validate(const std::vector<KeySpec>& keys) const;

 private:
  std::map<std::string, double> reals_;
  std::map<std::string, long long> integers_;
  std::map<std::string, std::uint64_t> seeds_;
  std::map<std::string, std::string> choices_;
};

// Everything an integrator is made from: the run's time step, its own keys, and the system's
// degrees of freedom and per-type masses.
struct IntegratorSettings {
  std::string style = "nve";
  double dt = 0.005;
  KeyValues keys;
  double dof = 0;  // degrees of freedom (3N-3)
  std::vector<double> type_mass;
  // Sums a value over the MPI ranks of a decomposed run (the kinetic energy a thermostat reads
  // from its rank's atoms); null: one process holds every atom. Integrators know no MPI.
  double (*sum_over_ranks)(double) = nullptr;
};

// What an integrator keeps in a checkpoint, in the fields of io::Checkpoint (format 2):
// `thermostat` is its thermostat_state dataset, `rng_seed` its rng_seed attribute.
struct IntegratorState {
  std::string style;  // on restore: the integrator of the run that wrote it ("" if unknown)
  std::vector<double> thermostat;
  std::uint64_t rng_seed = 0;
};

// A registered integrator: its deck name, one line of help and its keys (registry.cpp).
struct IntegratorKind {
  std::string name;
  std::string summary;
  std::vector<KeySpec> keys;
};

// The registered integrators, in registration order; find_integrator throws Error for an
// unknown name.
const std::vector<IntegratorKind>& integrator_kinds();
const IntegratorKind& find_integrator(const std::string& name);
std::vector<std::string> integrator_names();
// Help for the `integrator` section derived from the declarations: per style, its keys.
std::string integrator_help();

// The deck's choice, parsed once: the registry entry and the values of its keys.
struct IntegratorChoice {
  const IntegratorKind* kind = &find_integrator("nve");
  KeyValues keys;
  const std::string& style() const { return kind->name; }
};

}  // namespace mdremap::integrators

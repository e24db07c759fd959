#include "integrators/settings.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "mdremap/error.hpp"

namespace mdremap::integrators {

KeySpec KeySpec::real(std::string name, double fallback, std::string help) {
  KeySpec k;
  k.name = std::move(name);
  k.kind = KeyKind::Real;
  k.real_default = fallback;
  k.help = std::move(help);
  return k;
}

KeySpec KeySpec::integer(std::string name, long long fallback, std::string help) {
  KeySpec k;
  k.name = std::move(name);
  k.kind = KeyKind::Integer;
  k.integer_default = fallback;
  k.help = std::move(help);
  return k;
}

KeySpec KeySpec::seed(std::string name, std::uint64_t fallback, std::string help) {
  KeySpec k;
  k.name = std::move(name);
  k.kind = KeyKind::Seed;
  k.seed_default = fallback;
  k.help = std::move(help);
  return k;
}

KeySpec KeySpec::choice(std::string name, std::vector<std::string> values, std::string help) {
  KeySpec k;
  k.name = std::move(name);
  k.kind = KeyKind::Choice;
  k.choices = std::move(values);
  k.help = std::move(help);
  return k;
}

KeySpec KeySpec::unset_real(std::string name, std::string help) {
  KeySpec k = real(std::move(name), 0.0, std::move(help));
  k.optional = true;
  return k;
}

KeySpec& KeySpec::require() {
  required = true;
  return *this;
}

KeySpec& KeySpec::positive() {
  lo = 0;
  lo_open = true;
  bounds_problem.clear();
  return *this;
}

KeySpec& KeySpec::within(double lo_, double hi_, std::string problem) {
  lo = lo_;
  hi = hi_;
  lo_open = false;
  bounds_problem = std::move(problem);
  return *this;
}

std::string KeySpec::check(double v) const {
  if (kind == KeyKind::Seed || kind == KeyKind::Choice) return {};
  const bool ok = std::isfinite(v) && (lo_open ? v > lo : v >= lo) && v <= hi;
  if (ok) return {};
  if (!bounds_problem.empty()) return bounds_problem;
  if (lo_open && lo == 0 && std::isinf(hi)) return fmt::format("must be positive, got {}", v);
  return fmt::format("must be in {}{}, {}], got {}", lo_open ? "(" : "[", lo, hi, v);
}

std::string KeySpec::describe() const {
  std::string def;
  switch (kind) {
    case KeyKind::Real:
      def = fmt::format("{}", real_default);
      break;
    case KeyKind::Integer:
      def = fmt::format("{}", integer_default);
      break;
    case KeyKind::Seed:
      def = fmt::format("{}", seed_default);
      break;
    case KeyKind::Choice:
      def = fmt::format("{}", fmt::join(choices, "|"));
      break;
  }
  if (optional) def = "unset";
  return fmt::format("{} [{}]: {}", name, required ? "required" : def, help);
}

namespace {

template <class M>
auto lookup(const M& m, const std::string& key, const char* what) {
  const auto it = m.find(key);
  if (it == m.end())
    throw Error(fmt::format("integrator setting '{}' ({}) was not read", key, what));
  return it->second;
}

}  // namespace

double KeyValues::real(const std::string& key) const {
  return lookup(reals_, key, "a number");
}
long long KeyValues::integer(const std::string& key) const {
  return lookup(integers_, key, "an integer");
}
std::uint64_t KeyValues::seed(const std::string& key) const {
  return lookup(seeds_, key, "a seed");
}
const std::string& KeyValues::choice(const std::string& key) const {
  const auto it = choices_.find(key);
  if (it == choices_.end())
    throw Error(fmt::format("integrator setting '{}' (a choice) was not read", key));
  return it->second;
}

KeyValues KeyValues::defaults(const std::vector<KeySpec>& keys, double required_value) {
  KeyValues v;
  for (const auto& k : keys) switch (k.kind) {
      case KeyKind::Real:
        if (!k.optional) v.set_real(k.name, k.required ? required_value : k.real_default);
        break;
      case KeyKind::Choice:
        v.set_choice(k.name, k.choices.front());
        break;
      case KeyKind::Integer:
        v.set_integer(k.name,
                      k.required ? static_cast<long long>(required_value) : k.integer_default);
        break;
      case KeyKind::Seed:
        v.set_seed(k.name,
                   k.required ? static_cast<std::uint64_t>(required_value) : k.seed_default);
        break;
    }
  return v;
}

std::string KeyValues::validate(const std::vector<KeySpec>& keys) const {
  for (const auto& k : keys) {
    std::string problem;
    if (k.kind == KeyKind::Real && reals_.count(k.name)) problem = k.check(real(k.name));
    if (k.kind == KeyKind::Integer && integers_.count(k.name))
      problem = k.check(static_cast<double>(integer(k.name)));
    if (k.kind == KeyKind::Choice && choices_.count(k.name) &&
        std::find(k.choices.begin(), k.choices.end(), choice(k.name)) == k.choices.end())
      problem =
          fmt::format("must be one of {}, got '{}'", fmt::join(k.choices, ", "), choice(k.name));
    const bool present = k.kind == KeyKind::Real      ? reals_.count(k.name) > 0 || k.optional
                         : k.kind == KeyKind::Integer ? integers_.count(k.name) > 0
                         : k.kind == KeyKind::Choice  ? choices_.count(k.name) > 0
                                                      : seeds_.count(k.name) > 0;
    if (!present) problem = "is required";
    if (!problem.empty()) return fmt::format("'{}': {}", k.name, problem);
  }
  return {};
}

}  // namespace mdremap::integrators

// The `remap:` section reader (remap_deck.hpp).
#include "mdremap/remap/remap_deck.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

#include "io/deck.hpp"
#include "io/number.hpp"

namespace mdremap::remap {

namespace {

// "" or the problem of v against k's bounds.
template <class V>
std::string bounds_problem(const RemapKey& k, V v) {
  const double x = static_cast<double>(v);
  const bool ok = (k.lo_open ? x > k.lo : x >= k.lo) && x <= k.hi;
  if (ok) return "";
  if (!k.problem.empty()) return k.problem;
  const long long lo = std::isfinite(k.lo) ? static_cast<long long>(k.lo) : LLONG_MIN;
  const long long hi = std::isfinite(k.hi) ? static_cast<long long>(k.hi) : LLONG_MAX;
  return io::check_range<long long>(static_cast<long long>(v), lo, hi);
}

void read_key(io::DeckSection& rm, const RemapKey& k, const RemapApp& app, RemapSettings& s) {
  std::string problem;
  switch (k.kind) {
    case KeyKind::Int: {
      const int v = rm.get<int>(k.name, static_cast<int>(k.get_int(s)));
      problem = bounds_problem(k, v);
      if (problem.empty()) k.set_int(s, v);
      break;
    }
    case KeyKind::Int64: {
      const long long v = rm.get<long long>(k.name, k.get_int(s));
      problem = bounds_problem(k, v);
      if (problem.empty()) k.set_int(s, v);
      break;
    }
    case KeyKind::Real: {
      const double v = rm.get<double>(k.name, k.get_real(s));
      problem = std::isfinite(v) ? bounds_problem(k, v) : k.problem;
      if (problem.empty()) k.set_real(s, v);
      break;
    }
    case KeyKind::Bool:
      k.set_bool(s, rm.get<bool>(k.name, k.get_bool(s)));
      break;
    case KeyKind::Choice:
      k.set_text(s, io::one_of(rm, k.name, k.get_text(s), app_values(app, k)));
      break;
  }
  if (!problem.empty()) rm.fail(k.name, problem);
}

}  // namespace

std::vector<RemapKey> app_keys(const RemapApp& app) {
  std::vector<RemapKey> keys;
  for (auto& k : remap_keys())
    if (std::find(app.without.begin(), app.without.end(), k.name) == app.without.end())
      keys.push_back(std::move(k));
  return keys;
}

std::vector<std::string> app_values(const RemapApp& app, const RemapKey& k) {
  const auto it = app.values.find(k.name);
  return it == app.values.end() ? k.values : it->second;
}

RemapSettings read_remap(io::DeckSection& rm, const RemapApp& app) {
  RemapSettings s = app.defaults;
  s.mode = io::one_of(rm, "mode", app.defaults.mode.name(), strategy_names());
  std::vector<std::string> reorders;
  for (Reorder r : app.reorders) reorders.push_back(to_string(r));
  s.reorder = parse_reorder(io::one_of(rm, "reorder", to_string(app.defaults.reorder), reorders));
  const std::vector<RemapKey> keys = app_keys(app);
  for (const auto& k : keys) read_key(rm, k, app, s);
  for (const auto& k : keys)
    if (k.check)
      if (const std::string problem = k.check(s); !problem.empty()) rm.fail(k.name, problem);
  return s;
}

}  // namespace mdremap::remap

// The strategy catalogue (catalogue.hpp), made from the registry's type list, and the
// strategy choice's lookups.
#include "mdremap/remap/catalogue.hpp"

#include <memory>

#include "mdremap/remap/registry.hpp"
#include "mdremap/remap/reorders.hpp"

namespace mdremap::remap {

namespace {

std::unique_ptr<const std::vector<StrategyInfo>>& installed() {
  static std::unique_ptr<const std::vector<StrategyInfo>> c;
  return c;
}

}  // namespace

const std::vector<StrategyInfo>& strategy_catalogue() {
  if (installed()) return *installed();
  static const std::vector<StrategyInfo> c = catalogue_of<DefaultStrategies>();
  return c;
}

void install_strategy_catalogue(std::vector<StrategyInfo> c) {
  installed() = std::make_unique<const std::vector<StrategyInfo>>(std::move(c));
}

const StrategyInfo& find_strategy(const std::string& name) {
  for (const auto& s : strategy_catalogue())
    if (s.name == name) return s;
  throw Error("unknown remap mode '" + name + "' (one of: " + strategy_list(", ") + ")");
}

std::vector<std::string> strategy_names() {
  std::vector<std::string> n;
  for (const auto& s : strategy_catalogue()) n.push_back(s.name);
  return n;
}

std::string strategy_list(const char* sep) {
  std::string s;
  for (const auto& n : strategy_names()) s += (s.empty() ? "" : sep) + n;
  return s;
}

std::vector<RemapKey> remap_keys() {
  std::vector<RemapKey> keys;
  auto add = [&keys](const std::vector<RemapKey>& ks) {
    for (const auto& k : ks) {
      bool seen = false;
      for (const auto& have : keys) seen = seen || have.name == k.name;
      if (!seen) keys.push_back(k);
    }
  };
  for (const auto& s : strategy_catalogue()) add(s.keys);
  for (const auto& r : reorder_catalogue()) add(r.keys);
  return keys;
}

StrategyChoice::StrategyChoice(const std::string& name) {
  const StrategyInfo& s = find_strategy(name);
  name_ = s.name;
  gather_ = s.gather;
  chooses_ = s.chooses;
  selections_ = s.runs_selections;
}

StrategyChoice::StrategyChoice(const char* name) : StrategyChoice(std::string(name)) {}

Applicability StrategyChoice::applies(const RemapOptions& o) const {
  return find_strategy(name_).applies(o);
}

void StrategyChoice::check(const RemapOptions& o) const {
  find_strategy(name_).validate(o);
}

}  // namespace mdremap::remap

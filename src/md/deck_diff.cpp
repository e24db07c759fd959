#include "md/deck_diff.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <utility>

#include "mdremap/error.hpp"

namespace mdremap::md {

namespace {

using Flat = std::vector<std::pair<std::string, std::string>>;  // key path, value text

// A sequence of scalars (cells: [6, 6, 6]) is one value; a sequence of maps (types) is walked
// entry by entry.
std::string text_of(const YAML::Node& n) {
  if (n.IsScalar()) return n.Scalar();
  if (n.IsNull() || !n.IsDefined()) return "";
  YAML::Emitter out;
  out << YAML::Flow << n;
  return out.c_str();
}

void flatten(const YAML::Node& n, const std::string& path, Flat& out) {
  const bool maps = n.IsSequence() &&
                    std::any_of(n.begin(), n.end(), [](const YAML::Node& e) { return e.IsMap(); });
  if (n.IsMap()) {
    for (auto it = n.begin(); it != n.end(); ++it)
      flatten(it->second, path + "." + it->first.Scalar(), out);
  } else if (maps) {
    for (std::size_t i = 0; i < n.size(); ++i) flatten(n[i], fmt::format("{}[{}]", path, i), out);
  } else {
    out.emplace_back(path, text_of(n));
  }
}

// The keys a checkpoint replaces (restart_engine takes x, v, type, id, image and the box).
bool replaced(const std::string& key) {
  for (const char* p : {"system.lattice.", "system.random.", "velocity."})
    if (key.rfind(p, 0) == 0) return true;
  for (const char* k : {"system.file", "system.type_seed", "system.shuffle", "system.shuffle_seed"})
    if (key == k) return true;
  return key.rfind("system.types[", 0) == 0 && key.size() > 9 &&
         key.compare(key.size() - 9, 9, ".fraction") == 0;
}

Flat flat_keys(const std::string& yaml) {
  Flat all;
  YAML::Node root = YAML::Load(yaml);
  if (root.IsMap())
    for (auto it = root.begin(); it != root.end(); ++it)
      flatten(it->second, it->first.Scalar(), all);
  return all;
}

const std::string* find(const Flat& f, const std::string& key) {
  for (const auto& kv : f)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

Flat replaced_keys(const std::string& yaml) {
  Flat out;
  for (auto& kv : flat_keys(yaml))
    if (replaced(kv.first)) out.push_back(std::move(kv));
  return out;
}

}  // namespace

std::vector<std::string> restart_ignored_keys(const std::string& deck_yaml,
                                              const std::string& checkpoint_yaml) {
  Flat now, then;
  try {
    now = replaced_keys(deck_yaml);
    then = replaced_keys(checkpoint_yaml);
  } catch (const YAML::Exception&) {
    return {};  // a checkpoint without a readable deck: nothing to compare with
  }
  std::vector<std::string> out;
  for (const auto& [key, value] : now) {
    const std::string* old = find(then, key);
    if (old == nullptr)
      out.push_back(fmt::format("{} {} (the checkpoint's run: unset)", key, value));
    else if (*old != value)
      out.push_back(fmt::format("{} {} (the checkpoint's run: {})", key, value, *old));
  }
  return out;
}

std::string first_difference(const std::string& mine, const std::string& other,
                             const std::string& other_name) {
  if (mine == other) return "";
  Flat a, b;
  try {
    a = flat_keys(mine);
    b = flat_keys(other);
  } catch (const YAML::Exception&) {
    return "the resolved decks differ";
  }
  auto shown = [](const std::string* v) { return v ? "'" + shown_value(*v) + "'" : "unset"; };
  for (const auto& [key, value] : a)
    if (const std::string* o = find(b, key); !o || *o != value)
      return fmt::format("{} is {} here, {} on {}", key, shown(&value), shown(o), other_name);
  for (const auto& [key, value] : b)
    if (!find(a, key))
      return fmt::format("{} is unset here, {} on {}", key, shown(&value), other_name);
  return "";
}

}  // namespace mdremap::md

#pragma once
// Strict YAML deck reading: every key an app reads is recorded, so keys nobody asked for are
// errors that name the nearest valid key; every value used (defaults included) is recorded in
// the resolved deck that is printed at start and stored with trajectories and checkpoints.
#include <yaml-cpp/yaml.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "io/number.hpp"
#include "mdremap/error.hpp"

namespace mdremap::io {

// Levenshtein distance; used to suggest the nearest valid key or flag.
int edit_distance(const std::string& a, const std::string& b);
// The candidate nearest to `word`, or "" if none is plausibly meant.
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);

struct DeckSource;

// A map node of the deck (a section). Values are read with get/require; `finish()` rejects keys
// that were never read.
class DeckSection {
 public:
  DeckSection(std::shared_ptr<DeckSource> src, YAML::Node node, YAML::Node resolved,
              std::string path);

  template <class T>
  T get(const std::string& key, const T& fallback);
  template <class T>
  T require(const std::string& key);
  // get() of a number within [lo, hi]; outside it, fail() with check_range's words.
  template <class T>
  T ranged(const std::string& key, T fallback, T lo, T hi) {
    const T v = get<T>(key, fallback);
    const std::string problem = check_range(v, lo, hi);
    if (!problem.empty()) fail(key, problem);
    return v;
  }
  bool has(const std::string& key) const;
  // A child map; an absent key gives an empty section whose defaults are still recorded.
  DeckSection section(const std::string& key);
  // A sequence of maps (e.g. types); each element is its own strict section.
  std::vector<DeckSection> list(const std::string& key);
  // Declares a key as valid without reading it here (read by another layer).
  void allow(const std::string& key) { known_.insert(key); }
  void finish() const;

  // One-line error at the location of `key` (or of this section if the key is absent).
  [[noreturn]] void fail(const std::string& key, const std::string& problem) const;
  // The deck line of `key` (of this section if the key is absent); 0 where unknown.
  int line_of_key(const std::string& key) const;
  std::string path_of(const std::string& key) const {
    return path_.empty() ? key : path_ + "." + key;
  }
  YAML::Node raw(const std::string& key) const { return node_[key]; }

 private:
  YAML::Node child(const std::string& key) const;
  template <class T>
  T scalar(const std::string& key, const YAML::Node& n) const;
  std::shared_ptr<DeckSource> src_;
  YAML::Node node_;
  YAML::Node resolved_;
  std::string path_;
  mutable std::set<std::string> known_;
};

// A whole deck: file contents plus `--set key=value` overrides.
class Deck {
 public:
  // Loads and parses `file`; a missing, empty or oversized file, a directory, a YAML syntax
  // error, a second document or a duplicate key is an InputError naming the file and line.
  static Deck from_file(const std::string& file);
  static Deck from_string(const std::string& text, const std::string& name = "<string>");
  // `key=value` with a dotted key; the value is parsed as YAML (numbers, lists, maps). Problems
  // with it are reported as `origin` (default "--set KEY"; e.g. "--steps" for a flag that sets
  // a deck key). An empty value is refused.
  void apply_override(const std::string& assignment, const std::string& origin = "");
  // Sets `key` to the string `text` as given, never parsed as YAML (a path from a flag:
  // `--matrix 'a #b.mtx'` names that file). Problems are reported as `origin` ("--matrix").
  void set_string(const std::string& key, const std::string& text, const std::string& origin);
  DeckSection root();
  // The resolved deck as YAML text (after the app has read everything).
  std::string resolved_yaml() const;
  const std::string& file() const;

 private:
  void put(const std::string& key, const YAML::Node& value, const std::string& where);
  std::shared_ptr<DeckSource> src_;
  YAML::Node doc_;
  YAML::Node resolved_;
};

// A key whose value must be one of `allowed` (default `fallback`): the value, or a clear error
// naming the nearest allowed value and listing them all.
std::string one_of(DeckSection& s, const std::string& key, const std::string& fallback,
                   const std::vector<std::string>& allowed);

}  // namespace mdremap::io

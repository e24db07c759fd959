#pragma once
// What a deck's `remap:` section chooses (BRIEF section 5), and how a key of it is declared. Each
// strategy and reorder declares the keys it reads next to its class (keys()); the one reader
// (remap_deck.hpp) reads them for every app, and the command-line flags are made from the same
// declarations. No Kokkos here.
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "mdremap/remap/options.hpp"
#include "mdremap/remap/strategy_choice.hpp"

namespace mdremap::remap {

// remap.reorder: the order of the app's threads (reorders.hpp holds the registry).
enum class Reorder { None, Spatial, Variable, LabelProp, LabelPropHost, Partition, Auto };

// A key whose deck values are auto | on | off.
enum class Toggle { Off, On, Auto };

// The section as read: the strategy, the reorder, the strategies' options, and the choices an
// app resolves itself from its first pattern.
struct RemapSettings {
  StrategyChoice mode{"gather"};
  Reorder reorder = Reorder::None;
  RemapOptions options;
  // gather_path auto: the app chooses the path from its first pattern (seed 003 Algorithm 3).
  bool path_auto = false;
  // lanes auto: the app chooses the lanes a thread from its first pattern (lanes_for).
  bool lanes_auto = false;
  // plan_overlap: read as a Toggle, resolved into options.plan_overlap (auto: on for a device
  // backend, where the planner's kernels overlap the executions).
  Toggle plan_overlap = Toggle::Off;
  // Cache-fit part size of reorder partition and of throttle's parts (seed 002); 0: a share of
  // the device's L2 (default_partition_bytes()).
  std::int64_t partition_bytes = 0;
};

enum class KeyKind { Int, Int64, Real, Bool, Choice };

// One key of the `remap:` section: its name, type, bounds, help, the flag that sets it, and
// where its value lives in RemapSettings (get gives an app's default, set stores the deck's).
struct RemapKey {
  std::string name;
  KeyKind kind = KeyKind::Int;
  std::string help;                 // one line, for --help
  std::vector<std::string> values;  // Choice: accepted values (an app may narrow them)
  // Choice: a few words on a value, shown beside it in --help where the app accepts it.
  std::map<std::string, std::string> notes;
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  std::string problem;  // the message for a value out of bounds ("" = io::check_range's)
  std::string flag;     // "--chunks": a command-line flag sets it; "" none
  std::function<long long(const RemapSettings&)> get_int;
  std::function<void(RemapSettings&, long long)> set_int;
  std::function<double(const RemapSettings&)> get_real;
  std::function<void(RemapSettings&, double)> set_real;
  std::function<bool(const RemapSettings&)> get_bool;
  std::function<void(RemapSettings&, bool)> set_bool;
  std::function<std::string(const RemapSettings&)> get_text;
  std::function<void(RemapSettings&, const std::string&)> set_text;
  // Once every key is read: a problem with this key's value given the others, or "".
  std::function<std::string(const RemapSettings&)> check;

  static RemapKey integer(std::string name, std::string help,
                          std::function<long long(const RemapSettings&)> get,
                          std::function<void(RemapSettings&, long long)> set);
  static RemapKey integer64(std::string name, std::string help,
                            std::function<long long(const RemapSettings&)> get,
                            std::function<void(RemapSettings&, long long)> set);
  static RemapKey real(std::string name, std::string help,
                       std::function<double(const RemapSettings&)> get,
                       std::function<void(RemapSettings&, double)> set);
  static RemapKey boolean(std::string name, std::string help,
                          std::function<bool(const RemapSettings&)> get,
                          std::function<void(RemapSettings&, bool)> set);
  static RemapKey choice(std::string name, std::string help, std::vector<std::string> values,
                         std::function<std::string(const RemapSettings&)> get,
                         std::function<void(RemapSettings&, const std::string&)> set);
  RemapKey& within(double lo, double hi, std::string problem, bool lo_open = false);
  RemapKey& at_least(double lo, std::string problem);
  RemapKey& with_flag(std::string flag);
  RemapKey& noting(const std::string& value, std::string note);
  RemapKey& checked(std::function<std::string(const RemapSettings&)> c);
};

// Keys more than one strategy or reorder reads, declared once.
RemapKey cache_key();            // dup, padding, sharing: the remap cache (seed 000 §5.2)
RemapKey block_key();            // sharing's block, labelprop's cluster size
RemapKey partition_bytes_key();  // reorder partition and throttle's parts (seed 002)

// Deck spelling (the reorders': reorders.hpp).
const char* to_string(Toggle t);

}  // namespace mdremap::remap

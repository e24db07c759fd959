#pragma once
// The strategies by name, with what the front door needs of each (BRIEF section 3: a name ->
// factory registry): name, one line of help, the deck keys it reads, its applicability and its
// traits. It is made from the registry's type list (registry.hpp: catalogue_of) in
// remap/catalogue.cpp; the deck reader, the flags, the help texts and the apps read it here,
// with no Kokkos.
#include <functional>
#include <string>
#include <vector>

#include "mdremap/remap/settings.hpp"

namespace mdremap::remap {

struct StrategyInfo {
  std::string name;
  std::string help;
  std::vector<RemapKey> keys;  // the `remap:` keys it reads
  std::function<Applicability(const RemapOptions&)> applies;
  // Makes the strategy (for float data, allocating nothing) and drops it: its constructor's
  // refusal of the options, thrown.
  std::function<void(const RemapOptions&)> validate;
  bool gather = false;           // StrategyChoice::is_gather
  bool chooses = false;          // StrategyChoice::chooses
  bool runs_selections = false;  // StrategyChoice::runs_selections
};

// The registered strategies, in registry order (auto's profiling order, auto last).
const std::vector<StrategyInfo>& strategy_catalogue();
// The entry of `name`; Error "unknown remap mode ..." for another.
const StrategyInfo& find_strategy(const std::string& name);
std::vector<std::string> strategy_names();
// "gather | dup | ..." for help texts.
std::string strategy_list(const char* sep = " | ");
// Every strategy's keys, then the reorders' (reorders.hpp), each name once, in that order.
std::vector<RemapKey> remap_keys();

// The catalogue of a binary whose strategies come from another type list than StrategyTypes
// (catalogue_of<R>() in registry.hpp): its deck readers, flags and help then list that list.
void install_strategy_catalogue(std::vector<StrategyInfo> c);

}  // namespace mdremap::remap

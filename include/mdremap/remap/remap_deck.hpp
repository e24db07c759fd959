#pragma once
// The one reader of a deck's `remap:` section, for every app (BRIEF section 5): the strategy
// (remap.mode), the reorder, and every key the registered strategies and reorders declare
// (catalogue.hpp, reorders.hpp), each checked against its bounds and the other keys, into
// RemapSettings. The app passes its defaults and says what of the layer its kernel serves; it
// keeps only its own constraints (and its own keys of the section, read before finish()).
#include <map>
#include <string>
#include <vector>

#include "mdremap/remap/catalogue.hpp"
#include "mdremap/remap/reorders.hpp"

namespace mdremap::io {
class DeckSection;
}

namespace mdremap::remap {

struct RemapApp {
  // The app's defaults, and its kernel (defaults.options: reference patterns, writes through
  // the pattern, horizon, the kernel's name for messages).
  RemapSettings defaults;
  std::vector<Reorder> reorders{Reorder::None};  // the reorders it serves, in listing order
  // Keys of the layer its kernel cannot serve: not read, so a deck naming one is refused as an
  // unknown key.
  std::vector<std::string> without;
  // A choice key's values narrowed to those the app serves (a subset of the key's, in order).
  std::map<std::string, std::vector<std::string>> values;
  // The --remap and --reorder help, before the generated list of values.
  std::string mode_help = "Remap strategy";
  std::string reorder_help = "Thread reordering";
};

// The keys `app` reads, in the order they are read (remap_keys() less app.without).
std::vector<RemapKey> app_keys(const RemapApp& app);
// The values `app` accepts for choice key k.
std::vector<std::string> app_values(const RemapApp& app, const RemapKey& k);

// Reads `rm` (the deck's `remap:` section) into the app's defaults; bad values are InputErrors
// at their key. Does not finish() the section: the app reads its own keys of it first.
RemapSettings read_remap(io::DeckSection& rm, const RemapApp& app);

}  // namespace mdremap::remap

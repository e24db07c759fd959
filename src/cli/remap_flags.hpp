#pragma once
// The remap layer's flags of `md`, `cg`, `sp` and `compare` (BRIEF section 5), made from the
// layer's key declarations (mdremap/remap/remap_deck.hpp): --remap, --reorder, and the flag of
// every key the app reads that declares one. Each sets its key under `remap:`, so the strict deck
// reader validates it and names the flag in its message.
#include <map>
#include <string>

namespace CLI {
class App;
}
namespace mdremap::io {
class Deck;
}
namespace mdremap::remap {
struct RemapApp;
}

namespace mdremap::cli {

struct RemapFlags {
  std::map<std::string, std::string> values;  // deck key under remap: -> the flag's text
  // A bad value's message names the flag (md, compare), or the key as --set does (cg, sp).
  bool name_flags = true;
  // The text given for `key`, or "".
  std::string value(const std::string& key) const;
};

// with_mode: --remap too (compare takes --modes instead).
void add_remap_flags(CLI::App* cmd, RemapFlags& f, const remap::RemapApp& app, bool with_mode);
void apply_remap_flags(const RemapFlags& f, io::Deck& deck);

}  // namespace mdremap::cli

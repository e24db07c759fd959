#pragma once
// The remap-layer flags shared by `md` and `compare` (BRIEF section 5); each maps to a deck key
// under `remap:` so the strict deck reader validates them.
#include <string>
#include <vector>

namespace CLI {
class App;
}
namespace mdremap::io {
class Deck;
}

namespace mdremap::cli {

struct RemapFlags {
  std::string remap, reorder, gather_path;
  int chunks = 0, streams = 0;
  double dup_fraction = 0;
};

void add_remap_flags(CLI::App* cmd, RemapFlags& f, bool with_mode);
void apply_remap_flags(const RemapFlags& f, io::Deck& deck);

}  // namespace mdremap::cli

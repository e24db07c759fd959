#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cli/remap_flags.hpp"

namespace CLI {
class App;
}

namespace mdremap::cli {

struct MdOptions {
  std::string deck;
  std::vector<std::string> sets;
  std::int64_t steps = -1;
  std::string precision;
  std::string backend;
  std::string thermo_csv;
  std::string summary;
  std::string restart;  // checkpoint to continue from
  bool quiet = false;
  bool shuffle = false;
  bool minimize_only = false;  // `mdremap minimize`: the minimisation alone (run.steps = 0)
  RemapFlags remap;
};

void add_md_command(CLI::App& app, MdOptions& o);
// `mdremap minimize DECK`: the deck's system minimised (its `minimize:` section, FIRE without
// one) and written to the deck's outputs as one frame; no dynamics.
void add_minimize_command(CLI::App& app, MdOptions& o);
int run_md(const MdOptions& o);

}  // namespace mdremap::cli

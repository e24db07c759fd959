#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cli/remap_flags.hpp"

namespace CLI {
class App;
}

namespace mdremap::cli {

struct CompareOptions {
  std::string deck;
  std::string modes = "gather,dup,sharing,auto";
  std::vector<std::string> sets;
  std::string precision;
  std::string csv, plot;
  int steps = 100;  // steps of each mode's run (setup + steps are timed)
  int rounds = 3;   // interleaved rounds; the table shows medians
  int repeats = 5;  // fenced force evaluations for the remap / compute split
  bool shuffle = false;
  bool quiet = false;
  RemapFlags remap;  // --reorder takes a comma list here
};

void add_compare_command(CLI::App& app, CompareOptions& o);
int run_compare(const CompareOptions& o);

}  // namespace mdremap::cli

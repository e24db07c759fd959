#pragma once
#include <string>
#include <vector>

#include "cli/remap_flags.hpp"

namespace CLI {
class App;
}

namespace mdremap::cli {

struct SpOptions {
  std::string deck;
  std::string cnf;  // overrides formula.source
  std::vector<std::string> sets;
  RemapFlags remap;            // --remap, --reorder and the strategies' flags
  std::string assignment_out;  // DIMACS solution format
  std::string summary;         // JSON
  std::string write_cnf;       // write the formula as DIMACS and exit
  std::string backend;
  bool quiet = false;
};

void add_sp_command(CLI::App& app, SpOptions& o);
int run_sp(const SpOptions& o);

}  // namespace mdremap::cli

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
  RemapFlags remap;
};

void add_md_command(CLI::App& app, MdOptions& o);
int run_md(const MdOptions& o);

}  // namespace mdremap::cli

#pragma once
#include <cstdint>
#include <string>
#include <vector>

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
  bool quiet = false;
  bool shuffle = false;
};

void add_md_command(CLI::App& app, MdOptions& o);
int run_md(const MdOptions& o);

}  // namespace mdremap::cli

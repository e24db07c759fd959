#pragma once
#include <string>

namespace CLI {
class App;
}

namespace mdremap::cli {

struct InfoOptions {
  std::string summary;  // the same information as JSON
};

void add_info_command(CLI::App& app, InfoOptions& o);
int run_info(const InfoOptions& o);

}  // namespace mdremap::cli

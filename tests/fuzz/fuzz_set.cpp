// libFuzzer harness: arbitrary bytes as `--set key=value` overrides (one per line) on a small
// valid deck, then the MD parameter validation. Bad input must end in mdremap::Error.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "io/deck.hpp"
#include "md/params.hpp"
#include "mdremap/error.hpp"

namespace {
const char* const kBase =
    "system:\n"
    "  lattice: {style: fcc, density: 0.8442, cells: [6, 6, 6]}\n"
    "run: {steps: 20, thermo: 10}\n";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  try {
    auto deck = mdremap::io::Deck::from_string(kBase, "base.yaml");
    int count = 0;
    for (std::string line; std::getline(lines, line) && count < 16; ++count)
      deck.apply_override(line);
    static_cast<void>(mdremap::md::read_md_params(deck));
  } catch (const mdremap::Error&) {
  }
  return 0;
}

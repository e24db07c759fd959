// libFuzzer harness: arbitrary bytes as a YAML deck, through the strict deck reader and the MD
// parameter validation. Bad input must end in mdremap::Error (one clear line); anything else (a
// crash, a sanitizer report, another exception, a hang) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "io/deck.hpp"
#include "md/params.hpp"
#include "mdremap/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    auto deck = mdremap::io::Deck::from_string(text, "fuzz.yaml");
    const mdremap::md::MdParams p = mdremap::md::read_md_params(deck);
    static_cast<void>(deck.resolved_yaml());
    static_cast<void>(p.natoms());
  } catch (const mdremap::Error&) {
  }
  return 0;
}

// libFuzzer harness: arbitrary bytes as a DIMACS CNF file through the SP reader. Bad input must end
// in mdremap::Error (warnings go to the notes).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "mdremap/error.hpp"
#include "sp/cnf.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    mdremap::sp::CnfNotes notes;
    static_cast<void>(mdremap::sp::read_cnf(in, "fuzz.cnf", &notes));
  } catch (const mdremap::Error&) {
  }
  return 0;
}

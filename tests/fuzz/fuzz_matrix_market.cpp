// libFuzzer harness: arbitrary bytes as a Matrix Market file through the CG reader and the checks
// a matrix given to CG passes. Bad input must end in mdremap::Error.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "cg/matrix_market.hpp"
#include "mdremap/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const auto m = mdremap::cg::read_matrix_market(in, "fuzz.mtx");
    static_cast<void>(mdremap::cg::cg_matrix(m));
  } catch (const mdremap::Error&) {
  }
  return 0;
}

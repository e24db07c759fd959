// libFuzzer harness: arbitrary bytes as an extended XYZ file (system.file), its last frame through
// its reader and the checks every system file gets. Bad input must end in mdremap::Error.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "io/particle_file.hpp"
#include "mdremap/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    mdremap::io::check_particle_file(mdremap::io::read_xyz(in, "fuzz.xyz", -1));
  } catch (const mdremap::Error&) {
  }
  return 0;
}

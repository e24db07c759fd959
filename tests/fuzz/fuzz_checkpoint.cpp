// libFuzzer harness: arbitrary bytes as a restart checkpoint file (HDF5), through the checkpoint
// reader. Bad input must end in mdremap::Error naming the file.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "io/checkpoint.hpp"
#include "mdremap/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // HDF5 reads files by name: the bytes go to a per-process temporary file.
  static const std::string path =
      (std::filesystem::temp_directory_path() /
       ("mdremap-fuzz-checkpoint-" + std::to_string(::getpid()) + ".h5"))
          .string();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return 0;
  const bool ok = std::fwrite(data, 1, size, f) == size;
  std::fclose(f);
  if (!ok) return 0;
  try {
    static_cast<void>(mdremap::io::read_checkpoint(path));
  } catch (const mdremap::Error&) {
  }
  return 0;
}

#include "io/paths.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "mdremap/error.hpp"

namespace mdremap::io {

namespace fs = std::filesystem;

void check_writable(const std::string& path) {
  const auto fail = [&](const std::string& why) {
    throw Error("cannot write output '" + path + "': " + why);
  };
  if (path.empty()) fail("empty path");
  const fs::path target(path);
  fs::path dir = target.parent_path();
  if (dir.empty()) dir = ".";

  std::error_code ec;
  const auto dir_status = fs::status(dir, ec);
  if (!fs::exists(dir_status))
    fail("directory '" + dir.string() + "' does not exist (create it first)");
  if (!fs::is_directory(dir_status)) fail("'" + dir.string() + "' is not a directory");
  // access() honours read-only mounts (EROFS) and permissions as the kernel would apply them.
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    fail("directory '" + dir.string() + "' is not writable (" + std::strerror(errno) + ")");

  const auto file_status = fs::status(target, ec);
  if (fs::is_directory(file_status)) fail("it is a directory");
  if (fs::exists(file_status) && ::access(target.c_str(), W_OK) != 0)
    fail("existing file is not writable (" + std::string(std::strerror(errno)) + ")");
}

}  // namespace mdremap::io

#include "io/paths.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fcntl.h>
#include <sys/file.h>

#include "io/staged_file.hpp"
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
  {
    const auto st = fs::status(target, ec);
    if (fs::exists(st) && !fs::is_regular_file(st) && !fs::is_directory(st)) {
      if (::access(target.c_str(), W_OK) != 0)
        fail("it is not writable (" + std::string(std::strerror(errno)) + ")");
      return;  // a device or pipe, written in place: its directory does not matter
    }
  }
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

namespace {

fs::path resolved(const std::string& path) {
  std::error_code ec;
  fs::path abs = fs::absolute(path, ec);
  if (ec) abs = fs::path(path);
  fs::path r = fs::weakly_canonical(abs, ec);
  return ec ? abs.lexically_normal() : r;
}

bool same_file(const fs::path& a, const fs::path& b) {
  if (a == b) return true;
  std::error_code ec;
  return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

// `name` is one of the files an output directory with stem `stem` holds: stem.pvd or
// stem_<digits>.vtp, either possibly with the staging suffix.
bool in_pattern(std::string name, const std::string& stem) {
  const std::string partial = StagedFile::kSuffix;
  if (name.size() > partial.size() &&
      name.compare(name.size() - partial.size(), partial.size(), partial) == 0)
    name.resize(name.size() - partial.size());
  if (name == stem + ".pvd") return true;
  const std::string head = stem + "_", tail = ".vtp";
  if (name.size() <= head.size() + tail.size() || name.rfind(head, 0) != 0 ||
      name.compare(name.size() - tail.size(), tail.size(), tail) != 0)
    return false;
  for (std::size_t i = head.size(); i < name.size() - tail.size(); ++i)
    if (name[i] < '0' || name[i] > '9') return false;
  return true;
}

struct Resolved {
  const PathUse* use;
  fs::path file;
  bool staging;  // the output's PATH.partial
};

}  // namespace

void check_distinct(const std::vector<PathUse>& uses) {
  std::vector<Resolved> all;
  for (const auto& u : uses) {
    if (u.path.empty()) continue;
    const fs::path r = resolved(u.path);
    std::error_code ec;
    const auto st = fs::status(r, ec);
    if (u.output && (u.path.rfind("/dev/", 0) == 0 || u.path.rfind("/proc/", 0) == 0 ||
                     (fs::exists(st) && !fs::is_regular_file(st) && !fs::is_directory(st))))
      continue;  // a device or pipe (/dev/null, /dev/stdout): written in place (StagedFile)
    all.push_back({&u, r, false});
    if (u.output && u.basename.empty())
      all.push_back({&u, fs::path(r.string() + StagedFile::kSuffix), true});
  }
  auto clash = [](const Resolved& a, const Resolved& b) {
    const bool a_dir = !a.use->basename.empty(), b_dir = !b.use->basename.empty();
    if (a_dir && b_dir) return same_file(a.file, b.file) && a.use->basename == b.use->basename;
    if (a_dir)
      return same_file(b.file.parent_path(), a.file) &&
             in_pattern(b.file.filename().string(), a.use->basename);
    if (b_dir)
      return same_file(a.file.parent_path(), b.file) &&
             in_pattern(a.file.filename().string(), b.use->basename);
    return same_file(a.file, b.file);
  };
  for (std::size_t j = 0; j < all.size(); ++j)
    for (std::size_t i = 0; i < j; ++i) {
      const Resolved& a = all[i];
      const Resolved& b = all[j];
      if (a.use == b.use || (!a.use->output && !b.use->output) || !clash(a, b)) continue;
      const bool over_input = !a.use->output || !b.use->output;
      const std::string why = over_input ? ": an output must not overwrite an input"
                                         : ": two outputs of one run cannot share a file";
      // A file inside an output directory's pattern: reported under the file's role.
      const bool a_dir = !a.use->basename.empty(), b_dir = !b.use->basename.empty();
      if (a_dir != b_dir) {
        const PathUse& dir = a_dir ? *a.use : *b.use;
        const PathUse& file = a_dir ? *b.use : *a.use;
        throw InputError(file.role, 0,
                         "'" + file.path + "' is one of the files of " + dir.role + " '" +
                             dir.path + "' (" + dir.basename + ".pvd, " + dir.basename +
                             "_<step>.vtp)" + why);
      }
      const PathUse& first = *a.use;
      const PathUse& second = *b.use;
      std::string what = "'" + second.path + "'";
      if (b.staging) what = "the temporary file of '" + second.path + "' (" + b.file.string() + ")";
      std::string other = first.role + " '" + first.path + "'";
      if (a.staging) other = "the temporary file of " + other;
      throw InputError(second.role, 0, what + " is the same file as " + other + why);
    }
}

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Another process holds the lock of `path` (a StagedFile's staging file while its run lives).
bool locked_by_another_run(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  const bool busy = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);
  return busy;
}

}  // namespace

bool same_path(const std::string& a, const std::string& b) {
  return !a.empty() && !b.empty() && same_file(resolved(a), resolved(b));
}

void check_outputs(const std::vector<PathUse>& uses) {
  const std::string partial = StagedFile::kSuffix;
  for (const auto& u : uses) {
    if (!u.output || u.path.empty()) continue;
    const std::string file = u.basename.empty() ? u.path : u.path + "/" + u.basename + ".pvd";
    try {
      check_writable(file);
    } catch (const InputError&) {
      throw;
    } catch (const Error& e) {
      throw InputError(u.role, 0, e.what());
    }
  }
  check_distinct(uses);
  for (const auto& u : uses) {
    if (!u.output || u.path.empty() || !u.basename.empty()) continue;
    // A staging file is its run's: written into, it would be renamed over that run's output.
    const std::string real = resolved(u.path).string();
    const std::string& named = ends_with(u.path, partial) ? u.path : real;
    if (!ends_with(named, partial)) continue;
    const std::string owner = named.substr(0, named.size() - partial.size());
    if (locked_by_another_run(named))
      throw InputError(u.role, 0,
                       "'" + u.path +
                           "' is being written by another run (it is the temporary "
                           "file of '" +
                           owner + "'): give this output another name");
    throw InputError(u.role, 0,
                     "'" + u.path + "' ends in '" + partial + "', the name mdremap writes '" +
                         owner +
                         "' under until it is complete (an interrupted run's file is "
                         "kept to continue it): give this output another name");
  }
}

}  // namespace mdremap::io

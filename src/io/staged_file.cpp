#include "io/staged_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <utility>
#include <vector>

#include "io/checked_write.hpp"

namespace mdremap::io {

namespace {

std::mutex& note_mutex() {
  static std::mutex m;
  return m;
}
std::function<void(const std::string&)>& note_handler() {
  static std::function<void(const std::string&)> h;
  return h;
}

std::string errno_text() {
  return std::strerror(errno);
}

// The descriptor still names `path` (its previous holder did not rename or remove it between
// our open and our lock).
bool same_file(int fd, const std::string& path) {
  struct stat a {};
  struct stat b {};
  return ::fstat(fd, &a) == 0 && ::stat(path.c_str(), &b) == 0 && a.st_dev == b.st_dev &&
         a.st_ino == b.st_ino;
}

// An output named through a symbolic link replaces the file the link points to (as writing
// through the link would), not the link itself; a link to nothing yet creates its target.
std::string through_link(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p(path);
  std::error_code ec;
  for (int hops = 0; hops < 40 && fs::is_symlink(p, ec); ++hops) {
    const fs::path to = fs::read_symlink(p, ec);
    if (ec) return path;
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  return p == fs::path(path) ? path : p.lexically_normal().string();
}

void sync_directory_of(const std::string& path) {
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // best effort: the rename itself is already atomic
  static_cast<void>(::fsync(fd));
  ::close(fd);
}

}  // namespace

void StagedFile::set_note_handler(std::function<void(const std::string&)> handler) {
  std::lock_guard<std::mutex> lock(note_mutex());
  note_handler() = std::move(handler);
}

void StagedFile::note(const std::string& line) {
  std::lock_guard<std::mutex> lock(note_mutex());
  if (note_handler()) {
    note_handler()(line);
  } else {
    std::fprintf(stderr, "note: %s\n", line.c_str());
    std::fflush(stderr);
  }
}

StagedFile::StagedFile(std::string target) : StagedFile(std::move(target), Start::Empty) {}

StagedFile::StagedFile(std::string target, Start start)
    : target_(std::move(target)),
      real_(through_link(target_)),
      staging_(staging_name(real_)),
      keep_(start == Start::Continue) {
  if (target_.empty()) throw Error("output: empty path");
  // A device or pipe (/dev/null, /dev/stdout) is written directly: there is no file to keep
  // whole, and renaming over it would replace the device node (or, for /dev/stdout redirected to
  // a file, the file the shell holds open).
  struct stat st {};
  const auto system_node = [](const std::string& p) {
    return p.rfind("/dev/", 0) == 0 || p.rfind("/proc/", 0) == 0;
  };
  const bool special = system_node(target_) || system_node(real_);
  if (special ||
      (::stat(real_.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))) {
    direct_ = true;
    staging_ = target_;
    return;
  }
  acquire();
}

StagedFile::~StagedFile() {
  // Never written to (the run failed before its first write): leave no empty file behind.
  struct stat st {};
  if (fd_ >= 0 && ::fstat(fd_, &st) == 0 && st.st_size == 0 && same_file(fd_, staging_))
    ::unlink(staging_.c_str());
  release();
}

void StagedFile::acquire() {
  // Open (never truncate), lock, check the name still leads to what we locked, then empty it:
  // nothing is truncated before the lock is held.
  for (int attempt = 0; attempt < 16; ++attempt) {
    const int fd = ::open(staging_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
      throw Error("cannot write output '" + target_ + "': cannot create '" + staging_ + "' (" +
                  errno_text() + ")");
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK)
        throw OutputBusy(target_, 0,
                         "is being written by another running mdremap (it holds the lock on '" +
                             staging_ + "'): give this run other output names, or wait");
      throw Error("cannot lock '" + staging_ + "': " + std::strerror(err));
    }
    if (!same_file(fd, staging_)) {  // renamed into place or removed meanwhile: try again
      ::close(fd);
      continue;
    }
    struct stat st {};
    const bool left = ::fstat(fd, &st) == 0 && st.st_size > 0;
    if (keep_) {
      keep_ = false;
      fd_ = fd;
      if (left) {
        held_ = Held::Interrupted;
        note("continuing '" + staging_ + "', left by the interrupted run");
      } else {
        try {
          copy_target();
        } catch (...) {
          release();
          throw;
        }
      }
      return;
    }
    if (left)
      note("replacing '" + staging_ + "', left by an earlier run that stopped before finishing '" +
           target_ + "'");
    if (::ftruncate(fd, 0) != 0) {
      const std::string why = errno_text();
      ::close(fd);
      throw Error("cannot write output '" + target_ + "': cannot empty '" + staging_ + "' (" + why +
                  ")");
    }
    fd_ = fd;
    return;
  }
  throw Error("cannot lock '" + staging_ + "': it keeps being replaced by another process");
}

void StagedFile::copy_target() {
  const int in = ::open(real_.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return;  // nothing to continue: a new file
  struct stat st {};
  if (::fstat(in, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
    ::close(in);
    return;
  }
  std::vector<char> buf(1 << 20);
  try {
    for (;;) {
      const ssize_t got = ::read(in, buf.data(), buf.size());
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) throw Error("cannot read '" + target_ + "' to continue it: " + errno_text());
      if (got == 0) break;
      write_all(fd_, buf.data(), static_cast<std::size_t>(got), "'" + staging_ + "'");
    }
  } catch (...) {
    ::close(in);
    throw;
  }
  ::close(in);
  held_ = Held::Copy;
}

void StagedFile::release() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void StagedFile::commit(bool again) {
  if (direct_) return;
  if (fd_ < 0) throw Error("output '" + target_ + "': committed twice");
  sync_file(fd_, "output '" + target_ + "'");
  if (::rename(staging_.c_str(), real_.c_str()) != 0)
    throw Error("cannot write output '" + target_ + "': rename of '" + staging_ + "' failed (" +
                errno_text() + ")");
  sync_directory_of(real_);
  // The old descriptor now names the target: keep it until the next staging file is locked,
  // so no other run can slip in between.
  const int old = fd_;
  fd_ = -1;
  try {
    if (again) acquire();
  } catch (...) {
    ::close(old);
    throw;
  }
  ::close(old);
}

void StagedFile::discard() {
  if (fd_ < 0) return;
  if (same_file(fd_, staging_)) ::unlink(staging_.c_str());
  release();
}

void remove_stale_partial(const std::string& target) {
  const std::string staging = StagedFile::staging_name(through_link(target));
  const int fd = ::open(staging.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return;
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0 && same_file(fd, staging) &&
      ::unlink(staging.c_str()) == 0)
    StagedFile::note("removed '" + staging + "', left by a run that stopped while writing '" +
                     target + "'");
  ::close(fd);  // locked by a live run: it is that run's, left alone
}

}  // namespace mdremap::io

#include "io/checked_write.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "mdremap/error.hpp"

namespace mdremap::io {

namespace {

// MDREMAP_FAIL_WRITE_AFTER=N: the writes allowed before each later one fails with ENOSPC
// (-1: no fault injected). Read once; counted over the whole process.
long long writes_allowed() {
  static const long long allowed = [] {
    const char* s = std::getenv("MDREMAP_FAIL_WRITE_AFTER");
    if (s == nullptr || *s == '\0') return -1LL;
    char* end = nullptr;
    const long long n = std::strtoll(s, &end, 10);
    return end != s && *end == '\0' && n >= 0 ? n : -1LL;
  }();
  return allowed;
}

bool injected_failure() {
  static std::atomic<long long> done{0};
  const long long allowed = writes_allowed();
  return allowed >= 0 && done.fetch_add(1) >= allowed;
}

std::string reason(int err) {
  std::string r = std::strerror(err);
  if (err == ENOSPC || err == EDQUOT) r += ": the disk is full";
  return r;
}

}  // namespace

void write_all(int fd, const void* data, std::size_t bytes, const std::string& what,
               long long offset) {
  if (injected_failure())
    throw Error("cannot write " + what + ": " + reason(ENOSPC) + " (MDREMAP_FAIL_WRITE_AFTER)");
  const auto* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n =
        offset >= 0 ? ::pwrite(fd, p, bytes, static_cast<off_t>(offset)) : ::write(fd, p, bytes);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error("cannot write " + what + ": " + reason(errno));
    }
    if (n == 0) throw Error("cannot write " + what + ": " + reason(ENOSPC));
    p += n;
    bytes -= static_cast<std::size_t>(n);
    if (offset >= 0) offset += n;
  }
}

void sync_file(int fd, const std::string& what) {
  if (::fsync(fd) == 0 || errno == EINVAL || errno == EROFS) return;  // EINVAL: a pipe or device
  throw Error("cannot write " + what + ": " + reason(errno));
}

}  // namespace mdremap::io

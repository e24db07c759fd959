#include "io/staged_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ostream>
#include <streambuf>
#include <vector>

#include "io/checked_write.hpp"
#include "io/staged_file.hpp"
#include "mdremap/error.hpp"

namespace mdremap::io {

namespace {

// A stream buffer over a descriptor whose every write goes through write_all; the first
// failure is kept (a stream only sees EOF) and rethrown by finish().
class CheckedBuffer : public std::streambuf {
 public:
  CheckedBuffer(int fd, std::string what) : fd_(fd), what_(std::move(what)), buf_(1 << 16) {
    setp(buf_.data(), buf_.data() + buf_.size());
  }
  void finish() {
    drain();
    if (!error_.empty()) throw Error(error_);
  }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const std::size_t n = static_cast<std::size_t>(pptr() - pbase());
    setp(buf_.data(), buf_.data() + buf_.size());
    if (!error_.empty()) return false;
    try {
      if (n > 0) write_all(fd_, buf_.data(), n, what_);
    } catch (const Error& e) {
      error_ = e.what();
      return false;
    }
    return true;
  }
  int fd_;
  std::string what_;
  std::vector<char> buf_;
  std::string error_;
};

}  // namespace

void write_staged(StagedFile& out, const std::function<void(std::ostream&)>& fill) {
  const std::string what = "output '" + out.target() + "'";
  int fd = out.fd();
  const bool direct = fd < 0;  // a device or pipe: opened in place, appended to
  if (direct) fd = ::open(out.staging().c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) throw Error("cannot write " + what + ": " + std::strerror(errno));
  try {
    CheckedBuffer buf(fd, what);
    std::ostream stream(&buf);
    fill(stream);
    stream.flush();
    buf.finish();
  } catch (...) {
    if (direct) ::close(fd);
    throw;
  }
  if (direct && ::close(fd) != 0) throw Error("cannot write " + what + ": " + std::strerror(errno));
  out.commit();
}

void write_staged(const std::string& path, const std::function<void(std::ostream&)>& fill) {
  StagedFile out(path);
  try {
    write_staged(out, fill);
  } catch (...) {
    out.discard();
    throw;
  }
}

}  // namespace mdremap::io

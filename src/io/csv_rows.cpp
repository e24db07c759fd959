// A CSV time series written row by row (io/csv_rows.hpp).
#include "io/csv_rows.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "io/checked_write.hpp"
#include "io/staged_file.hpp"
#include "mdremap/error.hpp"

namespace mdremap::io {

void append_csv_number(std::string& line, double value) {
  char buf[32];
  const auto result = std::to_chars(buf, buf + sizeof(buf), value);
  line.append(buf, result.ptr);
}

CsvRows::CsvRows(const std::string& path, const std::string& header)
    : path_(path), staged_(std::make_unique<StagedFile>(path)) {
  fd_ = staged_->fd();
  if (fd_ < 0) {  // a device or pipe: written in place
    fd_ = ::open(staged_->staging().c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd_ < 0) throw Error("cannot open '" + path + "': " + std::strerror(errno));
    own_fd_ = true;
  }
  put(header + "\n");
}

CsvRows::~CsvRows() {
  if (own_fd_ && fd_ >= 0) ::close(fd_);
}

void CsvRows::put(const std::string& text) {
  if (fd_ < 0) throw Error("'" + path_ + "': write after close");
  write_all(fd_, text.data(), text.size(), "output '" + path_ + "'");
}

void CsvRows::write(std::int64_t step, std::initializer_list<double> values) {
  std::string line = std::to_string(step);
  for (const double v : values) {
    line += ',';
    append_csv_number(line, v);
  }
  put(line + "\n");
}

void CsvRows::close() {
  if (fd_ < 0) return;
  if (own_fd_ && ::close(fd_) != 0)
    throw Error("cannot write '" + path_ + "': " + std::strerror(errno));
  fd_ = -1;
  own_fd_ = false;
  staged_->commit();
}

}  // namespace mdremap::io

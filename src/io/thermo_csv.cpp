#include "io/thermo_csv.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>

#include "io/staged_file.hpp"
#include "mdremap/error.hpp"
#include "mdremap/thermo_columns.hpp"

namespace mdremap::io {

namespace {

// Shortest text that reads back to the same double: full precision without noise digits.
void append_number(std::string& line, double value) {
  char buf[32];
  const auto result = std::to_chars(buf, buf + sizeof(buf), value);
  line.append(buf, result.ptr);
}

}  // namespace

ThermoCsv::ThermoCsv(const std::string& path, std::vector<std::string> columns)
    : path_(path), staged_(std::make_unique<StagedFile>(path)), columns_(std::move(columns)) {
  std::string header = "step,temp,e_pair,ke,etotal,press";
  for (const auto& c : columns_) header += "," + c;
  header += "\n";
  file_ = std::fopen(staged_->staging().c_str(), "a");  // emptied already; "a": a device in place
  if (file_ == nullptr)
    throw Error("cannot open thermo file '" + path + "': " + std::strerror(errno));
  if (std::fputs(header.c_str(), file_) < 0 || std::fflush(file_) != 0)
    throw Error("cannot write thermo file '" + path + "': " + std::strerror(errno));
}

ThermoCsv::~ThermoCsv() {
  if (file_ != nullptr) std::fclose(file_);
}

void ThermoCsv::close() {
  if (file_ == nullptr) return;
  const bool ok = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!ok) throw Error("cannot write thermo file '" + path_ + "': " + std::strerror(errno));
  staged_->commit();
}

void ThermoCsv::write(const ThermoSample& s) {
  if (file_ == nullptr) throw Error("thermo file '" + path_ + "': write after close");
  std::string line = std::to_string(s.step);
  for (double value : {s.temp, s.e_pair, s.ke, s.etotal, s.press}) {
    line += ',';
    append_number(line, value);
  }
  for (const auto& c : columns_) {
    line += ',';
    append_number(line, find_thermo_column(c).value(s));
  }
  line += '\n';
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0)
    throw Error("cannot write thermo file '" + path_ + "': " + std::strerror(errno));
}

}  // namespace mdremap::io

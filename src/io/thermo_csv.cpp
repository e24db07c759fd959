#include "io/thermo_csv.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>

#include "mdremap/error.hpp"

namespace mdremap::io {

namespace {

// Shortest text that reads back to the same double: full precision without noise digits.
void append_number(std::string& line, double value) {
  char buf[32];
  const auto result = std::to_chars(buf, buf + sizeof(buf), value);
  line.append(buf, result.ptr);
}

}  // namespace

ThermoCsv::ThermoCsv(const std::string& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr)
    throw Error("cannot open thermo file '" + path + "': " + std::strerror(errno));
  if (std::fputs("step,temp,e_pair,ke,etotal,press\n", file_) < 0 || std::fflush(file_) != 0)
    throw Error("cannot write thermo file '" + path + "': " + std::strerror(errno));
}

ThermoCsv::~ThermoCsv() {
  if (file_ != nullptr) std::fclose(file_);
}

void ThermoCsv::write(const ThermoSample& s) {
  std::string line = std::to_string(s.step);
  for (double value : {s.temp, s.e_pair, s.ke, s.etotal, s.press}) {
    line += ',';
    append_number(line, value);
  }
  line += '\n';
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0)
    throw Error("cannot write thermo file '" + path_ + "': " + std::strerror(errno));
}

}  // namespace mdremap::io

#pragma once
// Reading a text file line by line with its line numbers, for the readers that name the line of
// a problem (io/lammps_data.cpp, io/xyz.cpp).
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "io/number.hpp"
#include "mdremap/error.hpp"

namespace mdremap::io {

class TextLines {
 public:
  TextLines(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}
  // The next line (a trailing '\r' removed); false at the end of the file.
  bool next(std::string& line) {
    if (!std::getline(in_, line)) return false;
    ++number_;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  }
  int number() const { return number_; }
  const std::string& name() const { return name_; }
  [[noreturn]] void fail(const std::string& problem) const {
    throw InputError(name_, number_, problem);
  }
  // `text` as a T, or an error on this line naming `what`.
  template <class T>
  T number_of(const std::string& text, const std::string& what) const {
    T v{};
    const std::string problem = parse_number(text, v);
    if (!problem.empty()) fail(what + ": " + problem);
    return v;
  }

 private:
  std::istream& in_;
  std::string name_;
  int number_ = 0;
};

// Whitespace-separated words of `line`.
inline std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t b = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > b) out.push_back(line.substr(b, i - b));
  }
  return out;
}

// A line's text cut short for a message (long junk stays one readable line).
inline std::string shown_text(const std::string& s) {
  std::string out;
  for (char c : s.size() <= 60 ? s : s.substr(0, 57)) out += (c >= 32 && c < 127) ? c : '?';
  return s.size() <= 60 ? out : out + "...";
}

}  // namespace mdremap::io

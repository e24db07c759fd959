#pragma once
// Errors a user can act on: thrown anywhere, caught once in main, printed as one line.
#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace mdremap {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad input: names the file and, where known, the line (1-based; 0 = unknown).
class InputError : public Error {
 public:
  InputError(const std::string& file, int line, const std::string& problem)
      : Error(format(file, line, problem)), file_(file), line_(line) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }

 private:
  static std::string format(const std::string& file, int line, const std::string& problem) {
    std::string where = file.empty() ? std::string("input") : file;
    if (line > 0) where += ":" + std::to_string(line);
    return where + ": " + problem;
  }
  std::string file_;
  int line_;
};

// A value quoted in a message: control bytes written as \xNN and text past `max` characters cut
// ("..."), so that a junk value (a 10 MB string, terminal escapes) stays one readable line.
inline std::string shown_value(const std::string& s, std::size_t max = 80) {
  std::string out;
  std::size_t i = 0;
  for (; i < s.size() && out.size() < max; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 32 || c == 127) {
      char esc[5];
      std::snprintf(esc, sizeof esc, "\\x%02x", c);
      out += esc;
    } else {
      out += s[i];
    }
  }
  return i < s.size() ? out + "..." : out;
}

// A whole error message as it is printed: control bytes escaped, and one longer than any path
// (a value no message cut) kept to its start and its end, where the advice is.
inline std::string printable_message(const std::string& s) {
  constexpr std::size_t kMax = 8192, kTail = 400;
  std::string out = shown_value(s, static_cast<std::size_t>(-1));
  if (out.size() > kMax)
    out = out.substr(0, kMax - kTail) + " ... " + out.substr(out.size() - kTail);
  return out;
}

}  // namespace mdremap

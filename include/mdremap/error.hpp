#pragma once
// Errors a user can act on: thrown anywhere, caught once in main, printed as one line.
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

}  // namespace mdremap

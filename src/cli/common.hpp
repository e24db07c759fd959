#pragma once
// Pieces every subcommand shares: the --summary JSON file, progress display, backend checks.
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <string>

namespace mdremap::io {
class StagedFile;
}

namespace mdremap::cli {

// Writes `j` to `path` (pretty-printed) via a locked temporary file and rename
// (io/staged_file.hpp), so a summary file is either complete or absent.
void write_summary(const std::string& path, const nlohmann::json& j);
// The same into a staging file locked at the start of the run.
void write_summary(io::StagedFile& out, const nlohmann::json& j);

// Names of the backends compiled into this binary ("cuda", "openmp", "serial").
std::string device_backend();
std::string compiled_backends();
// Throws an InputError if `requested` is not the backend this binary runs on.
void check_backend(const std::string& requested);
nlohmann::json build_info();

// Progress on a terminal: one self-overwriting line with steps/s and ETA. Not a terminal: a plain
// line every `plain_interval` seconds.
class Progress {
 public:
  Progress(bool enabled, double plain_interval = 10.0);
  void update(std::int64_t done, std::int64_t total, double seconds);
  void clear();  // erases the terminal line before other output
  void finish();
  bool tty() const { return tty_; }

 private:
  bool enabled_, tty_;
  double interval_, last_ = -1e9;
  bool shown_ = false;
};

}  // namespace mdremap::cli

#pragma once
// Pieces every subcommand shares: the --summary JSON file, output flags' checks, the run header,
// progress display, backend checks.
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <string>

namespace mdremap::io {
class Deck;
class StagedFile;
}  // namespace mdremap::io

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

// Throws an InputError naming `flag` when `path` is given and cannot be written.
void check_output(const std::string& flag, const std::string& path);

// A run's first lines: "mdremap VERSION | backend B | WHAT", then the resolved deck read from
// `deck_path`, each line a comment.
void print_run_header(const std::string& what, const std::string& deck_path, const io::Deck& deck);

// Progress: one self-overwriting line on a terminal (at most four a second); elsewhere a plain
// line `progress: ...` at most every `plain_interval` seconds, counted from `since`.
class ProgressLine {
 public:
  explicit ProgressLine(bool enabled, double plain_interval = 10.0, double since = -1e9);
  // Whether a line at `seconds` is due (`now`: due whatever the interval); one that is due
  // starts the next interval.
  bool due(double seconds, bool now = false);
  void show(const std::string& line);
  void clear();  // erases the terminal line before other output
  bool tty() const { return tty_; }

 private:
  bool enabled_, tty_;
  double interval_, last_;
  bool shown_ = false;
};

}  // namespace mdremap::cli

#pragma once
// The run's log file (`--log`, like LAMMPS' log.lammps): everything the run prints on stdout and
// stderr, copied as it is printed, after a head with the command line, the date and the build.
// What only the log holds (the resolved deck at the default verbosity) goes through log_only().
// Terminal progress lines (rewritten in place with '\r') reach the log as their last state only.
#include <string>
#include <vector>

namespace mdremap::cli {

// How much a run prints: --quiet the final line, the default a short header and the thermo,
// -v the resolved deck and the choices made at set-up as well.
enum class Verbosity { quiet, normal, verbose };
Verbosity verbosity();
void set_verbosity(Verbosity v);
inline bool verbose() {
  return verbosity() == Verbosity::verbose;
}

// Whether stdout was a terminal when the process started (the log's copy replaces it by a pipe).
bool stdout_is_tty();

// The default log file, beside the outputs in the working directory. A run appends to it (an
// earlier run's log is kept whole); a file named by --log is replaced.
inline constexpr const char* kDefaultLog = "log.mdremap";

// Starts copying stdout and stderr into `path` (appending or replacing it) with a head naming
// `argv` and `build` (one line). Throws Error if the file cannot be opened. Once per process.
void start_log(const std::string& path, bool append, const std::vector<std::string>& argv,
               const std::string& build);
// Text for the log alone (nothing when no log is open).
void log_only(const std::string& text);
// Set-up detail (the resolved deck, the choices): printed at -v, else in the log alone.
void detail(const std::string& text);
// Flushes stdio, copies what is still in flight and closes the log (idempotent). Returns the
// first failure to write the log ("" if none).
std::string finish_log();

}  // namespace mdremap::cli

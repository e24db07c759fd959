#pragma once
// Thermo time series as CSV, one row per thermo step, for spreadsheets and plotting scripts.
// Columns: step,temp,e_pair,ke,etotal,press, then the deck's run.thermo_columns (reduced LJ
// units; energies per atom).
// Written as `path.partial` (io/staged_file.hpp) and renamed over `path` by close().
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "mdremap/frame.hpp"

namespace mdremap::io {

class StagedFile;

class ThermoCsv {
 public:
  // Locks and creates `path.partial` with the header; throws mdremap::Error naming the file on
  // failure (io::OutputBusy when another process is writing `path`).
  // `columns`: the deck's run.thermo_columns after the fixed six. With `continue_at` >= 0 (a run
  // continued from a checkpoint at that step) an existing file (the interrupted run's
  // `path.partial`, else `path`) is continued: its rows before that step are kept, later ones
  // dropped, and the new rows appended (its header must be this run's).
  explicit ThermoCsv(const std::string& path, std::vector<std::string> columns = {},
                     std::int64_t continue_at = -1);
  ~ThermoCsv();  // not closed: the rows so far stay in path.partial
  ThermoCsv(const ThermoCsv&) = delete;
  ThermoCsv& operator=(const ThermoCsv&) = delete;

  // Appends one row and flushes it, so a killed run keeps every row written so far.
  void write(const ThermoSample& sample);
  // Closes the file and renames it over `path`.
  void close();
  const std::string& path() const { return path_; }

 private:
  bool keep_rows_before(std::int64_t step);  // false: the file is not a thermo CSV
  std::string path_;
  std::unique_ptr<StagedFile> staged_;
  std::FILE* file_ = nullptr;
  std::vector<std::string> columns_;  // run.thermo_columns
  std::string header_;                // the first line, columns_ included
};

}  // namespace mdremap::io

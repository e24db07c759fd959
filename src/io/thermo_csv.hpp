#pragma once
// Thermo time series as CSV, one row per thermo step, for spreadsheets and plotting scripts.
// Columns: step,temp,e_pair,ke,etotal,press, then the deck's run.thermo_columns (reduced LJ
// units; energies per atom).
// Written as `path.partial` (io/staged_file.hpp) and renamed over `path` by close().
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
  explicit ThermoCsv(const std::string& path, std::vector<std::string> columns = {});
  ~ThermoCsv();  // not closed: the rows so far stay in path.partial
  ThermoCsv(const ThermoCsv&) = delete;
  ThermoCsv& operator=(const ThermoCsv&) = delete;

  // Appends one row and flushes it, so a killed run keeps every row written so far.
  void write(const ThermoSample& sample);
  // Closes the file and renames it over `path`.
  void close();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::unique_ptr<StagedFile> staged_;
  std::FILE* file_ = nullptr;
  std::vector<std::string> columns_;  // run.thermo_columns
};

}  // namespace mdremap::io

#pragma once
// Thermo time series as CSV, one row per thermo step, for spreadsheets and plotting scripts.
// Columns: step,temp,e_pair,ke,etotal,press (reduced LJ units; energies per atom).
#include <cstdio>
#include <string>

#include "mdremap/frame.hpp"

namespace mdremap::io {

class ThermoCsv {
 public:
  // Truncates `path` and writes the header; throws mdremap::Error naming the file on failure.
  explicit ThermoCsv(const std::string& path);
  ~ThermoCsv();
  ThermoCsv(const ThermoCsv&) = delete;
  ThermoCsv& operator=(const ThermoCsv&) = delete;

  // Appends one row and flushes it, so a killed run keeps every row written so far.
  void write(const ThermoSample& sample);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
};

}  // namespace mdremap::io

#pragma once
// A CSV time series written row by row (compute.msd.file): a header, then one row a sample, each
// flushed as it is written, so a killed run keeps its rows in `path.partial`
// (io/staged_file.hpp); close() renames it over `path`. Numbers are written as the shortest text
// that reads back to the same double.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>

namespace mdremap::io {

class StagedFile;

class CsvRows {
 public:
  // Locks and creates `path.partial` with `header` (column names joined by commas); throws
  // OutputBusy when another run writes `path`, mdremap::Error when it cannot be written.
  CsvRows(const std::string& path, const std::string& header);
  ~CsvRows();  // not closed: the rows so far stay in path.partial
  CsvRows(const CsvRows&) = delete;
  CsvRows& operator=(const CsvRows&) = delete;

  // One row: the step, then the values.
  void write(std::int64_t step, std::initializer_list<double> values);
  void close();
  const std::string& path() const { return path_; }

 private:
  void put(const std::string& text);
  std::string path_;
  std::unique_ptr<StagedFile> staged_;
  int fd_ = -1;
  bool own_fd_ = false;  // a device or pipe, opened here
};

// The same number text CsvRows writes (shortest round-trip form).
void append_csv_number(std::string& line, double value);

}  // namespace mdremap::io

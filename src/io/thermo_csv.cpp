#include "io/thermo_csv.hpp"

#include <unistd.h>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <iterator>

#include "io/staged_file.hpp"
#include "mdremap/error.hpp"
#include "mdremap/thermo_columns.hpp"

namespace mdremap::io {

namespace {

// Shortest text that reads back to the same double: full precision without noise digits.
void append_number(std::string& line, double value) {
  char buf[32];
  const auto result = std::to_chars(buf, buf + sizeof(buf), value);
  line.append(buf, result.ptr);
}

}  // namespace

ThermoCsv::ThermoCsv(const std::string& path, std::vector<std::string> columns,
                     std::int64_t continue_at)
    : path_(path),
      staged_(std::make_unique<StagedFile>(
          path, continue_at >= 0 ? StagedFile::Start::Continue : StagedFile::Start::Empty)),
      columns_(std::move(columns)) {
  header_ = "step,temp,e_pair,ke,etotal,press";
  for (const auto& c : columns_) header_ += "," + c;
  header_ += "\n";
  const bool continued = staged_->held() != StagedFile::Held::Nothing;
  if (continued && !keep_rows_before(continue_at))
    throw CannotContinue(
        path, 0,
        "cannot continue it: it is not a thermo CSV of mdremap with this run's columns (give "
        "the continued run another --thermo-csv, or move the file away)");
  file_ = std::fopen(staged_->staging().c_str(), "a");  // emptied already; "a": a device in place
  if (file_ == nullptr)
    throw Error("cannot open thermo file '" + path + "': " + std::strerror(errno));
  if (continued) return;
  if (std::fputs(header_.c_str(), file_) < 0 || std::fflush(file_) != 0)
    throw Error("cannot write thermo file '" + path + "': " + std::strerror(errno));
}

bool ThermoCsv::keep_rows_before(std::int64_t step) {
  const std::string& name = staged_->staging();
  std::ifstream in(name, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string& header = header_;
  if (text.compare(0, header.size(), header) != 0) return false;
  // Whole rows (a killed run may have left half a line) up to the first at `step` or later.
  std::size_t keep = header.size();
  while (keep < text.size()) {
    const std::size_t nl = text.find('\n', keep);
    if (nl == std::string::npos) break;
    std::int64_t row_step = 0;
    const auto r = std::from_chars(text.data() + keep, text.data() + nl, row_step);
    if (r.ec != std::errc() || *r.ptr != ',' || row_step >= step) break;
    keep = nl + 1;
  }
  if (::truncate(name.c_str(), static_cast<off_t>(keep)) != 0)
    throw Error("cannot continue thermo file '" + path_ + "': " + std::strerror(errno));
  return true;
}

ThermoCsv::~ThermoCsv() {
  if (file_ != nullptr) std::fclose(file_);
}

void ThermoCsv::close() {
  if (file_ == nullptr) return;
  const bool ok = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!ok) throw Error("cannot write thermo file '" + path_ + "': " + std::strerror(errno));
  staged_->commit();
}

void ThermoCsv::write(const ThermoSample& s) {
  if (file_ == nullptr) throw Error("thermo file '" + path_ + "': write after close");
  std::string line = std::to_string(s.step);
  for (double value : {s.temp, s.e_pair, s.ke, s.etotal, s.press}) {
    line += ',';
    append_number(line, value);
  }
  for (const auto& c : columns_) {
    line += ',';
    append_number(line, find_thermo_column(c).value(s));
  }
  line += '\n';
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0)
    throw Error("cannot write thermo file '" + path_ + "': " + std::strerror(errno));
}

}  // namespace mdremap::io

// Thermo CSV: fixed header, one flushed row per sample, numbers that read back exactly.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/thermo_csv.hpp"
#include "io_test_util.hpp"
#include "mdremap/error.hpp"

namespace mdremap::io {
namespace {

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(ThermoCsv, HeaderAndRowsRoundTripExactly) {
  test::TempDir dir;
  const std::string path = dir.file("thermo.csv");
  ThermoSample a;
  a.step = 0;
  a.temp = 0.7200000000000001;
  a.e_pair = -6.773368087090676;
  a.ke = 1.0789;
  a.etotal = a.e_pair + a.ke;
  a.press = -1.0 / 3.0;
  ThermoSample b = a;
  b.step = 100;
  b.temp = 1e-300;
  b.press = 12345678.9;
  ThermoCsv csv(path);
  csv.write(a);
  // Flushed per row: the staging file holds the row before the writer is closed; the target
  // appears only complete.
  EXPECT_EQ(lines_of(path + ".partial").size(), 2u);
  EXPECT_FALSE(std::filesystem::exists(path));
  csv.write(b);
  csv.close();
  EXPECT_FALSE(std::filesystem::exists(path + ".partial"));

  const auto lines = lines_of(path);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "step,temp,e_pair,ke,etotal,press");
  const ThermoSample* samples[] = {&a, &b};
  for (int r = 0; r < 2; ++r) {
    std::stringstream row(lines[r + 1]);
    std::string cell;
    std::vector<std::string> cells;
    while (std::getline(row, cell, ',')) cells.push_back(cell);
    ASSERT_EQ(cells.size(), 6u) << lines[r + 1];
    const ThermoSample& s = *samples[r];
    EXPECT_EQ(std::stoll(cells[0]), s.step);
    const double want[] = {s.temp, s.e_pair, s.ke, s.etotal, s.press};
    for (int c = 0; c < 5; ++c) EXPECT_EQ(std::strtod(cells[c + 1].c_str(), nullptr), want[c]);
  }
}

TEST(ThermoCsv, UnwritablePathIsNamed) {
  try {
    ThermoCsv csv("/etc/passwd/thermo.csv");
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/etc/passwd/thermo.csv"), std::string::npos);
  }
}

}  // namespace
}  // namespace mdremap::io

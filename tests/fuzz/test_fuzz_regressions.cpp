// Every input a fuzzer found to crash, hang or trip a sanitizer (tests/fuzz/regressions/, named
// READER-what) is replayed through its reader here (every crash becomes a unit test).
// It must end in one mdremap::Error line, quickly. A new finding is one file in that folder;
// a new reader is one entry in kReaders.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

#include "cg/matrix_market.hpp"
#include "io/checkpoint.hpp"
#include "io/deck.hpp"
#include "io/particle_file.hpp"
#include "md/params.hpp"
#include "mdremap/error.hpp"
#include "sp/cnf.hpp"

namespace fs = std::filesystem;
using namespace mdremap;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The same paths as the harnesses in tests/fuzz/fuzz_*.cpp.
const std::map<std::string, std::function<void(const fs::path&)>> kReaders = {
    {"deck",
     [](const fs::path& p) {
       auto deck = io::Deck::from_string(slurp(p), p.filename().string());
       md::read_md_params(deck);
     }},
    {"set",
     [](const fs::path& p) {
       auto deck = io::Deck::from_string(
           "system:\n  lattice: {style: fcc, density: 0.8442, cells: [6, 6, 6]}\n", "base.yaml");
       std::istringstream lines(slurp(p));
       for (std::string line; std::getline(lines, line);) deck.apply_override(line);
       md::read_md_params(deck);
     }},
    {"checkpoint", [](const fs::path& p) { io::read_checkpoint(p.string()); }},
    {"matrix_market",
     [](const fs::path& p) {
       std::istringstream in(slurp(p));
       cg::cg_matrix(cg::read_matrix_market(in, p.filename().string()));
     }},
    {"lammps_data",
     [](const fs::path& p) {
       std::istringstream in(slurp(p));
       io::check_particle_file(io::read_lammps_data(in, p.filename().string()));
     }},
    {"xyz",
     [](const fs::path& p) {
       std::istringstream in(slurp(p));
       io::check_particle_file(io::read_xyz(in, p.filename().string(), -1));
     }},
    {"gsd",
     [](const fs::path& p) {
       std::istringstream in(slurp(p));
       io::check_particle_file(io::read_gsd_frame(in, p.filename().string(), -1));
     }},
    {"dimacs",
     [](const fs::path& p) {
       std::istringstream in(slurp(p));
       sp::CnfNotes notes;
       sp::read_cnf(in, p.filename().string(), &notes);
     }},
};

TEST(FuzzRegressions, EveryFindingEndsInOneErrorLine) {
  const fs::path dir = fs::path(MDREMAP_SOURCE_DIR) / "tests" / "fuzz" / "regressions";
  int replayed = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    const auto reader = kReaders.find(name.substr(0, name.find('-')));
    ASSERT_NE(reader, kReaders.end()) << name << ": no reader named by its prefix";
    const auto start = std::chrono::steady_clock::now();
    std::string message;
    try {
      reader->second(entry.path());
    } catch (const Error& e) {
      message = e.what();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_FALSE(message.empty()) << name << ": accepted";
    EXPECT_EQ(message.find('\n'), std::string::npos) << name << ": " << message;
    EXPECT_LT(seconds, 5.0) << name;
    ++replayed;
  }
  EXPECT_GE(replayed, 2);
}

}  // namespace

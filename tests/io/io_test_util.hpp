#pragma once
// Shared helpers for the I/O tests: a scratch directory per test and reproducible frames.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "mdremap/frame.hpp"

namespace mdremap::io::test {

// A fresh directory under the system temp dir, removed with its contents at scope exit.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = "mdremap-io-" + std::to_string(::getpid()) + "-";
    if (info != nullptr) name += std::string(info->test_suite_name()) + "." + info->name();
    path_ = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// n atoms with shuffled ids (so writers must reorder), random x/v/f and types 0..2.
inline Frame random_frame(std::size_t n, std::uint32_t seed, std::int64_t step, double dt = 0.005) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Frame f;
  f.step = step;
  f.time = static_cast<double>(step) * dt;
  for (int d = 0; d < 3; ++d) {
    f.box_lo[d] = -0.5;
    f.box_len[d] = 5.0 + d;
  }
  f.x.resize(3 * n);
  f.v.resize(3 * n);
  f.f.resize(3 * n);
  for (std::size_t i = 0; i < 3 * n; ++i) {
    f.x[i] = f.box_lo[i % 3] + f.box_len[i % 3] * u(rng);
    f.v[i] = u(rng) - 0.5;
    f.f[i] = 10.0 * (u(rng) - 0.5);
  }
  f.id.resize(n);
  for (std::size_t i = 0; i < n; ++i) f.id[i] = static_cast<std::int64_t>(i);
  std::shuffle(f.id.begin(), f.id.end(), rng);
  f.type.resize(n);
  for (std::size_t i = 0; i < n; ++i) f.type[i] = static_cast<std::int32_t>(f.id[i] % 3);
  return f;
}

// Slot of each id (ids are 0..n-1 in random_frame).
inline std::vector<std::size_t> slot_of_id(const Frame& f) {
  std::vector<std::size_t> slot(f.id.size());
  for (std::size_t i = 0; i < f.id.size(); ++i) slot[f.id[i]] = i;
  return slot;
}

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a shell command; returns its exit status (-1 if it could not run).
inline int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());
  if (status == -1 || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

}  // namespace mdremap::io::test

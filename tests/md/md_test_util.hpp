#pragma once
// Helpers for MD tests: engines from decks in the repository with --set style overrides.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "io/deck.hpp"
#include "md/params.hpp"
#include "md/simulation.hpp"

namespace mdremap::test {

// The repository root: $MDREMAP_SOURCE_DIR when set (a bundle run elsewhere), else the build's.
inline std::string source_path(const std::string& rel) {
  const char* env = std::getenv("MDREMAP_SOURCE_DIR");
  return std::string(env && *env ? env : MDREMAP_SOURCE_DIR) + "/" + rel;
}

inline md::MdParams params(const std::string& deck, const std::vector<std::string>& sets = {}) {
  auto d = io::Deck::from_file(source_path(deck));
  for (const auto& s : sets) d.apply_override(s);
  return md::read_md_params(d);
}

inline md::MdParams params_from_text(const std::string& text,
                                     const std::vector<std::string>& sets = {}) {
  auto d = io::Deck::from_string(text, "test.yaml");
  for (const auto& s : sets) d.apply_override(s);
  return md::read_md_params(d);
}

// Largest |E_total(t) - e0| over the thermo samples of a run (per-atom energies).
struct EnergyDrift : md::RunObserver {
  explicit EnergyDrift(double e0_) : e0(e0_) {}
  void thermo(const ThermoSample& t) override { worst = std::max(worst, std::abs(t.etotal - e0)); }
  double relative() const { return worst / std::abs(e0); }
  double e0, worst = 0;
};

inline double rel(double a, double b) {
  return std::abs(a - b) / std::max(std::abs(b), 1e-300);
}

// Largest |fa - fb| over all components, relative to the largest |fb| component.
inline double max_force_error(const Frame& a, const Frame& b) {
  double err = 0, scale = 0;
  for (size_t k = 0; k < a.f.size(); ++k) {
    err = std::max(err, std::abs(a.f[k] - b.f[k]));
    scale = std::max(scale, std::abs(b.f[k]));
  }
  return err / scale;
}

}  // namespace mdremap::test

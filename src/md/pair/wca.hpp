#pragma once
// Weeks-Chandler-Andersen: the purely repulsive part of 12-6 LJ, cut at its minimum
// rc = 2^(1/6) sigma per type pair and shifted up by epsilon, so that energy and force are zero
// at rc and beyond: E = 4 eps [(s/r)^12 - (s/r)^6] + eps for r < rc. LAMMPS documents it as
// pair_style lj/cut with the pair cut-off 2^(1/6) sigma and pair_modify shift yes
// (docs.lammps.org/pair_lj.html, pair_modify.html). Only the coefficients differ from LJ: the
// LJ math (md/pair/lj.hpp) serves it unchanged, the shift being LJ's own at rc (= -eps).
#include "md/pair/lj.hpp"

namespace mdremap::md {

template <class T>
struct WCA : LJ<T> {
  static constexpr const char* kName = WcaSpec::kName;
  // Always shifted (the deck refuses potential.shift: false with wca).
  static WCA make(const PairCoeffs& pc, bool /*shift*/ = true) {
    return make_pair_table<WCA>(pc, [&](int a, int b) {
      const double sig = pc.at(pc.sigma, a, b);
      return LJ<T>::coefficients(pc.at(pc.epsilon, a, b), sig, wca_cutoff(sig), true);
    });
  }
};

template <>
struct PairEvaluatorFor<WcaSpec> {
  template <class T>
  using type = WCA<T>;
};

}  // namespace mdremap::md

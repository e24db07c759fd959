#pragma once
// WalkSAT (Selman, Kautz, Cohen 1994, the "SKC" variant with freebie moves) on the host: the
// last stage of SP-guided decimation (Braunstein, Mezard, Zecchina 2005 §4: once the surveys are
// trivial the remaining formula is handed to WalkSAT). Seeded and deterministic. Runs on the
// host: the remaining formula is small next to the input by then, and each flip is a short
// sequential chain of dependent updates that a GPU would run one thread at a time.
#include <cstdint>
#include <functional>
#include <vector>

#include "sp/formula.hpp"

namespace mdremap::sp {

struct WalksatParams {
  std::int64_t max_flips = 100000000;
  double noise = 0.5;  // probability of a random walk move when no freebie exists
  std::uint64_t seed = 1;
  // Clauses of at most 3 literals in 16-byte entries (the same walk, fewer cache misses); false:
  // the flat layout of any formula (tests compare the two).
  bool packed = true;
};

struct WalksatResult {
  bool solved = false;
  std::int64_t flips = 0;
  std::int64_t unsat = 0;       // unsatisfied clauses at the end
  std::int64_t best_unsat = 0;  // fewest seen
  double seconds = 0;
};

// Searches for an assignment of f's variables satisfying every clause of f, starting from
// `value` (+1 / -1 per variable; 0 entries are drawn at random first) and leaving the last
// assignment in `value`. Only variables that occur in f are flipped. `progress(flips, unsat)` is
// called every 2^20 flips when given.
WalksatResult walksat(const Formula& f, std::vector<std::int8_t>& value, const WalksatParams& p,
                      const std::function<void(std::int64_t, std::int64_t)>& progress = {});

}  // namespace mdremap::sp

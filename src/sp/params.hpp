#pragma once
// `mdremap sp` decks (inputs/sp_*.yaml): strict keys, defaults recorded in the resolved deck.
#include <cstdint>
#include <string>

#include "mdremap/remap/remap_deck.hpp"
#include "sp/solver.hpp"

namespace mdremap::io {
class Deck;
}

namespace mdremap::sp {

struct SpParams {
  std::string source;              // formula.source: a DIMACS file or random-C-V-K
  std::uint64_t formula_seed = 1;  // formula.seed (generator)
  SolveParams solve;
  std::string transactions = "auto";  // report.transactions: auto | on | off
};

// What SP serves of the remap layer: its defaults (survey_params.hpp), its edge reorders, no
// index compression, lanes or overlapped plans (calc_pi_values walks no rows in order).
const remap::RemapApp& remap_app();

// Throws mdremap::InputError naming the key (file and line, or the --set) and the problem.
SpParams read_sp_params(io::Deck& deck);

}  // namespace mdremap::sp

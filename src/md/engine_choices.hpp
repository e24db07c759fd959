#pragma once
// The policy an MD engine is made with, decided from the deck and the backend before anything is
// allocated: the neighbour list's kind and layout, the atom order, the list cells, the ghosts'
// overlap with the forces, and the force engine. A plain struct, so that each choice is testable
// without a run.
#include "md/force.hpp"
#include "md/params.hpp"

namespace mdremap::md {

// What the choices depend on besides the deck.
struct Backend {
  bool host = true;           // a host execution space (OpenMP, serial), not a GPU
  bool host_avx512 = false;   // the host's AVX-512 loops are compiled in (neighbor/avx512.hpp)
  static Backend compiled();  // this build's
};

struct EngineChoices {
  double rlist = 0;          // the list cutoff: the largest pair cutoff + skin
  bool decomposed = false;   // ghosts from the ranks' exchange (MdParams::exchange_ghosts)
  bool half = false;         // half list (Newton's third law)
  bool cluster = false;      // cluster pairs (neighbor.list cluster)
  bool column_major = true;  // the list's layout
  neighbor::AtomSort sort = neighbor::AtomSort::None;  // the atom order (never Auto)
  double bin = 0;                                      // the list cells' edge
  // parallel.overlap, a decomposed run: the ghost update beside the forces where the force
  // engine runs its atoms in two parts (wanted); refused when it cannot (required).
  bool overlap_wanted = false;
  bool overlap_required = false;
  PairSetup pair;  // the force engine
};

EngineChoices choose_engine(const MdParams& p, const Backend& b = Backend::compiled());

}  // namespace mdremap::md

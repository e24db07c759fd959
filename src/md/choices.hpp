#pragma once
// Deck keys with a fixed set of values, parsed once into types by the deck reader (params.cpp):
// code compares these, never the strings. to_string gives the deck's spelling back (printed in
// messages, the engine line and the run summary).
#include <string>
#include <utility>
#include <vector>

#include "mdremap/remap/reorders.hpp"

namespace mdremap::md {

// system.lattice.style, or `random` for a system.random section.
enum class Lattice { Fcc, Bcc, Sc, Random };
// potential.mixing (LAMMPS pair_modify mix).
enum class MixingRule { Geometric, Arithmetic, SixthPower };
// remap.reorder: the layer's vocabulary (remap/reorders.hpp); MD serves none, spatial,
// labelprop and partition (remap_app(), params.hpp).
using Reorder = remap::Reorder;

// Each enum's deck names, in the order deck errors list them.
template <class E>
const std::vector<std::pair<std::string, E>>& choice_names();
template <>
const std::vector<std::pair<std::string, Lattice>>& choice_names<Lattice>();
template <>
const std::vector<std::pair<std::string, MixingRule>>& choice_names<MixingRule>();

template <class E>
std::string to_string_choice(E value) {
  for (const auto& [name, v] : choice_names<E>())
    if (v == value) return name;
  return "?";
}
inline std::string to_string(Lattice v) {
  return to_string_choice(v);
}
inline std::string to_string(MixingRule v) {
  return to_string_choice(v);
}

}  // namespace mdremap::md

#pragma once
// The pair styles' catalogue: each potential.style's deck name, with no Kokkos (the deck
// validation and the fuzz harnesses read it; force.cpp's registry makes the engines of the same
// list). PairStyleSpecs is the one list: a new potential is its Spec here and the files
// evaluator.hpp lists.
#include <string>
#include <tuple>
#include <vector>

namespace mdremap::md {

struct LjSpec {
  static constexpr const char* kName = "lj";
};
struct WcaSpec {
  static constexpr const char* kName = "wca";
};

using PairStyleSpecs = std::tuple<LjSpec, WcaSpec>;

// The evaluator class template of a Spec (specialised beside each evaluator).
template <class Spec>
struct PairEvaluatorFor;

// potential.style values, in the catalogue's order.
std::vector<std::string> pair_styles();

}  // namespace mdremap::md

#pragma once
// The blow-up hint for a start with overlapping atoms (a random gas, a hand-made file): the
// atom with the largest force and its nearest neighbour, named by the ids the user gave, and
// the way out (minimise first).
#include <cstdint>
#include <string>
#include <vector>

#include "mdremap/frame.hpp"
#include "mdremap/types.hpp"

namespace mdremap::md {

// Forces that would move an atom at rest farther than this (sigma) in one step
// (|f| dt^2 / m) mark overlapping atoms.
inline constexpr double kOverlapMove = 0.1;

// `fr`: a snapshot with forces; `given_ids[id]`: the id the user knows atom `id` by.
std::string overlap_hint(const Frame& fr, const Box<double>& box,
                         const std::vector<std::int64_t>& given_ids, double dt);

}  // namespace mdremap::md

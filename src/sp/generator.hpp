#pragma once
// Random k-SAT instances named as LonestarGPU names its inputs: `random-<clauses>-<vars>-<k>`
// (random-16800-4000-3 and random-42000-10000-3 are seed 000 Table 5's). Each clause holds k
// distinct variables drawn uniformly, each negated with probability 1/2. The instance is a pure
// function of (spec, seed): literal i of clause c comes from counter-based hashes of (seed, c,
// draw), so any thread count or backend produces the same formula.
#include <cstdint>
#include <optional>
#include <string>

#include "sp/formula.hpp"

namespace mdremap::sp {

struct RandomSpec {
  std::int64_t clauses = 0;
  std::int32_t vars = 0;
  int k = 3;
  std::string name() const;
};

// Parses "random-C-V-K"; std::nullopt if `text` does not have that shape. Throws
// mdremap::Error (naming the problem) for the right shape with impossible numbers: V < 1,
// K < 1, K > V, K > 1000, more than 2^31 - 1 literals.
std::optional<RandomSpec> parse_random_spec(const std::string& text);

Formula generate_random_ksat(const RandomSpec& spec, std::uint64_t seed);

}  // namespace mdremap::sp

#pragma once
// A CNF formula in clause-major CSR form (BRIEF section 7): clause c holds the DIMACS literals
// lits[clause_offset[c] .. clause_offset[c+1]), a literal being +(v+1) or -(v+1) for variable v.
// Host only (no Kokkos): the reader, the generator, WalkSAT and the final check use it.
#include <cstdint>
#include <vector>

namespace mdremap::sp {

struct Formula {
  std::int32_t nvars = 0;
  std::vector<std::int64_t> clause_offset{0};  // clauses + 1 entries
  std::vector<std::int32_t> lits;

  std::int64_t clauses() const { return static_cast<std::int64_t>(clause_offset.size()) - 1; }
  std::int64_t literals() const { return static_cast<std::int64_t>(lits.size()); }
  int clause_size(std::int64_t c) const {
    return static_cast<int>(clause_offset[c + 1] - clause_offset[c]);
  }
};

// Variable of a DIMACS literal (0-based) and whether the literal is negated.
inline std::int32_t lit_var(std::int32_t lit) {
  return (lit < 0 ? -lit : lit) - 1;
}
inline bool lit_neg(std::int32_t lit) {
  return lit < 0;
}

// The number of clauses of f that `value` (one entry per variable: +1 true, -1 false; anything
// else counts as unassigned, which satisfies no literal) leaves unsatisfied; the first such
// clause in *first (-1 if none). The final check before SAT is claimed: every original clause.
std::int64_t count_unsatisfied(const Formula& f, const std::vector<std::int8_t>& value,
                               std::int64_t* first = nullptr);

}  // namespace mdremap::sp

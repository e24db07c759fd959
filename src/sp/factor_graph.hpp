#pragma once
// The factor graph of a CNF formula on the device (BRIEF section 7; seed 000 §6.3.2: "one vars
// graph ..., one clauses graph ..., and one structure edge"), stored in CSR both ways as
// LonestarGPU's sp stores it:
//   clause -> edges:   clause_edges[clause_off[c] .. clause_off[c+1]) (clauses.columns);
//   edge -> ends:      edge_var[e] (LonestarGPU ed.dst), edge_clause[e] (ed.src), edge_neg[e]
//                      (ed.bar);
//   variable -> edges: var_edges[var_off[v] .. var_off[v+1]) (var_rowOff, var_col), ascending
//                      edge ids; var_pos[e] is edge e's own position in its variable's list.
// Edges are numbered in a given order of the formula's literals (identity: clause by clause, so
// clause_edges is the identity; a reordering permutes threads and data alike, BRIEF section 5).
// Immutable: simplification marks edges dead in the solver state, and a compaction builds a
// new graph over the live edges.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <vector>

#include "sp/formula.hpp"

namespace mdremap::sp {

// Surveys and biases in single precision, as LonestarGPU's sp (the kernels are memory bound).
using Real = float;

struct FactorGraph {
  std::int32_t nvars = 0;
  std::int64_t nclauses = 0, nedges = 0;
  int max_var_degree = 0, max_clause_size = 0;
  Kokkos::View<std::int64_t*> clause_off;    // nclauses + 1
  Kokkos::View<std::int32_t*> clause_len;    // nclauses
  Kokkos::View<std::int32_t*> clause_edges;  // nedges
  Kokkos::View<std::int32_t*> edge_var;      // nedges
  Kokkos::View<std::int32_t*> edge_clause;   // nedges
  Kokkos::View<std::uint8_t*> edge_neg;      // nedges
  Kokkos::View<std::int32_t*> var_pos;       // nedges
  Kokkos::View<std::int64_t*> var_off;       // nvars + 1
  Kokkos::View<std::int32_t*> var_edges;     // nedges
  std::vector<std::int64_t> edge_literal;    // host: edge -> literal index of the formula
};

// Builds the graph on the host (deterministic) and copies it to the device. `order[k]` is the
// literal index (into f.lits) of edge k; empty: the identity. Throws mdremap::Error when the
// formula has 2^31 or more literals (edge ids are 32-bit) or `order` is not a permutation.
FactorGraph build_factor_graph(const Formula& f, const std::vector<std::int64_t>& order = {});

// Literal indices of f in variable-major order (each variable's occurrences in clause order):
// the thread order of the `variable` reordering, and the CSR rows of calc_pi_values' reference.
std::vector<std::int64_t> variable_major_order(const Formula& f);

}  // namespace mdremap::sp

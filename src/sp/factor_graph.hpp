#pragma once
// The factor graph of a CNF formula on the device (BRIEF section 7; seed 000 §6.3.2: "one vars
// graph ..., one clauses graph ..., and one structure edge"), stored in CSR both ways as
// LonestarGPU's sp stores it:
//   clause -> edges: the edges of clause c are clause_off[c] .. clause_off[c+1] (edges are
//                    numbered clause by clause, so this direction needs no column array);
//   edge -> ends:    edge_var[e] (LonestarGPU ed.dst), edge_clause[e] (ed.src), edge_neg[e]
//   (ed.bar); variable -> edges: var_edges[var_off[v] .. var_off[v+1]) (var_rowOff, var_col),
//   ascending
//                    edge ids, each entry 2*e + neg(e) so a reader of var_col knows the sign of the
//                    occurrence without a second gather.
// Immutable after the build: simplification marks edges dead in the solver state instead.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "sp/formula.hpp"

namespace mdremap::sp {

// Surveys and biases in single precision, as LonestarGPU's sp (the kernels are memory bound).
using Real = float;

struct FactorGraph {
  std::int32_t nvars = 0;
  std::int64_t nclauses = 0, nedges = 0;
  int max_var_degree = 0, max_clause_size = 0;
  Kokkos::View<std::int64_t*> clause_off;   // nclauses + 1
  Kokkos::View<std::int32_t*> edge_var;     // nedges
  Kokkos::View<std::int32_t*> edge_clause;  // nedges
  Kokkos::View<std::uint8_t*> edge_neg;     // nedges
  Kokkos::View<std::int64_t*> var_off;      // nvars + 1
  Kokkos::View<std::int32_t*> var_edges;    // nedges, 2*e + neg(e)
};

// Builds the graph on the host (deterministic order) and copies it to the device. Throws
// mdremap::Error when the formula has 2^30 or more literals (edge tags are 32-bit).
FactorGraph build_factor_graph(const Formula& f);

KOKKOS_INLINE_FUNCTION std::int32_t tag_edge(std::int32_t tag) {
  return tag >> 1;
}
KOKKOS_INLINE_FUNCTION bool tag_neg(std::int32_t tag) {
  return (tag & 1) != 0;
}

}  // namespace mdremap::sp

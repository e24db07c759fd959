#include "sp/factor_graph.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "mdremap/error.hpp"

namespace mdremap::sp {

FactorGraph build_factor_graph(const Formula& f) {
  const std::int64_t E = f.literals();
  if (E >= (std::int64_t{1} << 30))
    throw Error("formula has " + std::to_string(E) +
                " literals: the factor graph holds at most 2^30 - 1 edges");
  FactorGraph g;
  g.nvars = f.nvars;
  g.nclauses = f.clauses();
  g.nedges = E;
  const std::int32_t V = f.nvars;
  const std::int64_t C = g.nclauses;

  g.clause_off = Kokkos::View<std::int64_t*>("SP::clause_off", C + 1);
  g.edge_var = Kokkos::View<std::int32_t*>("SP::edge_var", E);
  g.edge_clause = Kokkos::View<std::int32_t*>("SP::edge_clause", E);
  g.edge_neg = Kokkos::View<std::uint8_t*>("SP::edge_neg", E);
  g.var_off = Kokkos::View<std::int64_t*>("SP::var_off", static_cast<std::int64_t>(V) + 1);
  g.var_edges = Kokkos::View<std::int32_t*>("SP::var_edges", E);

  auto h_coff = Kokkos::create_mirror_view(g.clause_off);
  auto h_var = Kokkos::create_mirror_view(g.edge_var);
  auto h_cl = Kokkos::create_mirror_view(g.edge_clause);
  auto h_neg = Kokkos::create_mirror_view(g.edge_neg);
  auto h_voff = Kokkos::create_mirror_view(g.var_off);
  auto h_vedges = Kokkos::create_mirror_view(g.var_edges);

  std::vector<std::int64_t> degree(static_cast<std::size_t>(V) + 1, 0);
  for (std::int64_t c = 0; c <= C; ++c) h_coff(c) = f.clause_offset[c];
  for (std::int64_t c = 0; c < C; ++c) {
    g.max_clause_size = std::max(g.max_clause_size, f.clause_size(c));
    for (std::int64_t e = f.clause_offset[c]; e < f.clause_offset[c + 1]; ++e) {
      const std::int32_t v = lit_var(f.lits[e]);
      h_var(e) = v;
      h_cl(e) = static_cast<std::int32_t>(c);
      h_neg(e) = lit_neg(f.lits[e]) ? 1 : 0;
      ++degree[v];
    }
  }
  // Counting sort by variable keeps each variable's edges in ascending order.
  h_voff(0) = 0;
  for (std::int32_t v = 0; v < V; ++v) {
    h_voff(v + 1) = h_voff(v) + degree[v];
    g.max_var_degree = std::max<int>(g.max_var_degree, static_cast<int>(degree[v]));
    degree[v] = h_voff(v);
  }
  for (std::int64_t e = 0; e < E; ++e)
    h_vedges(degree[h_var(e)]++) = static_cast<std::int32_t>(2 * e + h_neg(e));

  Kokkos::deep_copy(g.clause_off, h_coff);
  Kokkos::deep_copy(g.edge_var, h_var);
  Kokkos::deep_copy(g.edge_clause, h_cl);
  Kokkos::deep_copy(g.edge_neg, h_neg);
  Kokkos::deep_copy(g.var_off, h_voff);
  Kokkos::deep_copy(g.var_edges, h_vedges);
  return g;
}

}  // namespace mdremap::sp

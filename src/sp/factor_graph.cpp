#include "sp/factor_graph.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "mdremap/error.hpp"

namespace mdremap::sp {

std::vector<std::int64_t> variable_major_order(const Formula& f) {
  std::vector<std::int64_t> start(static_cast<std::size_t>(f.nvars) + 1, 0);
  for (std::int32_t l : f.lits) ++start[lit_var(l) + 1];
  for (std::int32_t v = 0; v < f.nvars; ++v) start[v + 1] += start[v];
  std::vector<std::int64_t> order(f.lits.size());
  for (std::int64_t k = 0; k < f.literals(); ++k) order[start[lit_var(f.lits[k])]++] = k;
  return order;
}

FactorGraph build_factor_graph(const Formula& f, const std::vector<std::int64_t>& order) {
  const std::int64_t E = f.literals();
  if (E > std::numeric_limits<std::int32_t>::max())
    throw Error("formula has " + std::to_string(E) +
                " literals: the factor graph holds at most 2^31 - 1 edges");
  if (!order.empty() && static_cast<std::int64_t>(order.size()) != E)
    throw Error("factor graph: edge order has " + std::to_string(order.size()) + " entries for " +
                std::to_string(E) + " literals");
  FactorGraph g;
  g.nvars = f.nvars;
  g.nclauses = f.clauses();
  g.nedges = E;
  const std::int32_t V = f.nvars;
  const std::int64_t C = g.nclauses;

  g.edge_literal.resize(E);
  std::vector<std::int32_t> edge_of(E, -1);  // literal index -> edge
  for (std::int64_t k = 0; k < E; ++k) {
    const std::int64_t lit = order.empty() ? k : order[k];
    if (lit < 0 || lit >= E || edge_of[lit] >= 0)
      throw Error("factor graph: edge order is not a permutation of the literals");
    g.edge_literal[k] = lit;
    edge_of[lit] = static_cast<std::int32_t>(k);
  }

  g.clause_off = Kokkos::View<std::int64_t*>("SP::clause_off", C + 1);
  g.clause_len = Kokkos::View<std::int32_t*>("SP::clause_len", C);
  g.clause_edges = Kokkos::View<std::int32_t*>("SP::clause_edges", E);
  g.edge_var = Kokkos::View<std::int32_t*>("SP::edge_var", E);
  g.edge_clause = Kokkos::View<std::int32_t*>("SP::edge_clause", E);
  g.edge_neg = Kokkos::View<std::uint8_t*>("SP::edge_neg", E);
  g.var_pos = Kokkos::View<std::int32_t*>("SP::var_pos", E);
  g.var_off = Kokkos::View<std::int64_t*>("SP::var_off", static_cast<std::int64_t>(V) + 1);
  g.var_edges = Kokkos::View<std::int32_t*>("SP::var_edges", E);

  auto h_coff = Kokkos::create_mirror_view(g.clause_off);
  auto h_clen = Kokkos::create_mirror_view(g.clause_len);
  auto h_cedges = Kokkos::create_mirror_view(g.clause_edges);
  auto h_var = Kokkos::create_mirror_view(g.edge_var);
  auto h_cl = Kokkos::create_mirror_view(g.edge_clause);
  auto h_neg = Kokkos::create_mirror_view(g.edge_neg);
  auto h_pos = Kokkos::create_mirror_view(g.var_pos);
  auto h_voff = Kokkos::create_mirror_view(g.var_off);
  auto h_vedges = Kokkos::create_mirror_view(g.var_edges);

  std::vector<std::int64_t> degree(static_cast<std::size_t>(V) + 1, 0);
  for (std::int64_t c = 0; c <= C; ++c) h_coff(c) = f.clause_offset[c];
  for (std::int64_t c = 0; c < C; ++c) {
    h_clen(c) = f.clause_size(c);
    g.max_clause_size = std::max(g.max_clause_size, f.clause_size(c));
    for (std::int64_t k = f.clause_offset[c]; k < f.clause_offset[c + 1]; ++k) {
      const std::int32_t e = edge_of[k];
      h_cedges(k) = e;
      h_var(e) = lit_var(f.lits[k]);
      h_cl(e) = static_cast<std::int32_t>(c);
      h_neg(e) = lit_neg(f.lits[k]) ? 1 : 0;
      ++degree[h_var(e)];
    }
  }
  // Counting sort by variable, edges ascending within each variable.
  h_voff(0) = 0;
  for (std::int32_t v = 0; v < V; ++v) {
    h_voff(v + 1) = h_voff(v) + degree[v];
    g.max_var_degree = std::max<int>(g.max_var_degree, static_cast<int>(degree[v]));
    degree[v] = h_voff(v);
  }
  for (std::int64_t e = 0; e < E; ++e) {
    const std::int32_t v = h_var(e);
    h_pos(e) = static_cast<std::int32_t>(degree[v] - h_voff(v));
    h_vedges(degree[v]++) = static_cast<std::int32_t>(e);
  }

  Kokkos::deep_copy(g.clause_off, h_coff);
  Kokkos::deep_copy(g.clause_len, h_clen);
  Kokkos::deep_copy(g.clause_edges, h_cedges);
  Kokkos::deep_copy(g.edge_var, h_var);
  Kokkos::deep_copy(g.edge_clause, h_cl);
  Kokkos::deep_copy(g.edge_neg, h_neg);
  Kokkos::deep_copy(g.var_pos, h_pos);
  Kokkos::deep_copy(g.var_off, h_voff);
  Kokkos::deep_copy(g.var_edges, h_vedges);
  return g;
}

}  // namespace mdremap::sp

#include "sp/factor_graph.hpp"

#include <Kokkos_Sort.hpp>
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

namespace {

using Policy = Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>;

template <class T>
Kokkos::View<T*> upload(const char* label, const std::vector<T>& h) {
  Kokkos::View<T*> d(Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing), h.size());
  Kokkos::deep_copy(d, Kokkos::View<const T*, Kokkos::HostSpace>(h.data(), h.size()));
  return d;
}

// Per clause: the edges of its literals (edge_of: literal -> edge, empty = identity), their ends
// and signs, the clause's length, and each variable's degree.
struct ClauseEdges {
  Kokkos::View<const std::int32_t*> lits, edge_of;
  Kokkos::View<const std::int64_t*> clause_off;
  Kokkos::View<std::int32_t*> clause_len, clause_edges, edge_var, edge_clause;
  Kokkos::View<std::uint8_t*> edge_neg;
  Kokkos::View<std::int64_t*> degree;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t c, int& longest) const {
    const std::int64_t b = clause_off(c), end = clause_off(c + 1);
    clause_len(c) = static_cast<std::int32_t>(end - b);
    if (end - b > longest) longest = static_cast<int>(end - b);
    for (std::int64_t k = b; k < end; ++k) {
      const std::int32_t e = edge_of.extent(0) ? edge_of(k) : static_cast<std::int32_t>(k);
      const std::int32_t lit = lits(k);
      const std::int32_t v = (lit < 0 ? -lit : lit) - 1;
      clause_edges(k) = e;
      edge_var(e) = v;
      edge_neg(e) = lit < 0 ? 1 : 0;
      edge_clause(e) = static_cast<std::int32_t>(c);
      Kokkos::atomic_inc(&degree(v));
    }
  }
};

}  // namespace

// Built on the device: a 10^7-variable formula has 1.3e8 edges, which a host counting sort
// scatters with a cache miss each. The variable lists come from a sort of unique (variable,
// edge) keys, so the result does not depend on the thread count or backend.
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
  const std::int64_t V = f.nvars, C = g.nclauses;

  Kokkos::View<std::int32_t*> edge_of;
  if (order.empty()) {
    g.edge_literal.resize(E);
    for (std::int64_t k = 0; k < E; ++k) g.edge_literal[k] = k;
  } else {
    g.edge_literal = order;
    std::vector<std::int32_t> inv(E, -1);
    for (std::int64_t k = 0; k < E; ++k) {
      const std::int64_t lit = order[k];
      if (lit < 0 || lit >= E || inv[lit] >= 0)
        throw Error("factor graph: edge order is not a permutation of the literals");
      inv[lit] = static_cast<std::int32_t>(k);
    }
    edge_of = upload("SP::edge_of", inv);
  }

  const auto lits = upload("SP::lits", f.lits);
  g.clause_off = upload("SP::clause_off", f.clause_offset);
  g.clause_len = Kokkos::View<std::int32_t*>("SP::clause_len", C);
  g.clause_edges = Kokkos::View<std::int32_t*>("SP::clause_edges", E);
  g.edge_var = Kokkos::View<std::int32_t*>("SP::edge_var", E);
  g.edge_clause = Kokkos::View<std::int32_t*>("SP::edge_clause", E);
  g.edge_neg = Kokkos::View<std::uint8_t*>("SP::edge_neg", E);
  g.var_pos = Kokkos::View<std::int32_t*>("SP::var_pos", E);
  g.var_off = Kokkos::View<std::int64_t*>("SP::var_off", V + 1);
  g.var_edges = Kokkos::View<std::int32_t*>("SP::var_edges", E);
  Kokkos::View<std::int64_t*> degree("SP::degree", V);

  int longest = 0;
  Kokkos::parallel_reduce("SP::graph_clause_edges", Policy(0, C),
                          ClauseEdges{lits, edge_of, g.clause_off, g.clause_len, g.clause_edges,
                                      g.edge_var, g.edge_clause, g.edge_neg, degree},
                          Kokkos::Max<int>(longest));
  g.max_clause_size = C > 0 ? longest : 0;

  // var_off: exclusive prefix sums of the degrees.
  auto var_off = g.var_off;
  int most = 0;
  Kokkos::parallel_reduce(
      "SP::graph_max_degree", Policy(0, V),
      KOKKOS_LAMBDA(const std::int64_t v, int& m) {
        if (degree(v) > m) m = static_cast<int>(degree(v));
      },
      Kokkos::Max<int>(most));
  g.max_var_degree = V > 0 ? most : 0;
  Kokkos::parallel_scan(
      "SP::graph_var_off", Policy(0, V),
      KOKKOS_LAMBDA(const std::int64_t v, std::int64_t& sum, const bool last) {
        if (last) var_off(v) = sum;
        sum += degree(v);
      });
  Kokkos::deep_copy(Kokkos::subview(g.var_off, V), E);

  // Variable lists in ascending edge order: sort (variable, edge) keys.
  Kokkos::View<std::uint64_t*> keys(
      Kokkos::view_alloc("SP::graph_keys", Kokkos::WithoutInitializing), E);
  auto edge_var = g.edge_var;
  Kokkos::parallel_for(
      "SP::graph_keys", Policy(0, E), KOKKOS_LAMBDA(const std::int64_t e) {
        keys(e) = (static_cast<std::uint64_t>(edge_var(e)) << 32) | static_cast<std::uint64_t>(e);
      });
  Kokkos::sort(keys);
  auto var_edges = g.var_edges;
  auto var_pos = g.var_pos;
  Kokkos::parallel_for(
      "SP::graph_var_edges", Policy(0, E), KOKKOS_LAMBDA(const std::int64_t i) {
        const std::uint64_t key = keys(i);
        const std::int64_t v = static_cast<std::int64_t>(key >> 32);
        const std::int32_t e = static_cast<std::int32_t>(key & 0xffffffffULL);
        var_edges(i) = e;
        var_pos(e) = static_cast<std::int32_t>(i - var_off(v));
      });
  Kokkos::fence();
  return g;
}

}  // namespace mdremap::sp

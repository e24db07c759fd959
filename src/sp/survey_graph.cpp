// The graph side of the solver state: (re)building the factor graph in an edge order, planning
// calc_pi_values' pattern with the remap strategy, compaction over the live edges, and the
// transaction model of the pattern.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <memory>

#include "mdremap/error.hpp"
#include "mdremap/remap/registry.hpp"
#include "mdremap/remap/reorders.hpp"
#include "mdremap/remap/two_level_remap.hpp"
#include "sp/kernels.hpp"
#include "sp/survey.hpp"

namespace mdremap::sp {

namespace {

using Policy = Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>;

// calc_pi_values' reference on the host, threads = literals of f in literal order: thread k
// (a literal of variable v) reads the literals of v (variable-major), as the reorderings plan it.
remap::IrregularPattern literal_pattern(const Formula& f) {
  const std::vector<std::int64_t> vm = variable_major_order(f);
  std::vector<std::int64_t> start(static_cast<std::size_t>(f.nvars) + 1, 0);
  for (std::int32_t l : f.lits) ++start[lit_var(l) + 1];
  for (std::int32_t v = 0; v < f.nvars; ++v) start[v + 1] += start[v];
  remap::IrregularPattern p;
  p.threads = f.literals();
  p.data_count = f.literals();
  p.elem_bytes = sizeof(Real);
  p.len.resize(p.threads);
  p.offset.assign(p.threads + 1, 0);
  for (std::int64_t k = 0; k < p.threads; ++k) {
    const std::int32_t v = lit_var(f.lits[k]);
    p.len[k] = static_cast<std::int32_t>(start[v + 1] - start[v]);
    p.rows = std::max(p.rows, p.len[k]);
    p.offset[k + 1] = p.offset[k] + p.len[k];
  }
  p.index.resize(p.offset[p.threads]);
  for (std::int64_t k = 0; k < p.threads; ++k) {
    const std::int64_t s = start[lit_var(f.lits[k])];
    for (int j = 0; j < p.len[k]; ++j)
      p.index[p.offset[k] + j] = static_cast<std::int32_t>(vm[s + j]);
  }
  return p;
}

// The edge order of a reordering (BRIEF section 5 `--reorder`), as literal indices of f:
// variable-major, or planned by the layer from calc_pi_values' pattern.
std::vector<std::int64_t> edge_order(const Formula& f, const RemapSettings& r) {
  if (r.reorder == remap::Reorder::None) return {};
  if (r.reorder == remap::Reorder::Variable) return variable_major_order(f);
  const remap::ThreadPermutation perm = remap::reorder_threads(r, literal_pattern(f));
  return std::vector<std::int64_t>(perm.begin(), perm.end());
}

}  // namespace

void SurveyPropagation::build(const Formula& f, std::vector<std::int32_t> lit_orig,
                              std::vector<std::int32_t> clause_orig,
                              const std::vector<Real>* sq_per_literal) {
  Kokkos::Timer reorder_timer;
  const std::vector<std::int64_t> order = edge_order(f, p_.remap);
  stats_.reorder_ms += 1e3 * reorder_timer.seconds();
  g_ = build_factor_graph(f, order);
  cur_ = f;
  lit_orig_ = std::move(lit_orig);
  clause_orig_ = std::move(clause_orig);
  const std::int64_t E = g_.nedges, C = g_.nclauses;
  sq_ = Kokkos::View<Real*>("SP::sq", E);
  ratio_ = Kokkos::View<Real*>("SP::ratio", E);
  edge_dead_ = Kokkos::View<std::uint8_t*>("SP::edge_dead", E);
  clause_sat_ = Kokkos::View<std::uint8_t*>("SP::clause_sat", C);
  auto h_sq = Kokkos::create_mirror_view(sq_);
  for (std::int64_t e = 0; e < E; ++e) h_sq(e) = (*sq_per_literal)[g_.edge_literal[e]];
  Kokkos::deep_copy(sq_, h_sq);
  Kokkos::deep_copy(ratio_, Real(1));
  clause_pv_ = remap::PatternView{};
  clause_pv_.layout = remap::PatternLayout::Offsets;
  clause_pv_.index = g_.clause_edges;
  clause_pv_.len = g_.clause_len;
  clause_pv_.start = g_.clause_off;
  clause_pv_.threads = C;
  clause_pv_.rows = g_.max_clause_size;
  clause_pv_.data_count = E;
  stats_.edges = E;
  plan();
}

// Level 1 of seed 000's two-level reference (the first remapping kernel: start[t] =
// var_rowOff[ed_dst[t]], len[t]) on the device, then the strategy plans the one-level pattern
// index[start[t] + j] = var_col[...] (level 2: dup copies it once, seed 000 Listing 3).
void SurveyPropagation::plan() {
  const std::int64_t E = g_.nedges;
  start_ = Kokkos::View<std::int64_t*>("SP::pi_start", E);
  len_ = Kokkos::View<std::int32_t*>("SP::pi_len", E);
  remap::TwoLevelFirstKernel k1{{g_.edge_var, g_.var_off, g_.var_edges},
                                start_,
                                len_,
                                static_cast<std::int64_t>(g_.nvars),
                                E};
  std::int64_t rows = 0, bad = 0;
  Kokkos::parallel_reduce("SP::calc_pi_level1", Policy(0, E), k1, Kokkos::Max<std::int64_t>(rows),
                          Kokkos::Sum<std::int64_t>(bad));
  if (bad > 0)
    throw Error("sp: calc_pi_values pattern has " + std::to_string(bad) + " bad threads");
  pv_ = remap::PatternView{};
  pv_.layout = remap::PatternLayout::Offsets;
  pv_.index = g_.var_edges;
  pv_.len = len_;
  pv_.start = start_;
  pv_.threads = E;
  pv_.rows = E > 0 ? static_cast<int>(rows) : 0;
  pv_.data_count = E;
  if (E == 0) return;  // nothing to serve (no clause left)
  if (!strategy_) {
    const RemapSettings& r = p_.remap;
    remap::RemapOptions o = r.options;
    o.reference_patterns = CalcPiBody::kReferencePatterns;
    o.writes_through_pattern = false;
    o.data_changes = true;  // the surveys change every sweep (dup copies references, not them)
    o.horizon.executions = r.expected_sweeps;
    o.horizon.plan_every = 0;
    o.kernel =
        "SP's calc_pi_values (it reads its own edge's flag, sign and list position and writes its "
        "ratio besides the gather sq[var_col[var_rowOff[ed_dst[t]] + j]])";
    strategy_ = remap::make_strategy<Real>(r.mode.name(), o);
  }
  std::unique_ptr<remap::IrregularPattern> host;
  if (strategy_->needs_host_pattern())
    host = std::make_unique<remap::IrregularPattern>(remap::host_pattern(pv_, sizeof(Real)));
  strategy_->plan(pv_, host.get());
  ++stats_.plans;
}

bool SurveyPropagation::compact_if_sparse(std::int64_t live_edges) {
  const double share = p_.remap.compact;
  if (!(share > 0) || g_.nedges == 0 ||
      static_cast<double>(live_edges) >= share * static_cast<double>(g_.nedges))
    return false;
  Kokkos::Timer timer;
  auto h_sat = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), clause_sat_);
  auto h_val = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), value_);
  auto h_sq = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sq_);
  std::vector<Real> sq_lit(cur_.lits.size());
  for (std::int64_t e = 0; e < g_.nedges; ++e) sq_lit[g_.edge_literal[e]] = h_sq(e);
  // The unsatisfied clauses over their free literals, in the same order.
  Formula next;
  next.nvars = cur_.nvars;
  next.lits.reserve(static_cast<std::size_t>(live_edges));
  std::vector<std::int32_t> lit_orig, clause_orig;
  std::vector<Real> sq_next;
  lit_orig.reserve(static_cast<std::size_t>(live_edges));
  sq_next.reserve(static_cast<std::size_t>(live_edges));
  for (std::int64_t c = 0; c < cur_.clauses(); ++c) {
    if (h_sat(c)) continue;
    for (std::int64_t k = cur_.clause_offset[c]; k < cur_.clause_offset[c + 1]; ++k) {
      if (h_val(lit_var(cur_.lits[k])) != 0) continue;
      next.lits.push_back(cur_.lits[k]);
      lit_orig.push_back(lit_orig_[k]);
      sq_next.push_back(sq_lit[k]);
    }
    next.clause_offset.push_back(next.literals());
    clause_orig.push_back(clause_orig_[c]);
  }
  build(next, std::move(lit_orig), std::move(clause_orig), &sq_next);
  ++stats_.compactions;
  stats_.compact_ms += 1e3 * timer.seconds();
  return true;
}

std::int64_t SurveyPropagation::calc_pi_references() const {
  std::int64_t n = 0;
  const auto len = len_;
  Kokkos::parallel_reduce(
      "SP::calc_pi_references", Policy(0, static_cast<std::int64_t>(len.extent(0))),
      KOKKOS_LAMBDA(const std::int64_t t, std::int64_t& sum) { sum += len(t); }, n);
  return n;
}

CalcPiModel SurveyPropagation::model() const {
  CalcPiModel m;
  if (g_.nedges == 0) return m;
  const remap::IrregularPattern host = remap::host_pattern(pv_, sizeof(Real));
  m.references = host.references();
  remap::TransactionModel tm;  // 4-byte var_col entries and lengths, no weights
  m.gather = remap::count_breakdown_gather(host, tm);
  // dup on an Offsets pattern duplicates the references (seed 000 §6.3.2: var_col ->
  // new_var_col): the surveys are still gathered, through the copy, whose loads are coalesced
  // (rows-by-threads, 4-byte entries), and the bounds are len[t].
  m.dup.data = m.gather.data;
  m.dup.index = remap::count_transactions_duplicated(host, tm.warp_size);
  m.dup.lengths =
      remap::count_contiguous_transactions(0, host.threads, tm.length_bytes, tm.warp_size);
  m.strategy = strategy_->model_breakdown(host);
  return m;
}

}  // namespace mdremap::sp

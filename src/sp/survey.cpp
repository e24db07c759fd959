#include "sp/survey.hpp"

#include <fmt/format.h>

#include <Kokkos_BitManipulation.hpp>
#include <Kokkos_Sort.hpp>
#include <algorithm>
#include <limits>

#include "mdremap/error.hpp"
#include "mdremap/remap/clustering.hpp"
#include "mdremap/remap/partition.hpp"
#include "mdremap/remap/registry.hpp"
#include "mdremap/remap/two_level_remap.hpp"
#include "mdremap/rng.hpp"
#include "sp/kernels.hpp"

namespace mdremap::sp {

namespace {

using Policy = Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>;
using ConstRandomReal = Kokkos::View<const Real*, Kokkos::MemoryTraits<Kokkos::RandomAccess>>;

// Decimation key of a free variable: |bias| first (a non-negative float orders like its bits),
// then the lower variable id. Fixed variables get 0, below every free one.
KOKKOS_INLINE_FUNCTION std::uint64_t decimation_key(const Real bias, const std::int32_t v) {
  const float mag = static_cast<float>(bias < 0 ? -bias : bias);
  return (static_cast<std::uint64_t>(Kokkos::bit_cast<std::uint32_t>(mag)) << 32) |
         (0xffffffffULL - static_cast<std::uint64_t>(v));
}

// LonestarGPU update_bias: W+ and W- of a free variable from its clauses' surveys.
struct BiasKernel {
  Kokkos::View<const std::int64_t*> var_off;
  Kokkos::View<const std::int32_t*> var_edges;
  ConstRandomReal sq;
  Kokkos::View<const std::int8_t*> value;
  Kokkos::View<Real*> bias;
  Kokkos::View<std::uint64_t*> keys;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t v, std::int64_t& nfree,
                                         std::int64_t& contradictions, double& sum_max_w,
                                         double& max_bias) const {
    if (value(v) != 0) {
      keys(v) = 0;
      return;
    }
    Real p_plus = 1, p_minus = 1;  // no warning from the clauses where v appears +, -
    for (std::int64_t k = var_off(v); k < var_off(v + 1); ++k) {
      const Real s = sq(var_edges(k));
      if (Kokkos::signbit(s))
        p_minus *= Kokkos::fabs(s);
      else
        p_plus *= s;
    }
    const Real pi_plus = (Real(1) - p_plus) * p_minus;
    const Real pi_minus = (Real(1) - p_minus) * p_plus;
    const Real sum = pi_plus + pi_minus + p_plus * p_minus;
    if (!(sum > Real(0))) ++contradictions;
    const Real w_plus = sum > Real(0) ? pi_plus / sum : Real(0);
    const Real w_minus = sum > Real(0) ? pi_minus / sum : Real(0);
    const Real b = w_plus - w_minus;
    bias(v) = b;
    keys(v) = decimation_key(b, static_cast<std::int32_t>(v));
    ++nfree;
    sum_max_w += w_plus > w_minus ? w_plus : w_minus;
    const double mag = b < 0 ? -b : b;
    if (mag > max_bias) max_bias = mag;
  }
};

// The four counts one clause pass reduces.
struct ClauseCounts {
  std::int64_t unsat = 0, conflicts = 0, live = 0;
  std::int64_t first = std::numeric_limits<std::int64_t>::max();
  KOKKOS_INLINE_FUNCTION ClauseCounts& operator+=(const ClauseCounts& o) {
    unsat += o.unsat;
    conflicts += o.conflicts;
    live += o.live;
    if (o.first < first) first = o.first;
    return *this;
  }
};

}  // namespace
}  // namespace mdremap::sp

namespace Kokkos {
template <>
struct reduction_identity<mdremap::sp::ClauseCounts> {
  KOKKOS_FORCEINLINE_FUNCTION static mdremap::sp::ClauseCounts sum() { return {}; }
};
}  // namespace Kokkos

namespace mdremap::sp {
namespace {

// Satisfied clauses are marked, edges of satisfied clauses or fixed variables die (|sq| = 1,
// ratio 1), unsatisfied clauses with one free literal propose it (forced: bit 0 true, bit 1
// false), those with none are conflicts.
struct ClausePass {
  Kokkos::View<const std::int64_t*> clause_off;
  Kokkos::View<const std::int32_t*> clause_edges, edge_var;
  Kokkos::View<const std::uint8_t*> edge_neg;
  Kokkos::View<const std::int8_t*> value;
  Kokkos::View<std::uint8_t*> clause_sat, edge_dead;
  Kokkos::View<Real*> sq, ratio;
  Kokkos::View<std::int32_t*> forced;
  KOKKOS_INLINE_FUNCTION void kill(const std::int32_t e) const {
    edge_dead(e) = 1;
    sq(e) = Kokkos::copysign(Real(1), sq(e));
    ratio(e) = Real(1);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t c, ClauseCounts& n) const {
    if (clause_sat(c)) return;
    const std::int64_t b = clause_off(c), end = clause_off(c + 1);
    int nfree = 0;
    std::int32_t last = -1;
    bool sat = false;
    for (std::int64_t k = b; k < end && !sat; ++k) {
      const std::int32_t e = clause_edges(k);
      const std::int8_t x = value(edge_var(e));
      if (x == 0) {
        ++nfree;
        last = e;
      } else {
        sat = (x > 0) != (edge_neg(e) != 0);
      }
    }
    if (sat) {
      clause_sat(c) = 1;
      for (std::int64_t k = b; k < end; ++k)
        if (!edge_dead(clause_edges(k))) kill(clause_edges(k));
      return;
    }
    for (std::int64_t k = b; k < end; ++k) {
      const std::int32_t e = clause_edges(k);
      if (!edge_dead(e) && value(edge_var(e)) != 0) kill(e);
    }
    ++n.unsat;
    n.live += nfree;
    if (nfree == 0) {
      ++n.conflicts;
      if (c < n.first) n.first = c;
    } else if (nfree == 1) {
      Kokkos::atomic_or(&forced(edge_var(last)), edge_neg(last) ? 2 : 1);
    }
  }
};

// Applies the unit proposals; a variable proposed both ways is a conflict.
struct UnitPass {
  Kokkos::View<std::int32_t*> forced;
  Kokkos::View<std::int8_t*> value;
  Kokkos::View<std::uint8_t*> how;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t v, std::int64_t& fixed,
                                         std::int64_t& conflicts, std::int64_t& first) const {
    const std::int32_t f = forced(v);
    if (f == 0) return;
    forced(v) = 0;
    if (f == 3) {
      ++conflicts;
      if (v < first) first = v;
      return;
    }
    value(v) = f == 1 ? 1 : -1;
    how(v) = static_cast<std::uint8_t>(FixedBy::Unit);
    ++fixed;
  }
};

// A free variable that occurs in no unsatisfied clause is unconstrained (set false); one that
// occurs with one sign only is a pure literal (set to satisfy those clauses) when enabled.
struct PurePass {
  Kokkos::View<const std::int64_t*> var_off;
  Kokkos::View<const std::int32_t*> var_edges, edge_clause;
  Kokkos::View<const std::uint8_t*> edge_neg, clause_sat;
  Kokkos::View<std::int8_t*> value;
  Kokkos::View<std::uint8_t*> how;
  bool pure = true;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t v, std::int64_t& npure,
                                         std::int64_t& nunc) const {
    if (value(v) != 0) return;
    bool pos = false, neg = false;
    for (std::int64_t k = var_off(v); k < var_off(v + 1) && !(pos && neg); ++k) {
      const std::int32_t e = var_edges(k);
      if (clause_sat(edge_clause(e))) continue;
      if (edge_neg(e))
        neg = true;
      else
        pos = true;
    }
    if (!pos && !neg) {
      value(v) = -1;
      how(v) = static_cast<std::uint8_t>(FixedBy::Unconstrained);
      ++nunc;
    } else if (pure && pos != neg) {
      value(v) = pos ? 1 : -1;
      how(v) = static_cast<std::uint8_t>(FixedBy::Pure);
      ++npure;
    }
  }
};

struct DecimateKernel {
  Kokkos::View<const std::uint64_t*> keys;
  Kokkos::View<const Real*> bias;
  Kokkos::View<std::int8_t*> value;
  Kokkos::View<std::uint8_t*> how;
  std::uint64_t threshold = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t v, std::int64_t& fixed) const {
    if (value(v) != 0 || keys(v) < threshold) return;
    value(v) = bias(v) > Real(0) ? 1 : -1;
    how(v) = static_cast<std::uint8_t>(FixedBy::Sp);
    ++fixed;
  }
};

remap::GatherPath gather_path(const std::string& name) {
  if (name == "global") return remap::GatherPath::Global;
  if (name == "texture") return remap::GatherPath::Texture;
  return remap::GatherPath::ReadOnly;
}

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

// The edge order of a reordering (BRIEF section 5 `--reorder`), as literal indices of f.
std::vector<std::int64_t> edge_order(const Formula& f, const RemapSettings& r) {
  if (r.reorder == "none") return {};
  if (r.reorder == "variable") return variable_major_order(f);
  const remap::IrregularPattern host = literal_pattern(f);
  remap::ThreadPermutation perm;
  if (r.reorder == "labelprop") {
    // seed 001 §3.4: clusters of about one thread block.
    remap::LabelPropagationOptions o;
    o.cluster_threads = r.block;
    perm = remap::LabelPropagationClustering(o).cluster(host).thread_perm;
  } else if (r.reorder == "partition") {
    // seed 002 Algorithm 1: data-balanced parts that fit the cache.
    remap::PartitionOptions o;
    o.cache_bytes = r.partition_bytes;
    perm = remap::partition_cache_fit(host, o).thread_perm;
  } else {
    throw Error("sp: unknown reorder '" + r.reorder + "'");
  }
  return std::vector<std::int64_t>(perm.begin(), perm.end());
}

}  // namespace

SurveyPropagation::SurveyPropagation(const Formula& f, const SurveyParams& p) : p_(p) {
  input_clauses_ = f.clauses();
  input_literals_ = f.literals();
  const std::int64_t V = f.nvars;
  value_ = Kokkos::View<std::int8_t*>("SP::value", V);
  how_ = Kokkos::View<std::uint8_t*>("SP::fixed_by", V);
  bias_ = Kokkos::View<Real*>("SP::bias", V);
  forced_ = Kokkos::View<std::int32_t*>("SP::forced", V);
  keys_ = Kokkos::View<std::uint64_t*>("SP::keys", V);
  sorted_ = Kokkos::View<std::uint64_t*>("SP::keys_sorted", V);
  stats_.reorder = p.remap.reorder;
  // Initial surveys: uniform in [0, 1) per input literal (LonestarGPU: rand() / RAND_MAX), a
  // function of (seed, literal) only, so reorderings and compactions start alike.
  std::vector<Real> sq(f.lits.size());
  Real* out = sq.data();
  const std::int32_t* lits = f.lits.data();
  const std::uint64_t seed = p.seed;
  Kokkos::parallel_for(
      "SP::init_surveys",
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<std::int64_t>>(
          0, f.literals()),
      [=](const std::int64_t k) {
        const Real eta =
            static_cast<Real>(uniform01(hash3(seed, static_cast<std::uint64_t>(k), 0x5eed)));
        out[k] = lits[k] < 0 ? -(Real(1) - eta) : Real(1) - eta;
      });
  Kokkos::fence();
  std::vector<std::int32_t> lit_orig(f.lits.size()), clause_orig(f.clauses());
  for (std::size_t k = 0; k < lit_orig.size(); ++k) lit_orig[k] = static_cast<std::int32_t>(k);
  for (std::size_t c = 0; c < clause_orig.size(); ++c)
    clause_orig[c] = static_cast<std::int32_t>(c);
  build(f, std::move(lit_orig), std::move(clause_orig), &sq);
}

SurveyPropagation::~SurveyPropagation() = default;

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
    remap::RemapOptions o;
    o.chunks = r.chunks;
    o.streams = r.streams;
    o.dup_fraction = r.dup_fraction;
    o.cache = r.cache;
    o.path = gather_path(r.gather_path);
    o.block_threads = r.block;
    o.smem_bytes = r.smem_bytes;
    o.profile_steps = r.profile_steps;
    o.reference_patterns = CalcPiBody::kReferencePatterns;
    o.writes_through_pattern = false;
    o.data_changes = true;  // the surveys change every sweep (dup copies references, not them)
    o.horizon.executions = r.expected_sweeps;
    o.horizon.plan_every = 0;
    o.kernel =
        "SP's calc_pi_values (it reads its own edge's flag, sign and list position and writes its "
        "ratio besides the gather sq[var_col[var_rowOff[ed_dst[t]] + j]])";
    strategy_ = remap::make_strategy<Real>(r.mode, o);
  }
  std::unique_ptr<remap::IrregularPattern> host;
  if (strategy_->needs_host_pattern())
    host = std::make_unique<remap::IrregularPattern>(remap::host_pattern(pv_, sizeof(Real)));
  strategy_->plan(pv_, host.get());
  ++stats_.plans;
}

IterationResult SurveyPropagation::iterate() {
  IterationResult r;
  const Kokkos::DefaultExecutionSpace exec;
  Kokkos::Timer timer;
  if (g_.nedges > 0) {
    strategy_->set_data(sq_, true);
    const CalcPiBody body{g_.edge_neg, edge_dead_, g_.var_pos, ratio_};
    remap::Sums2 s;
    remap::execute(*strategy_, body, false, s);
  }
  exec.fence();
  r.calc_pi_ms = 1e3 * timer.seconds();
  timer.reset();
  const UpdateSurveyBody body{clause_sat_, edge_dead_, sq_, static_cast<Real>(p_.epsilon),
                              static_cast<Real>(p_.damping)};
  const auto acc =
      remap::GatherAccess<Real, remap::GatherPath::ReadOnly, remap::PatternLayout::Offsets>::of(
          clause_pv_, ratio_);
  remap::Sums2 s;
  remap::launch_range("SP::update_surveys", exec, body, acc, 0, g_.nclauses, true, s);
  r.moving = static_cast<std::int64_t>(s.s0);
  r.update_ms = 1e3 * timer.seconds();
  return r;
}

IterationResult SurveyPropagation::iterate_counting(std::int64_t& contradictions) {
  contradictions = 0;
  if (g_.nedges > 0) {
    strategy_->set_data(sq_, true);
    const CalcPiBody body{g_.edge_neg, edge_dead_, g_.var_pos, ratio_};
    remap::Sums2 s;
    remap::execute(*strategy_, body, true, s);
    contradictions = static_cast<std::int64_t>(s.s0);
  }
  IterationResult r;
  const UpdateSurveyBody body{clause_sat_, edge_dead_, sq_, static_cast<Real>(p_.epsilon),
                              static_cast<Real>(p_.damping)};
  const auto acc =
      remap::GatherAccess<Real, remap::GatherPath::ReadOnly, remap::PatternLayout::Offsets>::of(
          clause_pv_, ratio_);
  remap::Sums2 s;
  remap::launch_range("SP::update_surveys", Kokkos::DefaultExecutionSpace(), body, acc, 0,
                      g_.nclauses, true, s);
  r.moving = static_cast<std::int64_t>(s.s0);
  return r;
}

BiasResult SurveyPropagation::biases() {
  Kokkos::Timer timer;
  BiasResult r;
  double sum = 0, mx = 0;
  BiasKernel k{g_.var_off, g_.var_edges, sq_, value_, bias_, keys_};
  Kokkos::parallel_reduce("SP::update_bias", Policy(0, g_.nvars), k,
                          Kokkos::Sum<std::int64_t>(r.free_vars),
                          Kokkos::Sum<std::int64_t>(r.contradictions), Kokkos::Sum<double>(sum),
                          Kokkos::Max<double>(mx));
  r.mean_max_w = r.free_vars > 0 ? sum / static_cast<double>(r.free_vars) : 0.0;
  r.max_bias = r.free_vars > 0 ? mx : 0.0;
  r.ms = 1e3 * timer.seconds();
  return r;
}

std::int64_t SurveyPropagation::decimate(std::int64_t count) {
  const std::int64_t V = g_.nvars;
  if (count <= 0 || V == 0) return 0;
  if (count > V) count = V;
  Kokkos::deep_copy(sorted_, keys_);
  Kokkos::sort(sorted_);
  std::uint64_t threshold = 0;
  Kokkos::deep_copy(threshold, Kokkos::subview(sorted_, V - count));
  if (threshold == 0) threshold = 1;  // fewer free variables than asked: fix them all
  std::int64_t fixed = 0;
  DecimateKernel k{keys_, bias_, value_, how_, threshold};
  Kokkos::parallel_reduce("SP::decimate", Policy(0, V), k, fixed);
  return fixed;
}

SimplifyResult SurveyPropagation::simplify() {
  Kokkos::Timer timer;
  SimplifyResult r;
  const std::int64_t C = g_.nclauses, V = g_.nvars;
  const std::int64_t none = std::numeric_limits<std::int64_t>::max();
  ClausePass cp{g_.clause_off, g_.clause_edges, g_.edge_var, g_.edge_neg, value_,
                clause_sat_,   edge_dead_,      sq_,         ratio_,      forced_};
  UnitPass up{forced_, value_, how_};
  PurePass pp{g_.var_off,  g_.var_edges, g_.edge_clause, g_.edge_neg,
              clause_sat_, value_,       how_,           p_.pure_literals};
  for (;;) {
    ++r.passes;
    ClauseCounts n;
    Kokkos::parallel_reduce("SP::simplify_clauses", Policy(0, C), cp, Kokkos::Sum<ClauseCounts>(n));
    r.unsat_clauses = n.unsat;
    r.live_edges = n.live;
    if (n.conflicts > 0) {
      r.conflict = true;
      r.conflict_where =
          "clause " + std::to_string(clause_orig_[n.first] + 1) + " has no true or free literal";
      Kokkos::deep_copy(forced_, 0);
      break;
    }
    std::int64_t fixed = 0, conflicts = 0, first = none;
    Kokkos::parallel_reduce("SP::simplify_units", Policy(0, V), up,
                            Kokkos::Sum<std::int64_t>(fixed), Kokkos::Sum<std::int64_t>(conflicts),
                            Kokkos::Min<std::int64_t>(first));
    if (conflicts > 0) {
      r.conflict = true;
      r.conflict_where =
          "variable " + std::to_string(first + 1) + " is forced true and false by unit clauses";
      break;
    }
    r.fixed_unit += fixed;
    if (fixed > 0) continue;
    std::int64_t npure = 0, nunc = 0;
    Kokkos::parallel_reduce("SP::simplify_pure", Policy(0, V), pp, Kokkos::Sum<std::int64_t>(npure),
                            Kokkos::Sum<std::int64_t>(nunc));
    r.fixed_pure += npure;
    r.unconstrained += nunc;
    if (npure + nunc == 0) break;
  }
  r.ms = 1e3 * timer.seconds();
  return r;
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

std::vector<std::int8_t> SurveyPropagation::values() const {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), value_);
  return std::vector<std::int8_t>(h.data(), h.data() + h.extent(0));
}
std::vector<std::uint8_t> SurveyPropagation::fixed_by() const {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), how_);
  return std::vector<std::uint8_t>(h.data(), h.data() + h.extent(0));
}
std::vector<std::uint8_t> SurveyPropagation::clause_sat() const {
  // Clauses dropped by a compaction were satisfied.
  std::vector<std::uint8_t> out(static_cast<std::size_t>(input_clauses_), 1);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), clause_sat_);
  for (std::size_t c = 0; c < clause_orig_.size(); ++c) out[clause_orig_[c]] = h(c);
  return out;
}
std::vector<Real> SurveyPropagation::surveys() const {
  std::vector<Real> out(static_cast<std::size_t>(input_literals_), Real(0));
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sq_);
  for (std::int64_t e = 0; e < g_.nedges; ++e)
    out[lit_orig_[g_.edge_literal[e]]] = Real(1) - std::abs(h(e));
  return out;
}

RemapStats SurveyPropagation::remap_stats() const {
  RemapStats s = stats_;
  if (strategy_) {
    s.report = strategy_->report();
    s.strategy = strategy_->name();
  } else {
    s.strategy = p_.remap.mode;
  }
  return s;
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

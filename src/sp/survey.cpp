#include "sp/survey.hpp"

#include <Kokkos_BitManipulation.hpp>
#include <Kokkos_Sort.hpp>
#include <cmath>

#include "mdremap/remap/registry.hpp"
#include "mdremap/remap/reorders.hpp"
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
  stats_.reorder = remap::to_string(p.remap.reorder);
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
    s.strategy = p_.remap.mode.name();
  }
  return s;
}

}  // namespace mdremap::sp

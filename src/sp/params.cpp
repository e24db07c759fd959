#include "sp/params.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "io/deck.hpp"
#include "sp/generator.hpp"
#include "sp/kernels.hpp"

namespace mdremap::sp {

const remap::RemapApp& remap_app() {
  static const remap::RemapApp app = [] {
    remap::RemapApp a;
    a.defaults = RemapSettings{};
    using R = remap::Reorder;
    a.reorders = {R::None, R::Variable, R::LabelProp, R::Partition};
    a.without = {"index_bits", "lanes", "plan_overlap", "plan_overlap_steps"};
    a.values["gather_path"] = {"global", "readonly", "texture"};
    a.mode_help = "How calc_pi_values' two-level reference is served (padding does not apply)";
    a.reorder_help = "Edge (thread) order";
    return a;
  }();
  return app;
}

namespace {

using io::one_of;

void in_range(io::DeckSection& s, const std::string& key, double v, double lo, double hi,
              bool lo_open) {
  const bool ok = std::isfinite(v) && (lo_open ? v > lo : v >= lo) && v <= hi;
  if (!ok) s.fail(key, fmt::format("must be in {}{}, {}], got {}", lo_open ? "(" : "[", lo, hi, v));
}

}  // namespace

SpParams read_sp_params(io::Deck& deck) {
  SpParams p;
  auto root = deck.root();

  auto fm = root.section("formula");
  p.source = fm.require<std::string>("source");
  if (p.source.empty()) fm.fail("source", "must name a DIMACS CNF file or random-C-V-K");
  try {
    parse_random_spec(p.source);
  } catch (const Error& e) {
    fm.fail("source", e.what());
  }
  p.formula_seed = fm.get<unsigned long long>("seed", p.formula_seed);
  fm.finish();

  SolveParams& s = p.solve;
  auto sp = root.section("sp");
  s.survey.epsilon = sp.get<double>("epsilon", s.survey.epsilon);
  in_range(sp, "epsilon", s.survey.epsilon, 0.0, 1.0, true);
  s.max_iterations = sp.get<int>("max_iterations", s.max_iterations);
  if (s.max_iterations < 1) sp.fail("max_iterations", "must be at least 1");
  s.survey.damping = sp.get<double>("damping", s.survey.damping);
  in_range(sp, "damping", s.survey.damping, 0.0, 0.99, false);
  s.fraction = sp.get<double>("fraction", s.fraction);
  in_range(sp, "fraction", s.fraction, 0.0, 1.0, true);
  s.paramagnet = sp.get<double>("paramagnet", s.paramagnet);
  in_range(sp, "paramagnet", s.paramagnet, 0.0, 1.0, false);
  s.max_rounds = sp.get<long long>("max_rounds", s.max_rounds);
  if (s.max_rounds < 0) sp.fail("max_rounds", "must not be negative (0: until paramagnetic)");
  s.retries = sp.get<int>("retries", s.retries);
  if (s.retries < 0)
    sp.fail("retries", "must not be negative (0: stop at the first unconverged round)");
  s.survey.pure_literals = sp.get<bool>("pure_literals", s.survey.pure_literals);
  s.survey.seed = sp.get<unsigned long long>("seed", s.survey.seed);
  sp.finish();

  auto ws = root.section("walksat");
  s.walksat.max_flips = ws.get<long long>("max_flips", s.walksat.max_flips);
  if (s.walksat.max_flips < 0) ws.fail("max_flips", "must not be negative");
  s.walksat.noise = ws.get<double>("noise", s.walksat.noise);
  in_range(ws, "noise", s.walksat.noise, 0.0, 1.0, false);
  s.walksat.seed = ws.get<unsigned long long>("seed", s.walksat.seed);
  ws.finish();

  auto rm = root.section("remap");
  RemapSettings& r = s.survey.remap;
  static_cast<remap::RemapSettings&>(r) = remap::read_remap(rm, remap_app());
  // A strategy that cannot serve calc_pi_values says why (seed 001 §3.3: padding regroups
  // threads, and the kernel also reads and writes its own edge).
  remap::RemapOptions ro;
  ro.reference_patterns = CalcPiBody::kReferencePatterns;
  ro.kernel = "calc_pi_values (it reads its own edge besides the var_col gather)";
  if (const auto a = r.mode.applies(ro); !a.ok)
    rm.fail("mode", "'" + r.mode.name() + "' does not apply: " + a.why);
  r.compact = rm.get<double>("compact", r.compact);
  in_range(rm, "compact", r.compact, 0.0, 1.0, false);
  rm.finish();

  auto rp = root.section("report");
  p.transactions = one_of(rp, "transactions", "auto", {"auto", "on", "off"});
  s.transactions = p.transactions;
  rp.finish();
  root.finish();
  return p;
}

}  // namespace mdremap::sp

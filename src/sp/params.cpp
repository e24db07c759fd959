#include "sp/params.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "io/deck.hpp"
#include "sp/generator.hpp"

namespace mdremap::sp {

namespace {

std::string one_of(io::DeckSection& s, const std::string& key, const std::string& fallback,
                   const std::vector<std::string>& allowed) {
  const std::string v = s.get<std::string>(key, fallback);
  if (std::find(allowed.begin(), allowed.end(), v) != allowed.end()) return v;
  std::string msg = fmt::format("unknown value '{}'", v);
  const std::string near = io::nearest(v, allowed);
  if (!near.empty()) msg += fmt::format(" (did you mean '{}'?)", near);
  msg += " (one of:";
  for (const auto& a : allowed) msg += " " + a;
  msg += ")";
  s.fail(key, msg);
}

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
  // calc_pi_values is served by the plain two-level gather (LonestarGPU); the strategies of the
  // remap layer (dup, sharing, auto) are wired to it with the remap contract.
  p.remap = one_of(rm, "mode", "gather", {"gather"});
  rm.finish();

  auto rp = root.section("report");
  p.transactions = one_of(rp, "transactions", "auto", {"auto", "on", "off"});
  rp.finish();
  root.finish();
  return p;
}

}  // namespace mdremap::sp

#include "sp/params.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "io/deck.hpp"
#include "mdremap/remap/registry.hpp"
#include "sp/generator.hpp"
#include "sp/kernels.hpp"

namespace mdremap::sp {

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
  r.mode = one_of(rm, "mode", r.mode, remap::strategy_names());
  // A strategy that cannot serve calc_pi_values says why (seed 001 §3.3: padding regroups
  // threads, and the kernel also reads and writes its own edge).
  remap::RemapOptions ro;
  ro.reference_patterns = CalcPiBody::kReferencePatterns;
  ro.kernel = "calc_pi_values (it reads its own edge besides the var_col gather)";
  for (const auto& [name, a] : remap::detail::candidates<Real>(remap::StrategyTypes<Real>{}, ro))
    if (name == r.mode && !a.ok) rm.fail("mode", "'" + name + "' does not apply: " + a.why);
  r.reorder = one_of(rm, "reorder", r.reorder, {"none", "variable", "labelprop", "partition"});
  r.gather_path = one_of(rm, "gather_path", r.gather_path, {"global", "readonly", "texture"});
#if !defined(KOKKOS_ENABLE_CUDA)
  if (r.gather_path == "texture")
    rm.fail("gather_path",
            "'texture' needs CUDA texture objects (seed 003 Algorithm 3) and this binary runs on "
            "a CPU backend: use readonly or global");
#endif
  r.chunks = rm.get<int>("chunks", r.chunks);
  if (r.chunks < 1) rm.fail("chunks", "must be at least 1");
  r.streams = rm.get<int>("streams", r.streams);
  if (r.streams < 1 || r.streams > 32) rm.fail("streams", "must be 1..32");
  r.dup_fraction = rm.get<double>("dup_fraction", r.dup_fraction);
  in_range(rm, "dup_fraction", r.dup_fraction, 0.0, 1.0, true);
  r.cache = rm.get<bool>("cache", r.cache);
  r.block = rm.get<int>("block", r.block);
  if (r.block < 1 || r.block > 1024) rm.fail("block", "must be 1..1024");
  r.smem_bytes = rm.get<long long>("smem_bytes", r.smem_bytes);
  if (r.smem_bytes < 0) rm.fail("smem_bytes", "must not be negative (0 = device maximum)");
  r.profile_steps = rm.get<int>("profile_steps", r.profile_steps);
  if (r.profile_steps < 1) rm.fail("profile_steps", "must be at least 1");
  r.explore_budget = rm.get<double>("explore_budget", r.explore_budget);
  if (!(r.explore_budget >= 0 && r.explore_budget <= 1))
    rm.fail("explore_budget", "must be in [0, 1] (0 = no limit)");
  r.partition_bytes = rm.get<long long>("partition_bytes", r.partition_bytes);
  if (r.partition_bytes < 64) rm.fail("partition_bytes", "must be at least 64");
  r.compact = rm.get<double>("compact", r.compact);
  in_range(rm, "compact", r.compact, 0.0, 1.0, false);
  p.remap = r.mode;
  rm.finish();

  auto rp = root.section("report");
  p.transactions = one_of(rp, "transactions", "auto", {"auto", "on", "off"});
  s.transactions = p.transactions;
  rp.finish();
  root.finish();
  return p;
}

}  // namespace mdremap::sp

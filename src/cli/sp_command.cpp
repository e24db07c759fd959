// `mdremap sp DECK`: survey-propagation-guided decimation for k-SAT (BRIEF section 7; the run
// itself: sp/run.hpp).
#include "cli/sp_command.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <cstdio>

#include "cli/common.hpp"
#include "io/deck.hpp"
#include "io/paths.hpp"
#include "mdremap/error.hpp"
#include "sp/run.hpp"

namespace mdremap::cli {

void add_sp_command(CLI::App& app, SpOptions& o) {
  auto* sp = app.add_subcommand(
      "sp", "Survey propagation (SP-guided decimation + WalkSAT) for k-SAT from a YAML deck");
  sp->add_option("deck", o.deck, "YAML deck (e.g. inputs/sp_random3sat.yaml)")->required();
  sp->add_option("--cnf", o.cnf,
                 "Formula to solve: a DIMACS CNF file or random-CLAUSES-VARIABLES-K (overrides "
                 "formula.source)");
  sp->add_option("--set", o.sets, "Override a deck key: --set sp.fraction=0.02 (repeatable)")
      ->take_all();
  o.remap.name_flags = false;
  add_remap_flags(sp, o.remap, sp::remap_app(), true);
  sp->add_option("--assignment-out", o.assignment_out,
                 "Write the result in DIMACS solution format (s SATISFIABLE / v ... 0)");
  sp->add_option("--summary", o.summary, "Write a JSON summary of the solve to this file");
  sp->add_option("--write-cnf", o.write_cnf,
                 "Write the formula (e.g. a generated one) as DIMACS CNF to this file and exit");
  sp->add_option("--backend", o.backend,
                 "Backend to run on (only the one compiled in: " + device_backend() + ")");
  sp->add_flag("--quiet,-q", o.quiet, "Print only errors and the final line");
  sp->footer(
      "Exit codes: 10 SATISFIABLE (assignment checked against every clause), 20 UNSATISFIABLE "
      "(proven by propagation), 30 UNKNOWN, 2 bad input, 1 runtime failure.");
}

namespace {

// The deck with the command line's overrides (a --backend this binary lacks refused first).
io::Deck sp_deck(const SpOptions& o) {
  check_backend(o.backend);
  auto deck = io::Deck::from_file(o.deck);
  for (const auto& s : o.sets) deck.apply_override(s);
  if (!o.cnf.empty()) {
    try {
      sp::parse_random_spec(o.cnf);
    } catch (const Error& e) {
      throw InputError("--cnf", 0, e.what());
    }
    deck.set_string("formula.source", o.cnf, "--cnf");
  }
  apply_remap_flags(o.remap, deck);
  return deck;
}

void print_result(const sp::SolveResult& r, double wall_seconds) {
  const sp::SolveStats& st = r.stats;
  const double per_it = st.sp_iterations > 0 ? 1.0 / st.sp_iterations : 0.0;
  fmt::print(
      "SP: {} sweeps in {} decimation rounds ({:.4g} ms per sweep: calc_pi_values {:.4g}, "
      "survey update {:.4g}); stopped: {}\n",
      st.sp_iterations, st.decimation_rounds, (st.calc_pi_ms + st.update_ms) * per_it,
      st.calc_pi_ms * per_it, st.update_ms * per_it, st.stop);
  fmt::print(
      "Fixed: {} by SP, {} by unit propagation, {} pure literals, {} by WalkSAT, {} "
      "unconstrained\n",
      st.fixed_sp, st.fixed_unit, st.fixed_pure, st.fixed_walksat, st.unconstrained);
  if (st.residual_clauses > 0)
    fmt::print("WalkSAT: {} flips in {:.3g} s on {} clauses over {} variables{}\n",
               st.walksat_flips, st.walksat_s, st.residual_clauses, st.residual_vars,
               st.walksat_full ? " (the whole formula, after a contradiction)" : "");
  const auto& rr = st.remap;
  fmt::print(
      "calc_pi_values: served by {} (reorder {}), {} plans ({} compactions), remap cache "
      "{} hits / {} misses, {:.3g} MB extra{}\n",
      st.remap_strategy, st.reorder, st.plans, st.compactions, rr.cache_hits, rr.cache_misses,
      rr.extra_bytes / 1e6, rr.decision.empty() ? std::string() : "; " + rr.decision);
  if (st.model_computed)
    fmt::print(
        "Transactions per calc_pi_values sweep on the input graph (32-byte segments, {} "
        "references): gather {} (surveys {}, var_col {}, bounds {}); duplicated "
        "references {} (var_col {}); {} {}\n",
        st.references, st.model_gather.total().seg32, st.model_gather.data.seg32,
        st.model_gather.index.seg32, st.model_gather.lengths.seg32, st.model_dup.total().seg32,
        st.model_dup.index.seg32, st.remap_strategy, st.model_strategy.total().seg32);
  fmt::print(
      "Time: solve {:.4g} s (graph {:.3g}, SP {:.4g}, WalkSAT {:.3g}, check {:.3g}); "
      "wall {:.4g} s\n",
      st.solve_s, st.graph_s, st.sp_s, st.walksat_s, st.verify_s, wall_seconds);
}

// The formula's line, the solve's progress (one line: rounds, then WalkSAT) and its result.
class Console : public sp::RunObserver {
 public:
  Console(bool quiet, const sp::SpParams& p, const Kokkos::Timer& wall)
      : quiet_(quiet), p_(p), wall_(wall), progress_(!quiet) {}
  // Warnings on stderr, one line each, quiet or not.
  void formula(const sp::FormulaInfo& fi) override {
    for (const auto& w : fi.notes.warnings) fmt::print(stderr, "{}\n", w);
    nvars_ = fi.f.nvars;
    timer_.reset();
    if (quiet_) return;
    fmt::print(
        "# formula {}: {} variables, {} clauses (ratio {:.4g}), {} literals, longest clause "
        "{} ({:.3g} s to {})\n",
        p_.source, fi.f.nvars, fi.f.clauses(), fi.ratio, fi.f.literals(), fi.max_clause, fi.seconds,
        fi.spec ? fmt::format("generate, seed {}", p_.formula_seed) : std::string("read"));
  }
  void wrote_cnf(const std::string& path) override {
    if (!quiet_) fmt::print("# wrote {}\n", path);
  }
  void round(const sp::RoundInfo& r) override {
    iterations_ += r.iterations;
    show(fmt::format(
        "round {}: {} SP sweeps (total {}), <max W> {:.3f}, {} of {} variables "
        "free, {} clauses left",
        r.round, r.iterations, iterations_, r.mean_max_w, r.free_vars, nvars_, r.unsat_clauses));
  }
  void walksat(std::int64_t flips, std::int64_t unsat, std::int64_t max) override {
    show(fmt::format("WalkSAT: {} flips of at most {}, {} clauses unsatisfied", flips, max, unsat));
  }
  void solved(const sp::SolveResult& r) override {
    progress_.clear();
    std::fflush(stdout);
    if (!quiet_) print_result(r, wall_.seconds());
    fmt::print("s {} ({})\n", sp::outcome_name(r.outcome), r.reason);
    std::fflush(stdout);
  }

 private:
  // Off a terminal a line carries the seconds since the solve began.
  void show(const std::string& line) {
    const double now = timer_.seconds();
    if (!progress_.due(now)) return;
    progress_.show(progress_.tty() ? line : fmt::format("[{:.1f} s] {}", now, line));
  }
  bool quiet_;
  const sp::SpParams& p_;
  const Kokkos::Timer& wall_;
  ProgressLine progress_;
  Kokkos::Timer timer_;
  std::int64_t nvars_ = 0, iterations_ = 0;
};

nlohmann::json tc_json(const remap::TransactionCount& t) {
  return {{"loads", t.loads}, {"seg32", t.seg32}, {"seg128", t.seg128}};
}

nlohmann::json breakdown_json(const remap::TransactionBreakdown& b) {
  return {{"data", tc_json(b.data)},
          {"index", tc_json(b.index)},
          {"lengths", tc_json(b.lengths)},
          {"total", tc_json(b.total())}};
}

nlohmann::json remap_json(const sp::SpParams& p, const sp::SolveStats& st) {
  const auto& rr = st.remap;
  nlohmann::json preds = nlohmann::json::array();
  for (const auto& c : rr.predictions)
    preds.push_back({{"name", c.name},
                     {"plan_ms", c.plan_ms},
                     {"exec_ms", c.exec_ms},
                     {"run_ms", c.run_ms},
                     {"profiled", c.profiled},
                     {"note", c.note}});
  return {{"mode", p.solve.survey.remap.mode.name()},
          {"strategy", st.remap_strategy},
          {"reorder", st.reorder},
          {"plans", st.plans},
          {"compactions", st.compactions},
          {"compact_ms", st.compact_ms},
          {"reorder_ms", st.reorder_ms},
          {"plan_ms", rr.plan_ms},
          {"cache_hits", rr.cache_hits},
          {"cache_misses", rr.cache_misses},
          {"invalidations", rr.invalidations},
          {"extra_bytes", rr.extra_bytes},
          {"dup_target", rr.dup_target},
          {"rows", rr.rows},
          {"sharing_splits", rr.splits},
          {"decision", rr.decision},
          {"predictions", preds}};
}

nlohmann::json transactions_json(const sp::SolveStats& st) {
  if (!st.model_computed)
    return {{"computed", false}, {"references", st.references}, {"note", st.model_note}};
  return {{"computed", true},
          {"warp", 32},
          {"references", st.references},
          {"gather", breakdown_json(st.model_gather)},
          {"dup", breakdown_json(st.model_dup)},
          {"strategy", breakdown_json(st.model_strategy)},
          {"seconds", st.model_s}};
}

nlohmann::json summary_json(const SpOptions& o, const sp::SpParams& p, const sp::RunReport& rep,
                            double wall_seconds) {
  const sp::FormulaInfo& fi = rep.formula;
  const sp::SolveResult& r = rep.result;
  const sp::SolveStats& st = r.stats;
  const double per_it = st.sp_iterations > 0 ? 1.0 / st.sp_iterations : 0.0;
  nlohmann::json j;
  j["command"] = "sp";
  j["deck"] = o.deck;
  j["backend"] = device_backend();
  j["formula"] = {{"source", p.source},
                  {"seed", p.formula_seed},
                  {"generated", fi.spec.has_value()},
                  {"variables", fi.f.nvars},
                  {"clauses", fi.f.clauses()},
                  {"literals", fi.f.literals()},
                  {"ratio", fi.ratio},
                  {"longest_clause", fi.max_clause},
                  {"warnings", fi.notes.warnings.size()}};
  j["remap"] = remap_json(p, st);
  j["outcome"] = sp::outcome_name(r.outcome);
  j["exit_code"] = sp::exit_code(r.outcome);
  j["reason"] = r.reason;
  j["sp"] = {{"iterations", st.sp_iterations},
             {"decimation_rounds", st.decimation_rounds},
             {"round_iterations", st.round_iterations},
             {"ms_per_iteration", (st.calc_pi_ms + st.update_ms) * per_it},
             {"calc_pi_ms_per_iteration", st.calc_pi_ms * per_it},
             {"update_ms_per_iteration", st.update_ms * per_it},
             {"bias_ms", st.bias_ms},
             {"decimate_ms", st.decimate_ms},
             {"simplify_ms", st.simplify_ms},
             {"contradictions", st.sp_contradictions},
             {"retries", st.retries},
             {"final_damping", st.final_damping},
             {"last_mean_max_w", st.last_mean_max_w},
             {"stop", st.stop}};
  j["fixed"] = {{"sp", st.fixed_sp},
                {"unit", st.fixed_unit},
                {"pure", st.fixed_pure},
                {"walksat", st.fixed_walksat},
                {"unconstrained", st.unconstrained}};
  j["walksat"] = {{"flips", st.walksat_flips},
                  {"seconds", st.walksat_s},
                  {"clauses", st.residual_clauses},
                  {"variables", st.residual_vars},
                  {"whole_formula", st.walksat_full}};
  j["times_s"] = {{"setup", fi.seconds},     {"graph", st.graph_s},   {"sp", st.sp_s},
                  {"walksat", st.walksat_s}, {"verify", st.verify_s}, {"solve", st.solve_s},
                  {"wall", wall_seconds}};
  j["transactions"] = transactions_json(st);
  j["build"] = build_info();
  return j;
}

}  // namespace

int run_sp(const SpOptions& o) {
  Kokkos::Timer wall;
  io::Deck deck = sp_deck(o);
  const sp::SpParams p = sp::read_sp_params(deck);
  // A generated formula (random-C-V-K) names no file.
  const bool from_file = !sp::parse_random_spec(p.source);
  io::check_outputs(
      {{"the deck", o.deck, false, ""},
       {o.cnf.empty() ? "formula.source" : "--cnf", from_file ? p.source : "", false, ""},
       {"--assignment-out", o.assignment_out, true, ""},
       {"--summary", o.summary, true, ""},
       {"--write-cnf", o.write_cnf, true, ""}});
  if (!o.quiet) print_run_header("sp", o.deck, deck);
  Console console(o.quiet, p, wall);
  const sp::RunReport rep = sp::run(
      p, {o.write_cnf, o.assignment_out, "mdremap " + std::string(MDREMAP_VERSION)}, console);
  if (!rep.solved) return 0;
  if (!o.summary.empty()) write_summary(o.summary, summary_json(o, p, rep, wall.seconds()));
  return sp::exit_code(rep.result.outcome);
}

}  // namespace mdremap::cli

// `mdremap sp DECK`: survey-propagation-guided decimation for k-SAT (BRIEF section 7).
#include "cli/sp_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "cli/common.hpp"
#include "io/deck.hpp"
#include "io/paths.hpp"
#include "mdremap/remap/registry.hpp"
#include "sp/cnf.hpp"
#include "sp/generator.hpp"
#include "sp/params.hpp"
#include "sp/solver.hpp"

namespace mdremap::cli {

namespace {

std::string yaml_quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q.push_back('\\');
    q.push_back(c);
  }
  return q + "\"";
}

void check_output(const std::string& flag, const std::string& path) {
  if (path.empty()) return;
  try {
    io::check_writable(path);
  } catch (const Error& e) {
    throw InputError(flag, 0, e.what());
  }
}

// Writes through a temporary file and a rename, so an output is complete or absent.
template <class Fn>
void write_atomically(const std::string& path, Fn&& fn) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw Error(fmt::format("{}: cannot write", path));
    fn(out);
    out.flush();
    if (!out) throw Error(fmt::format("{}: write failed", path));
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw Error(fmt::format("{}: cannot write ({})", path, ec.message()));
}

void write_solution(std::ostream& out, const sp::SolveResult& r) {
  out << "s " << sp::outcome_name(r.outcome) << "\n";
  if (r.outcome != sp::Outcome::Sat) return;
  std::string line = "v";
  for (std::size_t v = 0; v < r.assignment.size(); ++v) {
    const long lit = r.assignment[v] > 0 ? static_cast<long>(v + 1) : -static_cast<long>(v + 1);
    const std::string tok = " " + std::to_string(lit);
    if (line.size() + tok.size() > 78) {
      out << line << "\n";
      line = "v";
    }
    line += tok;
  }
  out << line << " 0\n";
}

nlohmann::json tc_json(const remap::TransactionCount& t) {
  return {{"loads", t.loads}, {"seg32", t.seg32}, {"seg128", t.seg128}};
}

nlohmann::json breakdown_json(const remap::TransactionBreakdown& b) {
  return {{"data", tc_json(b.data)},
          {"index", tc_json(b.index)},
          {"lengths", tc_json(b.lengths)},
          {"total", tc_json(b.total())}};
}

// A self-overwriting line on a terminal, a plain line every 10 s otherwise.
class SpProgress : public sp::SolveObserver {
 public:
  SpProgress(bool enabled, std::int64_t nvars)
      : enabled_(enabled), tty_(isatty(fileno(stdout)) != 0), nvars_(nvars) {}
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
  void finish() {
    if (tty_ && shown_) std::printf("\r\033[K");
    std::fflush(stdout);
  }

 private:
  void show(const std::string& line) {
    if (!enabled_) return;
    const double now = timer_.seconds();
    if (now - last_ < (tty_ ? 0.25 : 10.0)) return;
    last_ = now;
    if (tty_) {
      std::printf("\r\033[K%s", line.c_str());
      shown_ = true;
    } else {
      std::printf("progress: [%.1f s] %s\n", now, line.c_str());
    }
    std::fflush(stdout);
  }
  bool enabled_, tty_, shown_ = false;
  std::int64_t nvars_, iterations_ = 0;
  double last_ = -1e9;
  Kokkos::Timer timer_;
};

}  // namespace

int run_sp(const SpOptions& o) {
  Kokkos::Timer wall;
  check_backend(o.backend);
  auto deck = io::Deck::from_file(o.deck);
  for (const auto& s : o.sets) deck.apply_override(s);
  if (!o.cnf.empty()) {
    try {
      sp::parse_random_spec(o.cnf);
    } catch (const Error& e) {
      throw InputError("--cnf", 0, e.what());
    }
    deck.apply_override("formula.source=" + yaml_quoted(o.cnf));
  }
  if (!o.remap.empty()) deck.apply_override("remap.mode=" + o.remap);
  if (!o.reorder.empty()) deck.apply_override("remap.reorder=" + o.reorder);
  const sp::SpParams p = sp::read_sp_params(deck);
  check_output("--assignment-out", o.assignment_out);
  check_output("--summary", o.summary);
  check_output("--write-cnf", o.write_cnf);

  if (!o.quiet) {
    fmt::print("mdremap {} | backend {} | sp\n", MDREMAP_VERSION, device_backend());
    fmt::print("# resolved deck ({}):\n", o.deck);
    const std::string y = deck.resolved_yaml();
    for (size_t pos = 0, nl; pos < y.size(); pos = nl + 1) {
      nl = y.find('\n', pos);
      if (nl == std::string::npos) nl = y.size();
      fmt::print("#   {}\n", y.substr(pos, nl - pos));
    }
    std::fflush(stdout);
  }

  // The formula: generated, or read (warnings on stderr, one line each).
  Kokkos::Timer setup;
  sp::Formula f;
  sp::CnfNotes notes;
  const auto spec = sp::parse_random_spec(p.source);
  if (spec) {
    f = sp::generate_random_ksat(*spec, p.formula_seed);
  } else {
    f = sp::read_cnf_file(p.source, &notes);
    for (const auto& w : notes.warnings) fmt::print(stderr, "{}\n", w);
  }
  const double setup_s = setup.seconds();
  int max_clause = 0;
  for (std::int64_t c = 0; c < f.clauses(); ++c)
    max_clause = std::max(max_clause, f.clause_size(c));
  const double ratio = f.nvars > 0 ? static_cast<double>(f.clauses()) / f.nvars : 0.0;
  if (!o.quiet)
    fmt::print(
        "# formula {}: {} variables, {} clauses (ratio {:.4g}), {} literals, longest clause "
        "{} ({:.3g} s to {})\n",
        p.source, f.nvars, f.clauses(), ratio, f.literals(), max_clause, setup_s,
        spec ? fmt::format("generate, seed {}", p.formula_seed) : std::string("read"));

  if (!o.write_cnf.empty()) {
    write_atomically(o.write_cnf, [&](std::ostream& out) {
      sp::write_cnf(out, f,
                    {"written by mdremap " + std::string(MDREMAP_VERSION) + " from " + p.source +
                     (spec ? fmt::format(" (seed {})", p.formula_seed) : std::string())});
    });
    if (!o.quiet) fmt::print("# wrote {}\n", o.write_cnf);
    return 0;
  }

  SpProgress progress(!o.quiet, f.nvars);
  const sp::SolveResult r = sp::solve(f, p.solve, &progress);
  progress.finish();
  const sp::SolveStats& st = r.stats;
  const double per_it = st.sp_iterations > 0 ? 1.0 / st.sp_iterations : 0.0;

  if (!o.quiet) {
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
        st.solve_s, st.graph_s, st.sp_s, st.walksat_s, st.verify_s, wall.seconds());
  }
  fmt::print("s {} ({})\n", sp::outcome_name(r.outcome), r.reason);
  std::fflush(stdout);

  if (!o.assignment_out.empty())
    write_atomically(o.assignment_out, [&](std::ostream& out) { write_solution(out, r); });

  if (!o.summary.empty()) {
    nlohmann::json j;
    j["command"] = "sp";
    j["deck"] = o.deck;
    j["backend"] = device_backend();
    j["formula"] = {{"source", p.source},
                    {"seed", p.formula_seed},
                    {"generated", spec.has_value()},
                    {"variables", f.nvars},
                    {"clauses", f.clauses()},
                    {"literals", f.literals()},
                    {"ratio", ratio},
                    {"longest_clause", max_clause},
                    {"warnings", notes.warnings.size()}};
    const auto& rr = st.remap;
    nlohmann::json preds = nlohmann::json::array();
    for (const auto& c : rr.predictions)
      preds.push_back({{"name", c.name},
                       {"plan_ms", c.plan_ms},
                       {"exec_ms", c.exec_ms},
                       {"run_ms", c.run_ms},
                       {"profiled", c.profiled},
                       {"note", c.note}});
    j["remap"] = {{"mode", p.remap},
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
    nlohmann::json tj;
    if (st.model_computed)
      tj = {{"computed", true},
            {"warp", 32},
            {"references", st.references},
            {"gather", breakdown_json(st.model_gather)},
            {"dup", breakdown_json(st.model_dup)},
            {"strategy", breakdown_json(st.model_strategy)},
            {"seconds", st.model_s}};
    else
      tj = {{"computed", false}, {"references", st.references}, {"note", st.model_note}};
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
    j["times_s"] = {{"setup", setup_s},        {"graph", st.graph_s},   {"sp", st.sp_s},
                    {"walksat", st.walksat_s}, {"verify", st.verify_s}, {"solve", st.solve_s},
                    {"wall", wall.seconds()}};
    j["transactions"] = tj;
    j["build"] = build_info();
    write_summary(o.summary, j);
  }
  return sp::exit_code(r.outcome);
}

}  // namespace mdremap::cli

// `mdremap cg DECK`: conjugate gradient on a generated or Matrix Market SPD system (BRIEF
// section 6; the run itself: cg/run.hpp).
#include "cli/cg_command.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <cstdio>

#include "cg/params.hpp"
#include "cg/run.hpp"
#include "cli/common.hpp"
#include "io/deck.hpp"
#include "io/paths.hpp"
#include "mdremap/median.hpp"
#include "mdremap/remap/registry.hpp"

namespace mdremap::cli {

void add_cg_command(CLI::App& app, CgCommandOptions& o) {
  auto* cg =
      app.add_subcommand("cg", "Solve an SPD system with conjugate gradient from a YAML deck");
  cg->add_option("deck", o.deck, "YAML deck (e.g. inputs/cg_laplace3d.yaml)")->required();
  cg->add_option("--set", o.sets, "Override a deck key: --set solver.tolerance=1e-10 (repeatable)")
      ->take_all();
  cg->add_option("--matrix", o.matrix, "Matrix Market matrix to solve (replaces matrix.generator)");
  cg->add_option("--rhs", o.rhs, "Right-hand side b, Matrix Market array (rhs.file)");
  cg->add_option("--solution", o.solution,
                 "Known solution x*, Matrix Market array: the error is reported (solution.file)");
  cg->add_option("--spmv", o.spmv,
                 "SpMV kernel: csr-thread | csr-warp | sell | cusparse | auto (spmv.kernel)");
  o.remap.name_flags = false;
  add_remap_flags(cg, o.remap, cg::remap_app(), true);
  cg->add_option("--backend", o.backend,
                 "Backend to run on (only the one compiled in: " + device_backend() + ")");
  cg->add_option("--summary", o.summary, "Write a JSON summary of the solve to this file");
  cg->add_option("--write-matrix", o.write_matrix,
                 "Write the matrix as the deck defines it (after matrix.permute, before "
                 "remap.reorder) as Matrix Market");
  cg->add_option("--write-npy", o.write_npy,
                 "Write the system as PREFIX_{rowptr,col,val,b,xstar}.npy (for tools/cg_cupy.py)");
  cg->add_flag("--quiet,-q", o.quiet, "Print only errors and the final line");
}

namespace {

// The run's set-up lines and the iterations' progress on stdout.
class Console : public cg::RunObserver {
 public:
  Console(const CgCommandOptions& o, const io::Deck& deck, const cg::CgParams& p)
      : o_(o), deck_(deck), p_(p), progress_(!o.quiet, 10.0, 0.0) {}
  void system_built(const cg::LinearSystem& s) override {
    if (o_.quiet) return;
    print_run_header("cg", o_.deck, deck_);
    fmt::print("# matrix: {}\n", cg::matrix_line(s, p_));
  }
  void reordered(const std::string& note) override {
    if (!o_.quiet && !note.empty()) fmt::print("# reorder: {}\n", note);
  }
  void spmv_ready(const Ready& r) override {
    if (o_.quiet) return;
    fmt::print("# warm-up: {}{}\n", r.warm_up_note,
               r.warm_up_started
                   ? fmt::format("; waited {:.1f} ms for it", 1e3 * r.warm_up_waited_s)
                   : std::string());
    fmt::print("# spmv: {}\n", r.spmv);
    fmt::print(
        "# solver: CG (Chronopoulos-Gear), preconditioner {}, tolerance {}, at most {} "
        "iterations\n",
        p_.solver.jacobi ? "jacobi" : "none", p_.solver.tolerance, p_.solver.max_iterations);
    std::fflush(stdout);
  }
  void iteration(std::int64_t it, double rel, double seconds) override {
    if (!progress_.due(seconds)) return;
    progress_.show(fmt::format("iteration {}/{}  relative residual {:.3e}  {:.1f} iterations/s", it,
                               p_.solver.max_iterations, rel, seconds > 0 ? it / seconds : 0.0));
  }
  void solved(const std::string& horizon, const std::string& spmv) override {
    progress_.clear();
    if (o_.quiet || horizon.empty()) return;
    fmt::print("# auto: {}\n", horizon);
    fmt::print("# spmv: {}\n", spmv);
  }

 private:
  const CgCommandOptions& o_;
  const io::Deck& deck_;
  const cg::CgParams& p_;
  ProgressLine progress_;
};

// The deck with the command line's overrides (a --backend this binary lacks refused first).
io::Deck cg_deck(const CgCommandOptions& o) {
  check_backend(o.backend);
  auto deck = io::Deck::from_file(o.deck);
  for (const auto& s : o.sets) deck.apply_override(s);
  // Paths and names from flags are strings as given, never YAML; errors name the flag.
  if (!o.matrix.empty()) {
    deck.apply_override("matrix.generator=~", "--matrix");
    deck.set_string("matrix.file", o.matrix, "--matrix");
  }
  if (!o.rhs.empty()) deck.set_string("rhs.file", o.rhs, "--rhs");
  if (!o.solution.empty()) deck.set_string("solution.file", o.solution, "--solution");
  if (!o.spmv.empty()) deck.set_string("spmv.kernel", o.spmv, "--spmv");
  apply_remap_flags(o.remap, deck);
  return deck;
}

std::string error_text(const cg::RunReport& r) {
  return r.have_xstar ? fmt::format("{:.3e}", r.relative_error) : "unknown (no x*)";
}

void print_transactions(const cg::RunReport& r) {
  const remap::TransactionBreakdown& tx = r.csr_tx;
  const remap::TransactionBreakdown& ts = r.strategy_tx;
  fmt::print(
      "Modelled transactions per SpMV (32 B / 128 B segments): CSR gather: x {} / {}, with "
      "col, val and rowptr {} / {}\n",
      tx.data.seg32, tx.data.seg128, tx.total().seg32, tx.total().seg128);
  if (r.modelled)
    fmt::print(
        "  {}: x {} / {}, with its index, weight and length loads {} / {} ({:.2f}:1 "
        "against the CSR gather)\n",
        r.remap.strategy, ts.data.seg32, ts.data.seg128, ts.total().seg32, ts.total().seg128,
        ts.total().seg32 > 0 ? double(tx.total().seg32) / ts.total().seg32 : 0.0);
}

void print_result(const cg::CgParams& p, const cg::RunReport& r) {
  const cg::CgResult& res = r.result;
  fmt::print(
      "{} after {} iterations: relative residual {:.3e} (recurrence {:.3e}), relative "
      "error {}\n",
      res.converged ? "Converged" : "NOT converged", res.iterations, r.true_relative_residual,
      res.rel_residual, error_text(r));
  fmt::print(
      "Time: matrix {:.3f} s, reorder {:.3f} s, upload {:.3f} s, spmv set-up {:.3f} s, solve "
      "{:.4g} s ({:.4g} ms per iteration; {:.4g} s with the first SpMV {:.4g} ms)\n",
      r.matrix_seconds, r.reorder_seconds, r.upload_seconds, r.spmv_setup_seconds, res.loop_seconds,
      r.ms_per_iteration, median(r.total_seconds), 1e3 * median(r.first_spmv_seconds));
  if (r.spmv_ms > 0)
    fmt::print(
        "SpMV {}: {:.4g} ms, {:.1f} GB/s (minimum traffic {:.1f} MB: matrix, x and y once)\n",
        r.spmv_name, r.spmv_ms, r.spmv_gbytes_per_s, r.spmv_bytes / 1e6);
  if (r.has_report)
    fmt::print(
        "Remap {}: plan {:.3f} ms, one remap {:.3f} ms, executions {}, cache hits {} misses "
        "{}, extra {:.1f} MB\n",
        r.remap.strategy, r.remap.plan_ms, r.remap_ms, r.remap.executions, r.remap.cache_hits,
        r.remap.cache_misses, r.remap.extra_bytes / 1e6);
  if (r.remapped && r.gather_ms > 0)
    fmt::print("Against the gather ({:.4g} ms a SpMV): set-up {:.3f} ms {}\n", r.gather_ms,
               r.overhead_ms,
               r.payback >= 0 ? fmt::format("paid back after {:.1f} SpMVs", r.payback)
                              : std::string("never paid back (no faster)"));
  if (p.transactions) print_transactions(r);
}

nlohmann::json transactions_json(const remap::TransactionBreakdown& b) {
  auto count = [](const remap::TransactionCount& c) {
    return nlohmann::json{{"warp_loads", c.loads}, {"seg32", c.seg32}, {"seg128", c.seg128}};
  };
  return nlohmann::json{{"data", count(b.data)},
                        {"index", count(b.index)},
                        {"weights", count(b.weights)},
                        {"lengths", count(b.lengths)},
                        {"with_index", count(b.total())}};
}

nlohmann::json spmv_json(const cg::CgParams& p, const cg::RunReport& r) {
  nlohmann::json j = {{"kernel", p.spmv.kernel},
                      {"variant", r.spmv_name},
                      {"describe", r.spmv_describe},
                      {"time_ms", r.spmv_ms},
                      {"gbytes_per_s", r.spmv_gbytes_per_s},
                      {"bytes", r.spmv_bytes},
                      {"timing_repeats", p.timing_repeats},
                      {"fused_dots", p.spmv.fused_dots}};
  if (r.format_bytes > 0) j["format_bytes"] = r.format_bytes;
  return j;
}

nlohmann::json remap_json(const cg::CgParams& p, const cg::RunReport& r) {
  const remap::RemapReport& rep = r.remap;
  const std::string& mode = p.spmv.remap.name();
  nlohmann::json j = {{"mode", mode},
                      {"strategy", rep.strategy},
                      {"plan_ms", rep.plan_ms},
                      {"remap_ms", r.remap_ms},
                      {"executions", rep.executions},
                      {"cache_hits", rep.cache_hits},
                      {"cache_misses", rep.cache_misses},
                      {"extra_bytes", rep.extra_bytes},
                      {"dup_target", rep.dup_target},
                      {"decision", rep.decision},
                      {"selection_ms", rep.selection_ms},
                      {"horizon", r.horizon_note}};
  if (r.remapped && r.gather_ms > 0) {
    j["gather_spmv_ms"] = r.gather_ms;
    j["overhead_ms"] = r.overhead_ms;
    j["payback_spmvs"] = r.payback >= 0 ? nlohmann::json(r.payback) : nlohmann::json(nullptr);
  }
  return j;
}

nlohmann::json summary_json(const cg::CgParams& p, const cg::RunReport& r, const io::Deck& deck,
                            double wall_seconds) {
  const cg::CgResult& res = r.result;
  nlohmann::json j;
  j["matrix"] = {{"source", r.source},
                 {"rows", r.rows},
                 {"nnz", r.nnz},
                 {"mean_row_len", r.rows ? double(r.nnz) / r.rows : 0.0},
                 {"max_row_len", r.max_row_len},
                 {"permuted", p.permute},
                 {"permute_seed", p.permute_seed},
                 {"reorder", remap::to_string(p.remap.reorder)}};
  j["solver"] = {
      {"method", "cg-chronopoulos-gear"}, {"preconditioner", p.solver.jacobi ? "jacobi" : "none"},
      {"tolerance", p.solver.tolerance},  {"max_iterations", p.solver.max_iterations},
      {"repeats", p.solve_repeats},       {"wait_each_iteration", p.solver.wait_each_iteration},
      {"defer_x", p.solver.defer_x},      {"lagged_from", res.lagged_from}};
  j["converged"] = res.converged;
  j["stop"] = res.stop;
  j["iterations"] = res.iterations;
  j["relative_residual"] = r.true_relative_residual;
  j["recurrence_relative_residual"] = res.rel_residual;
  j["relative_error"] = r.have_xstar ? nlohmann::json(r.relative_error) : nlohmann::json(nullptr);
  j["solve_seconds"] = res.loop_seconds;
  j["solve_seconds_each"] = r.solve_seconds;
  // The first solve alone: what one solve costs a user (auto decides inside it).
  j["first_solve_seconds"] = r.solve_seconds.empty() ? 0.0 : r.solve_seconds.front();
  // The same with everything a user waits for in the solve: its vectors, the first SpMV before
  // the iterations (the kernels' first launches) and the iterations.
  j["first_solve_total_seconds"] = r.total_seconds.empty() ? 0.0 : r.total_seconds.front();
  j["first_spmv_seconds_each"] = r.first_spmv_seconds;
  // Each solve's start to its first SpMV's launch (its vectors allocated, r0).
  j["start_seconds_each"] = r.start_seconds;
  // ||r_k|| / ||b|| from the recurrence after iteration k = 1, 2, ... of the first solve.
  j["residual_history"] = r.residual_history;
  // When each of those reached the host (seconds from the first solve's start, its vectors'
  // allocation included): the solve's timeline, for comparing where two runs part (the lagged
  // loop reads iteration k while k + 1 runs).
  j["residual_seconds"] = r.residual_seconds;
  j["time_per_iteration_ms"] = r.ms_per_iteration;
  j["warm_up"] = {{"enabled", p.warm_up},
                  {"started", r.warm_up.started},
                  {"seconds", r.warm_up.seconds},
                  {"waited_seconds", r.warm_up.waited_seconds},
                  {"note", r.warm_up.note}};
  j["spmv"] = spmv_json(p, r);
  if (r.has_report) j["remap"] = remap_json(p, r);
  if (p.transactions) {
    j["transactions"] = {{"csr", transactions_json(r.csr_tx)}};
    if (r.modelled) j["transactions"]["strategy"] = transactions_json(r.strategy_tx);
  }
  j["setup"] = {{"matrix_seconds", r.matrix_seconds},
                {"reorder_seconds", r.reorder_seconds},
                {"reorder_note", r.reorder_note},
                {"upload_seconds", r.upload_seconds},
                {"spmv_setup_seconds", r.spmv_setup_seconds}};
  j["wall_seconds"] = wall_seconds;
  j["deck"] = deck.resolved_yaml();
  j["build"] = build_info();
  return j;
}

}  // namespace

int run_cg(const CgCommandOptions& o) {
  Kokkos::Timer wall;
  io::Deck deck = cg_deck(o);
  const cg::CgParams p = cg::read_cg_params(deck);
  std::vector<io::PathUse> paths{
      {"the deck", o.deck, false, ""},
      {o.matrix.empty() ? "matrix.file" : "--matrix", p.matrix_file, false, ""},
      {o.rhs.empty() ? "rhs.file" : "--rhs", p.rhs_file, false, ""},
      {o.solution.empty() ? "solution.file" : "--solution", p.solution_file, false, ""},
      {"--summary", o.summary, true, ""},
      {"--write-matrix", o.write_matrix, true, ""}};
  if (!o.write_npy.empty())
    for (const char* part : {"rowptr", "col", "val", "b", "xstar"})
      paths.push_back({"--write-npy", o.write_npy + "_" + part + ".npy", true, ""});
  io::check_outputs(paths);
  Console console(o, deck, p);
  const cg::RunReport r = cg::run(p, {o.write_matrix, o.write_npy}, console);
  const cg::CgResult& res = r.result;
  if (!o.quiet)
    print_result(p, r);
  else
    fmt::print(
        "cg: {} rows, {} iterations, {}, relative residual {:.3e}, error {}, {:.4g} ms per "
        "iteration\n",
        r.rows, res.iterations, res.converged ? "converged" : "not converged",
        r.true_relative_residual, error_text(r), r.ms_per_iteration);
  if (!o.summary.empty()) write_summary(o.summary, summary_json(p, r, deck, wall.seconds()));
  if (!res.converged) {
    fmt::print(stderr,
               "mdremap: CG did not converge: {} after {} iterations (relative residual "
               "{:.3e}, tolerance {})\n",
               res.stop == "max_iterations" ? "iteration limit reached" : res.stop, res.iterations,
               r.true_relative_residual, p.solver.tolerance);
    return kExitNotConverged;
  }
  return 0;
}

}  // namespace mdremap::cli

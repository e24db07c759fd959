// `mdremap cg DECK`: conjugate gradient on a generated or Matrix Market SPD system (BRIEF
// section 6).
#include "cli/cg_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cg/device_csr.hpp"
#include "cg/device_reorder.hpp"
#include "cg/matrix_market.hpp"
#include "cg/npy.hpp"
#include "cg/params.hpp"
#include "cg/solver.hpp"
#include "cg/spmv.hpp"
#include "cg/system.hpp"
#include "cg/transactions.hpp"
#include "cg/warm_up.hpp"
#include "cli/common.hpp"
#include "io/deck.hpp"
#include "io/paths.hpp"
#include "mdremap/error.hpp"
#include "mdremap/median.hpp"
#include "mdremap/remap/registry.hpp"
#include "mdremap/remap/report.hpp"

namespace mdremap::cli {

namespace {

// One self-overwriting line on a terminal; a plain line every 10 s otherwise.
class CgProgress {
 public:
  explicit CgProgress(bool enabled) : enabled_(enabled), tty_(isatty(fileno(stdout)) != 0) {}
  void update(std::int64_t it, std::int64_t max_it, double rel, double seconds) {
    if (!enabled_ || seconds - last_ < (tty_ ? 0.25 : 10.0)) return;
    last_ = seconds;
    const std::string line =
        fmt::format("iteration {}/{}  relative residual {:.3e}  {:.1f} iterations/s", it, max_it,
                    rel, seconds > 0 ? it / seconds : 0.0);
    if (tty_) {
      std::printf("\r\033[K%s", line.c_str());
      shown_ = true;
    } else {
      std::printf("progress: %s\n", line.c_str());
    }
    std::fflush(stdout);
  }
  void clear() {
    if (shown_) std::printf("\r\033[K");
    shown_ = false;
  }

 private:
  bool enabled_, tty_;
  bool shown_ = false;
  double last_ = 0;
};

void check_output(const std::string& path, const std::string& flag) {
  if (path.empty()) return;
  try {
    io::check_writable(path);
  } catch (const Error& e) {
    throw InputError(flag, 0, e.what());
  }
}

Kokkos::View<double*> to_device(const std::vector<double>& v, const char* name) {
  Kokkos::View<double*> d(Kokkos::view_alloc(std::string(name), Kokkos::WithoutInitializing),
                          v.size());
  Kokkos::deep_copy(d, Kokkos::View<const double*, Kokkos::HostSpace>(v.data(), v.size()));
  return d;
}

std::string matrix_line(const cg::LinearSystem& s, const cg::CgParams& p) {
  const auto& a = s.a;
  std::string line =
      fmt::format("{}, {} rows, {} entries ({:.2f} a row, at most {})", s.source, a.rows, a.nnz(),
                  a.rows ? double(a.nnz()) / a.rows : 0.0, a.max_row_len());
  if (p.permute) line += fmt::format(", symmetrically permuted (seed {})", p.permute_seed);
  return line;
}

}  // namespace

int run_cg(const CgCommandOptions& o) {
  Kokkos::Timer wall;
  check_backend(o.backend);
  auto deck = io::Deck::from_file(o.deck);
  for (const auto& s : o.sets) deck.apply_override(s);
  if (!o.matrix.empty()) {
    deck.apply_override("matrix.generator=~");
    deck.apply_override("matrix.file=" + o.matrix);
  }
  if (!o.rhs.empty()) deck.apply_override("rhs.file=" + o.rhs);
  if (!o.solution.empty()) deck.apply_override("solution.file=" + o.solution);
  if (!o.spmv.empty()) deck.apply_override("spmv.kernel=" + o.spmv);
  if (!o.remap.empty()) deck.apply_override("remap.mode=" + o.remap);
  if (!o.reorder.empty()) deck.apply_override("remap.reorder=" + o.reorder);
  if (!o.schedule.empty()) deck.apply_override("remap.schedule=" + o.schedule);
  const cg::CgParams p = cg::read_cg_params(deck);
  check_output(o.summary, "--summary");
  check_output(o.write_matrix, "--write-matrix");
  if (!o.write_npy.empty()) check_output(o.write_npy + "_rowptr.npy", "--write-npy");

  // The solve's kernels are launched once on a small matrix while the host builds the real one
  // (their modules load there: cg/warm_up.hpp); waiting for it counts in the SpMV's set-up.
  // The reorder's kernels and its timing only where it may run: remap.reorder auto reorders a
  // scattered order only (more than half the entries beyond kScatteredReach), which a
  // generator's own numbering reaching no further cannot be (on parabolic_fem natural the timing
  // step in progress when the matrix was ready kept the solve waiting 2-4 ms, session 22).
  const std::int64_t reach = p.gen.name.empty() ? -1 : cg::natural_reach(p.gen);
  const bool may_scatter = p.permute || reach < 0 || reach > cg::kScatteredReach;
  cg::KernelWarmUp warm_up(p.warm_up, p.spmv, p.solver,
                           p.reorder == "labelprop" || (p.reorder == "auto" && may_scatter),
                           p.reorder == "auto" && may_scatter);
  // Files are read before anything is printed: a bad one is the only output.
  cg::LinearSystem sys = cg::build_system(p);
  if (!o.quiet) {
    fmt::print("mdremap {} | backend {} | cg\n", MDREMAP_VERSION, device_backend());
    fmt::print("# resolved deck ({}):\n", o.deck);
    std::string y = deck.resolved_yaml();
    for (size_t pos = 0, nl; pos < y.size(); pos = nl + 1) {
      nl = y.find('\n', pos);
      if (nl == std::string::npos) nl = y.size();
      fmt::print("#   {}\n", y.substr(pos, nl - pos));
    }
    std::fflush(stdout);
  }

  if (!o.quiet) fmt::print("# matrix: {}\n", matrix_line(sys, p));
  if (!o.write_matrix.empty())
    cg::write_matrix_market_file(o.write_matrix, sys.a, true, "mdremap cg: " + matrix_line(sys, p));
  if (!o.write_npy.empty()) cg::write_system_npy(o.write_npy, sys);
  cg::reorder_on_host(sys, p);

  const double warm_up_wait_s = warm_up.join();
  Kokkos::Timer setup;
  cg::DeviceCsr a = cg::DeviceCsr::upload(sys.a);
  auto b = to_device(sys.b, "cg::b");
  Kokkos::View<double*> xstar;
  if (!sys.xstar.empty()) xstar = to_device(sys.xstar, "cg::xstar");
  Kokkos::fence();
  const double upload_s = setup.seconds();
  // labelprop on the device: the order, then P A P^T and the vectors, where they already are.
  std::string reorder_note;
  Kokkos::Timer reorder_clock;
  bool device_reorder = p.reorder == "labelprop";
  cg::SpmvOptions spmv = p.spmv;
  spmv.setup_hint_ms = warm_up.setup_ms();
  if (p.reorder == "auto") {
    // A generator's own numbering that reaches no further than kScatteredReach has no entry
    // beyond it: nothing to count (the count's kernel is 0.05-0.07 ms of a 7 ms stand-in solve,
    // session 23 call 12).
    const double far = may_scatter ? cg::scattered_fraction(a, cg::kScatteredReach) : 0.0;
    const bool scattered = far > cg::kScatteredFraction;
    // With kernel auto the reorder waits for auto's decision point, where the iterations
    // expected to remain say whether it can pay (cg/auto_spmv.cpp); a named kernel gets it now.
    const bool deferred = scattered && spmv.kernel == "auto";
    device_reorder = scattered && !deferred;
    reorder_note = fmt::format(
        "auto: {:.1f}% of the entries lie more than {} columns from their row ({}{} {:.0f}%): {}",
        100 * far, cg::kScatteredReach,
        may_scatter
            ? ""
            : fmt::format("the generator's own numbering reaches at most {} columns; ", reach),
        scattered ? "over" : "at most", 100 * cg::kScatteredFraction,
        deferred         ? "labelprop left to auto's decision point"
        : device_reorder ? "labelprop; "
                         : "the order kept");
    if (deferred) {
      spmv.reorder.enabled = true;
      spmv.reorder.fixed_ms = warm_up.reorder_cost().fixed_ms;
      spmv.reorder.ms_per_entry = warm_up.reorder_cost().ms_per_entry;
      spmv.reorder.cache_gain = warm_up.reorder_cost().cache_gain;
      spmv.reorder.other_ms_per_row = warm_up.reorder_cost().other_ms_per_row;
      spmv.reorder.note = reorder_note;
    }
    sys.reorder_seconds = reorder_clock.seconds();
  }
  if (device_reorder) {
    // Timed in three parts: the order (its buffers released on return), P A P^T and the
    // vectors, then the old copies released (each release waits for the device).
    const double t0 = reorder_clock.seconds();
    const remap::GraphOrder g = cg::labelprop_order(a, p.spmv.remap_opt.block_threads);
    const double t1 = reorder_clock.seconds();
    cg::DeviceCsr ra = cg::permute_symmetric(a, g.order);
    auto rb = cg::permute_vector(b, g.order);
    auto rx = cg::permute_vector(xstar, g.order);
    Kokkos::fence();
    const double t2 = reorder_clock.seconds();
    a = std::move(ra);
    b = std::move(rb);
    xstar = std::move(rx);
    Kokkos::fence();
    sys.reorder_seconds = reorder_clock.seconds();
    reorder_note += cg::describe(g) + fmt::format(
                                          " in {:.2f} ms (order {:.2f}, applying it {:.2f}, "
                                          "releasing the old copies {:.2f})",
                                          1e3 * sys.reorder_seconds, 1e3 * (t1 - t0),
                                          1e3 * (t2 - t1), 1e3 * (sys.reorder_seconds - t2));
  }
  if (!o.quiet && !reorder_note.empty()) fmt::print("# reorder: {}\n", reorder_note);
  Kokkos::Timer make_clock;
  auto op = cg::make_spmv(a, spmv);  // plans the strategy (auto: profiles and decides)
  Kokkos::View<double*> x("cg::x", a.rows);
  Kokkos::fence();
  const double spmv_setup_s = make_clock.seconds() + warm_up_wait_s;
  if (!o.quiet) {
    fmt::print("# warm-up: {}{}\n", warm_up.note(),
               warm_up.started() ? fmt::format("; waited {:.1f} ms for it", 1e3 * warm_up_wait_s)
                                 : std::string());
    fmt::print("# spmv: {}\n", op->describe());
    fmt::print(
        "# solver: CG (Chronopoulos-Gear), preconditioner {}, tolerance {}, at most {} "
        "iterations\n",
        p.solver.jacobi ? "jacobi" : "none", p.solver.tolerance, p.solver.max_iterations);
    std::fflush(stdout);
  }

  CgProgress progress(!o.quiet);
  cg::CgResult r;
  std::vector<double> solve_times, total_times, first_spmv_times, start_times;
  std::vector<double> history;    // the first solve's relative residual after each iteration
  std::vector<double> history_s;  // and when it reached the host, seconds from the solve's start
  for (int rep = 0; rep < p.solve_repeats; ++rep) {
    Kokkos::Timer solve_clock;
    r = cg::cg_solve(*op, a, b, x, p.solver, [&](std::int64_t it, double rel) {
      progress.update(it, p.solver.max_iterations, rel, solve_clock.seconds());
      if (rep == 0 && it >= 1) {
        if (history.size() < static_cast<std::size_t>(it)) history.resize(it);
        history[it - 1] = rel;
        if (history_s.size() < static_cast<std::size_t>(it)) history_s.resize(it);
        history_s[it - 1] = solve_clock.seconds();
      }
    });
    solve_times.push_back(r.loop_seconds);
    total_times.push_back(r.total_seconds);
    first_spmv_times.push_back(r.first_spmv_seconds);
    start_times.push_back(r.start_seconds);
  }
  progress.clear();
  if (!op->reorder_note().empty()) reorder_note = op->reorder_note();
  if (!o.quiet && !op->horizon_note().empty()) {
    fmt::print("# auto: {}\n", op->horizon_note());
    fmt::print("# spmv: {}\n", op->describe());
  }
  // Repeated solves are identical but for timing: report the median.
  r.loop_seconds = median(solve_times);
  const double true_rel = cg::true_relative_residual(*op, a, b, x);
  const bool have_xstar = xstar.extent(0) > 0;
  const double rel_err = have_xstar ? cg::relative_error(x, xstar) : 0.0;
  // The kernel as the solve ran it (auto after a reorder: on P A P^T; the SpMV of a ones vector
  // is the same work in either order).
  const double spmv_ms =
      p.timing_repeats > 0 ? cg::time_spmv_ms(*op->frame().op, a, p.timing_repeats) : 0.0;
  const double bytes = a.min_spmv_bytes();
  const double gbs = spmv_ms > 0 ? bytes / (spmv_ms * 1e-3) / 1e9 : 0.0;
  const double per_it_ms = r.iterations > 0 ? 1e3 * r.loop_seconds / r.iterations : 0.0;

  // A strategy other than the plain gather: its set-up cost against its gain per SpMV over the
  // gather, timed the same way in the same run.
  const bool remapped = op->has_report() && p.spmv.remap != "gather";
  const remap::RemapReport rep = op->has_report() ? op->report() : remap::RemapReport{};
  double gather_ms = 0, overhead_ms = 0, payback = -1;
  if (remapped && p.timing_repeats > 0) {
    cg::SpmvOptions g = p.spmv;
    g.kernel = "csr-thread";
    g.remap = "gather";
    auto gather = cg::make_spmv(a, g);
    gather_ms = cg::time_spmv_ms(*gather, a, p.timing_repeats);
    overhead_ms = rep.plan_ms + op->remap_ms() + rep.selection_ms + 1e3 * sys.reorder_seconds;
    if (gather_ms > spmv_ms) payback = overhead_ms / (gather_ms - spmv_ms);
  }

  // Modelled transactions: the CSR gather (cuSPARSE's layout) and the strategy's own layout.
  remap::TransactionBreakdown tx, tx_strategy;
  const bool modelled = p.transactions && remapped && op->models_transactions();
  if (p.transactions) {
    // The matrix as solved: labelprop's device order brought back for the model.
    const remap::IrregularPattern host = cg::spmv_pattern(device_reorder ? a.download() : sys.a);
    tx = remap::count_breakdown_gather(host, cg::csr_transaction_model());
    if (modelled) tx_strategy = op->model_breakdown(host);
  }

  const std::string err_text = have_xstar ? fmt::format("{:.3e}", rel_err) : "unknown (no x*)";
  if (!o.quiet) {
    fmt::print(
        "{} after {} iterations: relative residual {:.3e} (recurrence {:.3e}), relative "
        "error {}\n",
        r.converged ? "Converged" : "NOT converged", r.iterations, true_rel, r.rel_residual,
        err_text);
    fmt::print(
        "Time: matrix {:.3f} s, reorder {:.3f} s, upload {:.3f} s, spmv set-up {:.3f} s, solve "
        "{:.4g} s ({:.4g} ms per iteration; {:.4g} s with the first SpMV {:.4g} ms)\n",
        sys.matrix_seconds, sys.reorder_seconds, upload_s, spmv_setup_s, r.loop_seconds, per_it_ms,
        median(total_times), 1e3 * median(first_spmv_times));
    if (spmv_ms > 0)
      fmt::print(
          "SpMV {}: {:.4g} ms, {:.1f} GB/s (minimum traffic {:.1f} MB: matrix, x and y once)\n",
          op->name(), spmv_ms, gbs, bytes / 1e6);
    if (op->has_report())
      fmt::print(
          "Remap {}: plan {:.3f} ms, one remap {:.3f} ms, executions {}, cache hits {} misses "
          "{}, extra {:.1f} MB\n",
          rep.strategy, rep.plan_ms, op->remap_ms(), rep.executions, rep.cache_hits,
          rep.cache_misses, rep.extra_bytes / 1e6);
    if (remapped && gather_ms > 0)
      fmt::print("Against the gather ({:.4g} ms a SpMV): set-up {:.3f} ms {}\n", gather_ms,
                 overhead_ms,
                 payback >= 0 ? fmt::format("paid back after {:.1f} SpMVs", payback)
                              : std::string("never paid back (no faster)"));
    if (p.transactions) {
      fmt::print(
          "Modelled transactions per SpMV (32 B / 128 B segments): CSR gather: x {} / {}, with "
          "col, val and rowptr {} / {}\n",
          tx.data.seg32, tx.data.seg128, tx.total().seg32, tx.total().seg128);
      if (modelled)
        fmt::print(
            "  {}: x {} / {}, with its index, weight and length loads {} / {} ({:.2f}:1 "
            "against the CSR gather)\n",
            rep.strategy, tx_strategy.data.seg32, tx_strategy.data.seg128,
            tx_strategy.total().seg32, tx_strategy.total().seg128,
            tx_strategy.total().seg32 > 0 ? double(tx.total().seg32) / tx_strategy.total().seg32
                                          : 0.0);
    }
  } else {
    fmt::print(
        "cg: {} rows, {} iterations, {}, relative residual {:.3e}, error {}, {:.4g} ms per "
        "iteration\n",
        a.rows, r.iterations, r.converged ? "converged" : "not converged", true_rel, err_text,
        per_it_ms);
  }

  if (!o.summary.empty()) {
    auto txj = [](const remap::TransactionCount& c) {
      return nlohmann::json{{"warp_loads", c.loads}, {"seg32", c.seg32}, {"seg128", c.seg128}};
    };
    nlohmann::json j;
    j["matrix"] = {{"source", sys.source},
                   {"rows", a.rows},
                   {"nnz", a.nnz},
                   {"mean_row_len", a.rows ? double(a.nnz) / a.rows : 0.0},
                   {"max_row_len", a.max_len},
                   {"permuted", p.permute},
                   {"permute_seed", p.permute_seed},
                   {"reorder", p.reorder}};
    j["solver"] = {
        {"method", "cg-chronopoulos-gear"}, {"preconditioner", p.solver.jacobi ? "jacobi" : "none"},
        {"tolerance", p.solver.tolerance},  {"max_iterations", p.solver.max_iterations},
        {"repeats", p.solve_repeats},       {"wait_each_iteration", p.solver.wait_each_iteration},
        {"defer_x", p.solver.defer_x},      {"lagged_from", r.lagged_from}};
    j["converged"] = r.converged;
    j["stop"] = r.stop;
    j["iterations"] = r.iterations;
    j["relative_residual"] = true_rel;
    j["recurrence_relative_residual"] = r.rel_residual;
    j["relative_error"] = have_xstar ? nlohmann::json(rel_err) : nlohmann::json(nullptr);
    j["solve_seconds"] = r.loop_seconds;
    j["solve_seconds_each"] = solve_times;
    // The first solve alone: what one solve costs a user (auto decides inside it).
    j["first_solve_seconds"] = solve_times.empty() ? 0.0 : solve_times.front();
    // The same with everything a user waits for in the solve: its vectors, the first SpMV before
    // the iterations (the kernels' first launches) and the iterations.
    j["first_solve_total_seconds"] = total_times.empty() ? 0.0 : total_times.front();
    j["first_spmv_seconds_each"] = first_spmv_times;
    // Each solve's start to its first SpMV's launch (its vectors allocated, r0).
    j["start_seconds_each"] = start_times;
    // ||r_k|| / ||b|| from the recurrence after iteration k = 1, 2, ... of the first solve.
    j["residual_history"] = history;
    // When each of those reached the host (seconds from the first solve's start, its vectors'
    // allocation included): the solve's timeline, for comparing where two runs part (the lagged
    // loop reads iteration k while k + 1 runs).
    j["residual_seconds"] = history_s;
    j["time_per_iteration_ms"] = per_it_ms;
    j["warm_up"] = {{"enabled", p.warm_up},
                    {"started", warm_up.started()},
                    {"seconds", warm_up.seconds()},
                    {"waited_seconds", warm_up_wait_s},
                    {"note", warm_up.note()}};
    j["spmv"] = {{"kernel", p.spmv.kernel},
                 {"variant", op->name()},
                 {"describe", op->describe()},
                 {"time_ms", spmv_ms},
                 {"gbytes_per_s", gbs},
                 {"bytes", bytes},
                 {"timing_repeats", p.timing_repeats},
                 {"fused_dots", p.spmv.fused_dots}};
    if (op->format_bytes() > 0) j["spmv"]["format_bytes"] = op->format_bytes();
    if (op->has_report()) {
      nlohmann::json rj = {{"mode", p.spmv.remap},
                           {"strategy", rep.strategy},
                           {"plan_ms", rep.plan_ms},
                           {"remap_ms", op->remap_ms()},
                           {"executions", rep.executions},
                           {"cache_hits", rep.cache_hits},
                           {"cache_misses", rep.cache_misses},
                           {"extra_bytes", rep.extra_bytes},
                           {"dup_target", rep.dup_target},
                           {"decision", rep.decision},
                           {"selection_ms", rep.selection_ms},
                           {"horizon", op->horizon_note()}};
      if (remapped && gather_ms > 0) {
        rj["gather_spmv_ms"] = gather_ms;
        rj["overhead_ms"] = overhead_ms;
        rj["payback_spmvs"] = payback >= 0 ? nlohmann::json(payback) : nlohmann::json(nullptr);
      }
      j["remap"] = rj;
    }
    if (p.transactions) {
      auto bj = [&](const remap::TransactionBreakdown& b) {
        return nlohmann::json{{"data", txj(b.data)},
                              {"index", txj(b.index)},
                              {"weights", txj(b.weights)},
                              {"lengths", txj(b.lengths)},
                              {"with_index", txj(b.total())}};
      };
      j["transactions"] = {{"csr", bj(tx)}};
      if (modelled) j["transactions"]["strategy"] = bj(tx_strategy);
    }
    j["setup"] = {{"matrix_seconds", sys.matrix_seconds},
                  {"reorder_seconds", sys.reorder_seconds},
                  {"reorder_note", reorder_note},
                  {"upload_seconds", upload_s},
                  {"spmv_setup_seconds", spmv_setup_s}};
    j["wall_seconds"] = wall.seconds();
    j["deck"] = deck.resolved_yaml();
    j["build"] = build_info();
    write_summary(o.summary, j);
  }
  if (!r.converged) {
    fmt::print(stderr,
               "mdremap: CG did not converge: {} after {} iterations (relative residual "
               "{:.3e}, tolerance {})\n",
               r.stop == "max_iterations" ? "iteration limit reached" : r.stop, r.iterations,
               r.rel_residual, p.solver.tolerance);
    return kExitNotConverged;
  }
  return 0;
}

}  // namespace mdremap::cli

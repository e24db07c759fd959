// `mdremap md DECK`: one MD run from a YAML deck (the run itself: md/run.hpp).
#include "cli/md_command.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <memory>

#include "cli/common.hpp"
#include "cli/numeric_flag.hpp"
#include "cli/run_log.hpp"
#include "comm/runtime.hpp"
#include "integrators/settings.hpp"
#include "io/checkpoint.hpp"
#include "io/deck.hpp"
#include "md/deck_diff.hpp"
#include "md/run.hpp"
#include "md/system_file.hpp"
#include "mdremap/thermo_columns.hpp"

namespace mdremap::cli {

namespace {

const char* const kMinimizeHelp =
    "\nDeck section `minimize` (run before the dynamics; LAMMPS' defaults):\n"
    "  style [fire]: fire (FIRE 2.0, Guenole et al. 2020) | cg (Polak-Ribiere, quadratic line "
    "search)\n"
    "  etol [1e-08]: stop when the energy per atom changes by less than etol relative\n"
    "  ftol [1e-06]: stop when the force vector's 2-norm is below ftol\n"
    "  max_iterations [10000], max_evaluations [100000]\n"
    "  dmax [0.1]: the largest move of a coordinate in one iteration (sigma)\n"
    "  fire only: delay [20], dt_grow [1.1], dt_shrink [0.5], alpha0 [0.25], alpha_shrink "
    "[0.99], tmax [10], tmin [0.02] (times integrator.dt), half_step_back [true]\n"
    "  thermo [0]: a progress line every this many iterations\n";

}  // namespace

void add_md_command(CLI::App& app, MdOptions& o) {
  auto* md = app.add_subcommand("md", "Run molecular dynamics from a YAML deck");
  md->add_option("deck", o.deck, "YAML deck (e.g. inputs/lj_bench.yaml)")->required();
  md->add_option("--set", o.sets, "Override a deck key: --set neighbor.skin=0.4 (repeatable)")
      ->take_all();
  md->add_option("--steps", o.steps, "Number of steps (overrides run.steps)")
      ->check(number_in<std::int64_t>(0, md::kMaxSteps, "INT >= 0"));
  md->add_option("--precision", o.precision, "double | mixed | single (overrides run.precision)")
      ->check(CLI::IsMember({"double", "mixed", "single"}));
  md->add_option("--backend", o.backend,
                 "Backend to run on (only the one compiled in: " + device_backend() + ")");
  md->add_option("--thermo-csv", o.thermo_csv,
                 "Write thermo rows to this CSV (step,temp,e_pair,ke,etotal,press)");
  md->add_option("--summary", o.summary, "Write a JSON summary of the run to this file");
  md->add_option("--restart", o.restart,
                 "Continue from this checkpoint (restart.file of an earlier run) for run.steps "
                 "more steps");
  md->add_flag("--quiet,-q", o.quiet, "Print only errors and the final line");
  md->add_flag(
      "--shuffle", o.shuffle,
      "Start from a randomly permuted atom order (sets system.shuffle, neighbor.sort=none)");
  add_remap_flags(md, o.remap, md::remap_app(), true);
  // The integrator section's keys, from the integrators' own declarations.
  md->footer("Deck section `integrator`: style, dt, and per style:\n" +
             integrators::integrator_help() + kMinimizeHelp);
}

void add_minimize_command(CLI::App& app, MdOptions& o) {
  o.minimize_only = true;
  auto* mn = app.add_subcommand(
      "minimize",
      "Minimise a deck's system (its `minimize:` section; FIRE without one) and write "
      "the minimised state to the deck's outputs");
  mn->add_option("deck", o.deck, "YAML deck")->required();
  mn->add_option("--set", o.sets, "Override a deck key: --set minimize.style=cg (repeatable)")
      ->take_all();
  mn->add_option("--precision", o.precision, "double | mixed | single (overrides run.precision)")
      ->check(CLI::IsMember({"double", "mixed", "single"}));
  mn->add_option("--backend", o.backend,
                 "Backend to run on (only the one compiled in: " + device_backend() + ")");
  mn->add_option("--thermo-csv", o.thermo_csv,
                 "Write the minimised state's thermo row to this CSV");
  mn->add_option("--summary", o.summary, "Write a JSON summary of the minimisation to this file");
  mn->add_flag("--quiet,-q", o.quiet, "Print only errors and the final line");
  mn->footer(kMinimizeHelp);
}

namespace {

// Thermo lines and step progress on stdout.
class Console : public md::RunConsole {
 public:
  // columns: run.thermo_columns, printed after the fixed ones
  Console(bool quiet, std::vector<std::string> columns)
      : quiet_(quiet), columns_(std::move(columns)), progress_(!quiet) {}
  void thermo(const ThermoSample& t) override {
    if (quiet_) return;
    progress_.clear();
    if (!header_) {
      fmt::print("{:>10} {:>12} {:>14} {:>14} {:>14} {:>14}", "Step", "Temp", "E_pair", "KE",
                 "TotEng", "Press");
      for (const auto& c : columns_) fmt::print(" {:>14}", c);
      fmt::print("\n");
      header_ = true;
    }
    fmt::print("{:>10} {:>12.7g} {:>14.8g} {:>14.8g} {:>14.8g} {:>14.8g}", t.step, t.temp, t.e_pair,
               t.ke, t.etotal, t.press);
    for (const auto& c : columns_) fmt::print(" {:>14.8g}", find_thermo_column(c).value(t));
    fmt::print("\n");
    std::fflush(stdout);
  }
  // Steps/s and the time left; the last step's line only on a terminal (the summary follows).
  void progress(std::int64_t done, std::int64_t total, double s) override {
    if (total <= 0 || (done == total && !progress_.tty()) || !progress_.due(s, done == total))
      return;
    const double rate = s > 0 ? done / s : 0;
    const double eta = rate > 0 ? (total - done) / rate : 0;
    const int e = static_cast<int>(eta + 0.5);
    progress_.show(fmt::format("step {}/{} ({:.1f}%)  {:.1f} steps/s  ETA {}:{:02d}:{:02d}", done,
                               total, 100.0 * done / total, rate, e / 3600, e / 60 % 60, e % 60));
  }
  void iteration(std::int64_t iter, double energy, double fnorm) override {
    if (quiet_) return;
    if (iter == 0) fmt::print("{:>10} {:>20} {:>14}\n", "Iter", "E_pair", "Fnorm");
    fmt::print("{:>10} {:>20.15g} {:>14.8g}\n", iter, energy, fnorm);
    std::fflush(stdout);
  }
  // LAMMPS' "Minimization stats" in its words.
  void minimized(const md::MinimizeResult& r) override {
    if (quiet_) return;
    fmt::print(
        "Minimization: stopping criterion = {}\n"
        "  Energy initial, next-to-last, final = {:.15g} {:.15g} {:.15g}\n"
        "  Force two-norm initial, final = {:.8g} {:.8g}\n"
        "  Force max component initial, final = {:.8g} {:.8g}\n"
        "  Iterations, force evaluations = {} {}\n"
        "Minimization time {:.4g} s ({:.4g} iterations/s)\n",
        to_string(r.stop), r.e_initial, r.e_next_to_last, r.e_final, r.fnorm_initial, r.fnorm_final,
        r.fmax_initial, r.fmax_final, r.iterations, r.evaluations, r.seconds,
        r.seconds > 0 ? r.iterations / r.seconds : 0.0);
    std::fflush(stdout);
  }
  void steps_done() override { progress_.clear(); }

 private:
  bool quiet_;
  bool header_ = false;
  std::vector<std::string> columns_;
  ProgressLine progress_;
};

// The deck with the command line's overrides (a --backend this binary lacks refused first).
io::Deck md_deck(const MdOptions& o) {
  check_backend(o.backend);
  auto deck = io::Deck::from_file(o.deck);
  for (const auto& s : o.sets) deck.apply_override(s);
  if (o.minimize_only) {
    if (!deck.root().has("minimize")) deck.apply_override("minimize.style=fire", "minimize");
    deck.apply_override("run.steps=0", "minimize");
  }
  if (o.steps >= 0) deck.apply_override(fmt::format("run.steps={}", o.steps), "--steps");
  if (!o.precision.empty()) deck.apply_override("run.precision=" + o.precision, "--precision");
  if (o.shuffle) {
    deck.apply_override("system.shuffle=true");
    deck.apply_override("neighbor.sort=none");
  }
  if (!o.thermo_csv.empty()) deck.set_string("output.thermo_csv", o.thermo_csv, "--thermo-csv");
  apply_remap_flags(o.remap, deck);
  return deck;
}

void print_start(const MdOptions& o, const md::Run& run) {
  const md::MdParams& p = run.params();
  if (!o.quiet) print_run_header(fmt::format("{} atoms", p.natoms()), o.deck, run.deck());
  if (const io::Checkpoint* c = run.checkpoint()) {
    if (!o.quiet)
      fmt::print("# restart from {} at step {}: {} more steps\n", o.restart, c->step, p.steps);
    // The checkpoint's atoms, box and velocities replace the deck's: say so in the log's
    // resolved deck, and name the deck values that differ from the run that wrote it.
    detail(fmt::format("# on this restart {} come from {}, not from the deck above",
                       md::kRestartReplacedKeys, o.restart));
    const auto ignored = md::restart_ignored_keys(run.deck().resolved_yaml(), c->deck_yaml);
    if (!ignored.empty() && comm::rank() == 0) {
      constexpr std::size_t kShown = 6;
      std::string list;
      for (std::size_t i = 0; i < ignored.size() && i < kShown; ++i)
        list += (i ? "; " : "") + ignored[i];
      if (ignored.size() > kShown) list += fmt::format("; and {} more", ignored.size() - kShown);
      fmt::print(stderr,
                 "note: {} sets the atoms, box and velocities: these deck values are not used "
                 "on this restart: {}\n",
                 o.restart, list);
    }
    if (c->list_x.empty() && comm::rank() == 0)
      fmt::print(stderr,
                 "note: {} holds no neighbor-list build (written before checkpoints kept it): "
                 "the list is built from its positions (correct, but not bit-identical to an "
                 "uninterrupted run)\n",
                 o.restart);
    if (c->backend != device_backend() && comm::rank() == 0)
      fmt::print(stderr,
                 "note: {} was written by the {} backend; this run continues on {} (correct, "
                 "but not bit-identical to a run that stayed on {})\n",
                 o.restart, c->backend, device_backend(), c->backend);
  }
  if (p.minimize.enabled && run.checkpoint() && comm::rank() == 0)
    fmt::print(stderr, "note: minimize: skipped (the run continues from a checkpoint)\n");
  else if (p.minimize.enabled && !o.quiet)
    fmt::print("# minimize: {} (etol {:g}, ftol {:g}, at most {} iterations, {} evaluations)\n",
               to_string(p.minimize.style), p.minimize.etol, p.minimize.ftol,
               p.minimize.max_iterations, p.minimize.max_evaluations);
  if (p.file && comm::rank() == 0) {
    for (const auto& note : md::system_file_notes(p)) fmt::print(stderr, "note: {}\n", note);
    if (!o.quiet) fmt::print("# {}\n", md::describe_system_file(p));
  }
  detail(fmt::format("# {}", run.engine().describe()));
  if (!o.quiet && run.output().any()) fmt::print("# output: {}\n", run.output().describe());
}

void print_stats(const md::MdParams& p, const md::RunStats& st) {
  const auto& sp = st.split;
  const double per_step = st.steps ? 1e3 / st.steps : 0;
  fmt::print("Loop time {:.4g} s for {} steps of {} atoms: {:.4g} atom-steps/s ({:.4g} steps/s)\n",
             st.loop_seconds, st.steps, st.atoms, st.atom_steps_per_s,
             st.loop_seconds > 0 ? st.steps / st.loop_seconds : 0.0);
  fmt::print("Per step (ms): force {:.4g} | neighbor {:.4g} | integrate {:.4g} | other {:.4g}\n",
             sp.force * per_step, sp.neighbor * per_step, sp.integrate * per_step,
             sp.other * per_step);
  if (p.exchange_ghosts)
    fmt::print(
        "Ranks' exchange (ms per step, rank 0, part of neighbor): {:.4g}; of it migrations "
        "and new ghost shells at list builds {:.4g} (migrations {:.4g}), in MPI for ghost "
        "positions at every step and in the new shells (waits for the partners included; "
        "overlaps the list builds' part; none with CUDA IPC, which waits on the GPU) {:.4g}\n",
        sp.exchange * per_step, sp.exchange_rebuild * per_step, sp.exchange_migrate * per_step,
        sp.exchange_mpi * per_step);
  if (sp.exchange_overlapped > 0)
    fmt::print(
        "Ghost updates beside the forces (parallel.overlap; ms per step on their own stream, "
        "not part of the phases above; a wait for late ghosts counts in force): {:.4g}\n",
        sp.exchange_overlapped * per_step);
  fmt::print(
      "Neighbors: {:.2f} per atom (max {}), {} list builds ({:.3g} ms each), {}, {} regrows, {} "
      "rebuilt for their candidates, {} sorts\n",
      st.mean_neighbors, st.max_neighbors, st.list_builds,
      st.list_builds ? sp.rebuild * 1e3 / st.list_builds : 0.0,
      p.check ? fmt::format("rebuilt on displacement (moved more than skin/2; tested every {})",
                            p.every == 1 ? std::string("step") : fmt::format("{} steps", p.every))
              : fmt::format("{} dangerous (built after an atom had moved more than skin/2: "
                            "neighbor.check false)",
                            st.dangerous_builds),
      st.list_regrows, st.candidate_rebuilds, st.sorts);
  if (st.cluster_size > 0)
    fmt::print(
        "Cluster pairs: clusters of {}, {:.2f} j-clusters per i-cluster, masks select {:.1f}% "
        "of their atom pairs, {:.1f}% of the i-cluster slots are padding, {:.3f} slots "
        "(ghosts' included) per atom, {:.2f} non-empty mask rows per atom\n",
        st.cluster_size, st.cluster_pairs_per_icluster, 100 * st.cluster_mask_fill,
        100 * st.cluster_padding, st.cluster_slots_per_atom, st.cluster_rows_per_atom);
}

void print_remap(const md::RemapStats& rs) {
  if (!rs.memory_selection.empty()) fmt::print("{}\n", rs.memory_selection);
  if (!rs.report.decision.empty()) {
    fmt::print("Remap: {}\n", rs.report.decision);
    fmt::print(
        "Remap: auto predicted {:.1f} ms for its choice over the run; realised {:.1f} ms in {} "
        "force evaluations and their plans (profiling of the other candidates included: {:.1f} "
        "ms)\n",
        rs.report.predicted_run_ms, rs.realised_ms, rs.executions, rs.report.selection_ms);
  }
  if (rs.report.overlapped_plan_ms > 0 || rs.report.bridged_executions > 0)
    fmt::print(
        "Remap: {} plans overlapped with the steps: {:.1f} ms of planning in the background, "
        "{:.1f} ms waited for; {} of {} force evaluations read through the index meanwhile\n",
        rs.report.plans, rs.report.overlapped_plan_ms, rs.report.plan_ms,
        rs.report.bridged_executions, rs.report.executions);
}

void print_result(const MdOptions& o, const md::MdParams& p, const md::RunResult& r) {
  const md::RunStats& st = r.stats;
  if (!o.quiet)
    print_stats(p, st);
  else
    fmt::print("{} atoms, {} steps, {:.4g} atom-steps/s, final etotal {:.8g}\n", st.atoms, st.steps,
               st.atom_steps_per_s, st.last.etotal);
  if (!o.quiet) print_remap(r.remap);
  // Builds that came late (neighbor.check false only: the deck chose scheduled builds) are
  // counted in the Neighbors line and the summary, as LAMMPS' "Dangerous builds".
  std::fflush(stdout);
}

nlohmann::json thermo_json(const ThermoSample& t) {
  nlohmann::json j = {{"step", t.step},     {"temp", t.temp},       {"e_pair", t.e_pair},
                      {"ke", t.ke},         {"etotal", t.etotal},   {"press", t.press},
                      {"volume", t.volume}, {"density", t.density}, {"enthalpy", t.enthalpy}};
  if (t.has_ptensor)
    j["pressure_tensor"] = {t.ptensor[0], t.ptensor[1], t.ptensor[2],
                            t.ptensor[3], t.ptensor[4], t.ptensor[5]};
  return j;
}

nlohmann::json remap_json(const md::MdParams& p, const md::RemapStats& rs) {
  const remap::RemapReport& rep = rs.report;
  return {
      {"strategy", rep.strategy},
      {"reorder", remap::to_string(p.remap.reorder)},
      {"extra_bytes", rep.extra_bytes},
      {"index_bits", p.remap.options.index_bits},
      {"index_escapes_per_reference",
       rep.index_references > 0 ? double(rep.index_escapes) / double(rep.index_references) : 0.0},
      {"cache_hits", rep.cache_hits},
      {"cache_misses", rep.cache_misses},
      {"splits", rep.splits},
      {"decision", rep.decision},
      {"plan_ms", rep.plan_ms},
      {"plans", rep.plans},
      {"overlapped_plan_ms", rep.overlapped_plan_ms},
      {"bridged_executions", rep.bridged_executions},
      {"executions", rep.executions},
      {"predicted_run_ms", rep.predicted_run_ms},
      {"realised_ms", rs.realised_ms},
      {"selection_ms", rep.selection_ms},
      {"memory_selection", rs.memory_selection}};
}

nlohmann::json summary_json(const MdOptions& o, const md::Run& run, const md::RunResult& r,
                            double wall_seconds) {
  const md::MdParams& p = run.params();
  const md::RunStats& st = r.stats;
  const auto& sp = st.split;
  const double per_step = st.steps ? 1e3 / st.steps : 0;
  nlohmann::json j;
  j["command"] = o.minimize_only ? "minimize" : "md";
  j["deck"] = o.deck;
  j["atoms"] = st.atoms;
  j["steps"] = st.steps;
  j["backend"] = device_backend();
  j["precision"] = to_string(p.precision);
  j["engine"] = run.engine().describe();
  j["output"] = {{"frames", run.output().frames()}, {"checkpoints", run.output().checkpoints()}};
  j["initial_thermo"] = thermo_json(r.initial);
  if (r.minimized)
    j["minimize"] = {
        {"style", to_string(p.minimize.style)},      {"stop", to_string(r.minimize.stop)},
        {"iterations", r.minimize.iterations},       {"evaluations", r.minimize.evaluations},
        {"e_initial", r.minimize.e_initial},         {"e_final", r.minimize.e_final},
        {"fnorm_initial", r.minimize.fnorm_initial}, {"fnorm_final", r.minimize.fnorm_final},
        {"fmax_final", r.minimize.fmax_final},       {"seconds", r.minimize.seconds}};
  j["final_thermo"] = thermo_json(st.last);
  j["loop_seconds"] = st.loop_seconds;
  j["wall_seconds"] = wall_seconds;
  j["atom_steps_per_s"] = st.atom_steps_per_s;
  j["time_split_ms_per_step"] = {{"force", sp.force * per_step},
                                 {"neighbor", sp.neighbor * per_step},
                                 {"integrate", sp.integrate * per_step},
                                 {"other", sp.other * per_step},
                                 {"exchange", sp.exchange * per_step},
                                 {"exchange_mpi", sp.exchange_mpi * per_step},
                                 {"exchange_rebuild", sp.exchange_rebuild * per_step},
                                 {"exchange_migrate", sp.exchange_migrate * per_step},
                                 {"exchange_overlapped", sp.exchange_overlapped * per_step}};
  j["rebuild_ms_each"] = st.list_builds ? sp.rebuild * 1e3 / st.list_builds : 0.0;
  j["force_atom_steps_per_s"] = sp.force > 0 ? double(st.atoms) * st.steps / sp.force : 0.0;
  j["neighbors"] = {{"mean", st.mean_neighbors},  {"max", st.max_neighbors},
                    {"builds", st.list_builds},   {"dangerous_builds", st.dangerous_builds},
                    {"regrows", st.list_regrows}, {"candidate_rebuilds", st.candidate_rebuilds},
                    {"sorts", st.sorts}};
  if (st.cluster_size > 0)
    j["cluster"] = {{"size", st.cluster_size},
                    {"pairs_per_icluster", st.cluster_pairs_per_icluster},
                    {"mask_fill", st.cluster_mask_fill},
                    {"padding", st.cluster_padding},
                    {"slots_per_atom", st.cluster_slots_per_atom},
                    {"rows_per_atom", st.cluster_rows_per_atom},
                    {"newton", p.cluster_newton}};
  j["remap"] = remap_json(p, r.remap);
  j["mpi"] = {{"ranks", p.ranks},
              {"grid", p.grid.p},
              {"ghosts_exchanged", p.exchange_ghosts},
              {"migrations", st.migrations},
              {"migrations_through_mpi", st.migrations_through_mpi},
              {"transfer", st.transfer},
              {"overlap", st.near_face_atoms >= 0},
              {"near_face_atoms", st.near_face_atoms},
              {"near_face_reorders", st.near_face_reorders}};
  j["build"] = build_info();
  return j;
}

}  // namespace

int run_md(const MdOptions& o) {
  Kokkos::Timer wall;
  md::RunRequest request;
  request.deck = o.deck;
  request.restart = {"--restart", o.restart, false, ""};
  request.extra_outputs = {{"--summary", o.summary, true, ""}};
  request.info.creator_version = MDREMAP_VERSION;
  request.info.backend = device_backend();
  md::Run run([&] { return md_deck(o); }, request);
  print_start(o, run);
  Console console(o.quiet, run.params().thermo_columns);
  const md::RunResult r = run.execute(console);
  print_result(o, run.params(), r);
  if (io::StagedFile* summary = run.extra_output(0))
    write_summary(*summary, summary_json(o, run, r, wall.seconds()));
  return 0;
}

}  // namespace mdremap::cli

// `mdremap md DECK`: one MD run from a YAML deck.
#include "cli/md_command.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <memory>

#include "cli/common.hpp"
#include "cli/numeric_flag.hpp"
#include "comm/runtime.hpp"
#include "integrators/settings.hpp"
#include "io/checkpoint.hpp"
#include "io/deck.hpp"
#include "io/paths.hpp"
#include "io/staged_file.hpp"
#include "io/thermo_csv.hpp"
#include "md/output.hpp"
#include "md/params.hpp"
#include "md/simulation.hpp"
#include "md/system.hpp"
#include "md/system_file.hpp"

namespace mdremap::cli {

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
  add_remap_flags(md, o.remap, true);
  // The integrator section's keys, from the integrators' own declarations.
  md->footer("Deck section `integrator`: style, dt, and per style:\n" +
             integrators::integrator_help());
}

namespace {

class ConsoleObserver : public md::RunObserver {
 public:
  ConsoleObserver(bool quiet, io::ThermoCsv* csv) : quiet_(quiet), csv_(csv), progress_(!quiet) {}
  static void header() {
    fmt::print("{:>10} {:>12} {:>14} {:>14} {:>14} {:>14}\n", "Step", "Temp", "E_pair", "KE",
               "TotEng", "Press");
  }
  static void line(const ThermoSample& t) {
    fmt::print("{:>10} {:>12.7g} {:>14.8g} {:>14.8g} {:>14.8g} {:>14.8g}\n", t.step, t.temp,
               t.e_pair, t.ke, t.etotal, t.press);
  }
  void thermo(const ThermoSample& t) override {
    if (csv_) csv_->write(t);
    if (quiet_) return;
    progress_.clear();
    line(t);
    std::fflush(stdout);
  }
  void progress(std::int64_t done, std::int64_t total, double s) override {
    progress_.update(done, total, s);
  }
  void finish() { progress_.finish(); }

 private:
  bool quiet_;
  io::ThermoCsv* csv_;
  Progress progress_;
};

// A path as a YAML string scalar, so `--thermo-csv 1e5` or `--thermo-csv 'a: b'` stay names.
std::string yaml_string(const std::string& path) {
  std::string q = "'";
  for (char c : path) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}

nlohmann::json thermo_json(const ThermoSample& t) {
  return {{"step", t.step},     {"temp", t.temp},   {"e_pair", t.e_pair}, {"ke", t.ke},
          {"etotal", t.etotal}, {"press", t.press}, {"volume", t.volume}};
}

}  // namespace

int run_md(const MdOptions& o) {
  Kokkos::Timer wall;
  // With several MPI ranks every rank reads and checks the deck (its errors are every rank's,
  // reported once: comm::on_every_rank) and rank 0 alone owns the output files (comm::on_root).
  const bool root = comm::rank() == 0;
  auto parsed = comm::on_every_rank([&] {
    check_backend(o.backend);
    auto deck = io::Deck::from_file(o.deck);
    for (const auto& s : o.sets) deck.apply_override(s);
    if (o.steps >= 0) deck.apply_override(fmt::format("run.steps={}", o.steps), "--steps");
    if (!o.precision.empty()) deck.apply_override("run.precision=" + o.precision, "--precision");
    if (o.shuffle) {
      deck.apply_override("system.shuffle=true");
      deck.apply_override("neighbor.sort=none");
    }
    if (!o.thermo_csv.empty())
      deck.apply_override("output.thermo_csv=" + yaml_string(o.thermo_csv), "--thermo-csv");
    apply_remap_flags(o.remap, deck);
    const md::MdParams p = md::read_md_params(deck);
    // Every output path is checked before any work, so a typo fails now, not after the run.
    md::check_output_paths(p);
    if (!o.summary.empty()) {
      try {
        io::check_writable(o.summary);
      } catch (const Error& e) {
        throw InputError("--summary", 0, e.what());
      }
    }
    // No output may overwrite an input or another output of this run (issue 11, finding 2).
    std::vector<io::PathUse> paths{{"the deck", o.deck, false, ""},
                                   {"--restart", o.restart, false, ""},
                                   {"system.file", p.system_file, false, ""}};
    for (const auto& u : md::output_path_uses(p)) paths.push_back(u);
    paths.push_back({"--summary", o.summary, true, ""});
    io::check_distinct(paths);
    return std::make_pair(deck, p);
  });
  io::Deck& deck = parsed.first;
  const md::MdParams& p = parsed.second;

  std::unique_ptr<io::Checkpoint> checkpoint;
  if (!o.restart.empty()) {
    // a killed checkpoint write leaves one (finding 7); every rank then reads the checkpoint
    comm::on_root([&] { io::remove_stale_partial(o.restart); });
    checkpoint = comm::on_every_rank([&] {
      auto c = std::make_unique<io::Checkpoint>(io::read_checkpoint(o.restart));
      md::check_restart(p, *c, o.restart);
      return c;
    });
  }
  // Outputs are locked now, before the run: one another run is writing is refused (exit 2).
  std::unique_ptr<io::StagedFile> summary;
  std::unique_ptr<io::ThermoCsv> csv;
  comm::on_root([&] {
    if (!o.summary.empty()) {
      try {
        summary = std::make_unique<io::StagedFile>(o.summary);
      } catch (const io::OutputBusy& e) {
        throw InputError("--summary", 0, e.what());
      }
    }
    if (!p.thermo_csv.empty()) {
      try {
        csv = std::make_unique<io::ThermoCsv>(p.thermo_csv);
      } catch (const io::OutputBusy& e) {
        throw InputError("output.thermo_csv", 0, e.what());
      }
    }
  });
  auto engine = checkpoint ? md::restart_engine(p, *checkpoint, o.restart) : md::create_engine(p);
  md::OutputInfo info;
  info.deck_yaml = deck.resolved_yaml();
  info.creator_version = MDREMAP_VERSION;
  info.backend = device_backend();
  md::RunOutput output(p, *engine, info, engine->step() + p.steps);

  if (!o.quiet) {
    fmt::print("mdremap {} | backend {} | {} atoms\n", MDREMAP_VERSION, device_backend(),
               p.natoms());
    fmt::print("# resolved deck ({}):\n", o.deck);
    std::string y = deck.resolved_yaml();
    for (size_t pos = 0, nl; pos < y.size(); pos = nl + 1) {
      nl = y.find('\n', pos);
      if (nl == std::string::npos) nl = y.size();
      fmt::print("#   {}\n", y.substr(pos, nl - pos));
    }
  }

  if (checkpoint) {
    if (!o.quiet)
      fmt::print("# restart from {} at step {}: {} more steps\n", o.restart, checkpoint->step,
                 p.steps);
    if (checkpoint->backend != device_backend() && root)
      fmt::print(stderr,
                 "note: {} was written by the {} backend; this run continues on {} (correct, "
                 "but not bit-identical to a run that stayed on {})\n",
                 o.restart, checkpoint->backend, device_backend(), checkpoint->backend);
    checkpoint.reset();
  }
  if (p.file && root) {
    for (const auto& note : md::system_file_notes(p)) fmt::print(stderr, "note: {}\n", note);
    if (!o.quiet) fmt::print("# {}\n", md::describe_system_file(p));
  }
  if (!o.quiet) fmt::print("# {}\n", engine->describe());
  if (!o.quiet && output.any()) fmt::print("# output: {}\n", output.describe());

  ConsoleObserver console(o.quiet, csv.get());
  md::ObserverList obs{&console, &output};
  const ThermoSample t0 = engine->setup();
  if (!o.quiet) ConsoleObserver::header();
  console.thermo(t0);
  output.start(t0);
  const md::RunStats st = engine->run(p.steps, &obs);
  console.finish();
  output.finish();
  if (csv) csv->close();

  const auto& sp = st.split;
  const double per_step = st.steps ? 1e3 / st.steps : 0;
  if (!o.quiet) {
    fmt::print(
        "Loop time {:.4g} s for {} steps of {} atoms: {:.4g} atom-steps/s ({:.4g} steps/s)\n",
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
        "Neighbors: {:.2f} per atom (max {}), {} list builds ({:.3g} ms each), {} "
        "dangerous, {} regrows, {} rebuilt for their candidates, {} sorts\n",
        st.mean_neighbors, st.max_neighbors, st.list_builds,
        st.list_builds ? sp.rebuild * 1e3 / st.list_builds : 0.0, st.dangerous_builds,
        st.list_regrows, st.candidate_rebuilds, st.sorts);
    if (st.cluster_size > 0)
      fmt::print(
          "Cluster pairs: clusters of {}, {:.2f} j-clusters per i-cluster, masks select {:.1f}% "
          "of their atom pairs, {:.1f}% of the i-cluster slots are padding, {:.3f} slots "
          "(ghosts' included) per atom, {:.2f} non-empty mask rows per atom\n",
          st.cluster_size, st.cluster_pairs_per_icluster, 100 * st.cluster_mask_fill,
          100 * st.cluster_padding, st.cluster_slots_per_atom, st.cluster_rows_per_atom);
  } else {
    fmt::print("{} atoms, {} steps, {:.4g} atom-steps/s, final etotal {:.8g}\n", st.atoms, st.steps,
               st.atom_steps_per_s, st.last.etotal);
  }
  const md::RemapStats rs = engine->remap_stats(false);
  if (!o.quiet && !rs.memory_selection.empty()) fmt::print("{}\n", rs.memory_selection);
  if (!o.quiet && !rs.report.decision.empty()) {
    fmt::print("Remap: {}\n", rs.report.decision);
    fmt::print(
        "Remap: auto predicted {:.1f} ms for its choice over the run; realised {:.1f} ms in {} "
        "force evaluations and their plans (profiling of the other candidates included: {:.1f} "
        "ms)\n",
        rs.report.predicted_run_ms, rs.realised_ms, rs.executions, rs.report.selection_ms);
  }
  if (!o.quiet && (rs.report.overlapped_plan_ms > 0 || rs.report.bridged_executions > 0))
    fmt::print(
        "Remap: {} plans overlapped with the steps: {:.1f} ms of planning in the background, "
        "{:.1f} ms waited for; {} of {} force evaluations read through the index meanwhile\n",
        rs.report.plans, rs.report.overlapped_plan_ms, rs.report.plan_ms,
        rs.report.bridged_executions, rs.report.executions);
  std::fflush(stdout);
  if (st.dangerous_builds > 0 && root)
    fmt::print(stderr,
               "note: {} scheduled neighbor-list builds came after an atom had moved more than "
               "skin/2 (pairs may have been missed in between); neighbor.check=true rebuilds on "
               "displacement instead\n",
               st.dangerous_builds);

  if (summary) {
    nlohmann::json j;
    j["command"] = "md";
    j["deck"] = o.deck;
    j["atoms"] = st.atoms;
    j["steps"] = st.steps;
    j["backend"] = device_backend();
    j["precision"] = to_string(p.precision);
    j["engine"] = engine->describe();
    j["output"] = {{"frames", output.frames()}, {"checkpoints", output.checkpoints()}};
    j["initial_thermo"] = thermo_json(t0);
    j["final_thermo"] = thermo_json(st.last);
    j["loop_seconds"] = st.loop_seconds;
    j["wall_seconds"] = wall.seconds();
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
    j["remap"] = {{"strategy", rs.report.strategy},
                  {"reorder", md::to_string(p.reorder)},
                  {"extra_bytes", rs.report.extra_bytes},
                  {"index_bits", p.index_bits},
                  {"index_escapes_per_reference",
                   rs.report.index_references > 0
                       ? double(rs.report.index_escapes) / double(rs.report.index_references)
                       : 0.0},
                  {"cache_hits", rs.report.cache_hits},
                  {"cache_misses", rs.report.cache_misses},
                  {"splits", rs.report.splits},
                  {"decision", rs.report.decision},
                  {"plan_ms", rs.report.plan_ms},
                  {"plans", rs.report.plans},
                  {"overlapped_plan_ms", rs.report.overlapped_plan_ms},
                  {"bridged_executions", rs.report.bridged_executions},
                  {"executions", rs.report.executions},
                  {"predicted_run_ms", rs.report.predicted_run_ms},
                  {"realised_ms", rs.realised_ms},
                  {"selection_ms", rs.report.selection_ms},
                  {"memory_selection", rs.memory_selection}};
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
    write_summary(*summary, j);
  }
  return 0;
}

}  // namespace mdremap::cli

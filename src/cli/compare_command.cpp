// `mdremap compare DECK --modes ...`: the remap strategies side by side on the same system
// (BRIEF section 2). Every mode is timed over its whole run, setup (first list build and plan)
// to the last step, plans and auto's profiling included; modes run interleaved in rounds
// (A B C A B C ...) so machine drift hits all alike, and the table shows medians over rounds.
// One table, optionally a CSV and a gnuplot PNG (per mode, the run stacked into plan + profiling,
// remap, compute and the rest of the step).
#include "cli/compare_command.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>

#include "cli/numeric_flag.hpp"
#include "compare/measure.hpp"
#include "io/deck.hpp"
#include "io/paths.hpp"
#include "io/staged_file.hpp"
#include "md/params.hpp"
#include "md/reorder.hpp"
#include "md/simulation.hpp"
#include "mdremap/error.hpp"
#include "mdremap/median.hpp"
#include "mdremap/remap/registry.hpp"

namespace mdremap::cli {

void add_compare_command(CLI::App& app, CompareOptions& o) {
  auto* c = app.add_subcommand("compare", "Run remap strategies on the same system, side by side");
  c->add_option("deck", o.deck, "YAML deck (e.g. inputs/lj_bench.yaml)")->required();
  c->add_option("--modes", o.modes, "Comma list of " + remap::strategy_list(","));
  c->add_option("--set", o.sets, "Override a deck key (repeatable)")->take_all();
  c->add_option("--precision", o.precision, "double | mixed | single")
      ->check(CLI::IsMember({"double", "mixed", "single"}));
  c->add_option("--csv", o.csv, "Write one row per mode and reorder to this CSV");
  c->add_option("--plot", o.plot, "Write a PNG chart (gnuplot) of each mode's run to this file");
  c->add_option("--steps", o.steps, "MD steps of each mode's run")
      ->check(number_in<int>(1, 1000000000, "INT >= 1"));
  c->add_option("--rounds", o.rounds, "Interleaved rounds (A B C A B C ...); medians reported")
      ->check(number_in<int>(1, 1000, "INT >= 1"));
  c->add_option("--repeats", o.repeats,
                "Fenced force evaluations for the remap/compute split (after each run)")
      ->check(number_in<int>(1, 1000000, "INT >= 1"));
  c->add_flag("--shuffle", o.shuffle, "Randomly permuted atom order (system.shuffle, no sort)");
  c->add_flag("--quiet,-q", o.quiet, "Print only the table");
  add_remap_flags(c, o.remap, md::remap_app(), false);
}

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t b = 0;
  while (b <= s.size()) {
    std::size_t e = s.find(',', b);
    if (e == std::string::npos) e = s.size();
    if (e > b) out.push_back(s.substr(b, e - b));
    b = e + 1;
  }
  return out;
}

// One mode's run in one round.
struct Sample {
  double run_ms = 0;                               // setup + steps, fenced
  double setup_ms = 0;                             // first list build, plan, first force
  double step_ms = 0;                              // MD loop time per step
  double force_ms = 0;                             // force phase over the loop
  double plan_ms = 0;                              // the kept strategy's plans (setup and rebuilds)
  double selection_ms = 0, selection_exec_ms = 0;  // auto: candidates not kept
  double predicted_ms = 0;                         // auto: its whole-run prediction
};

struct Row {
  std::string mode, reorder, strategy, note;
  double e_pair = std::numeric_limits<double>::quiet_NaN();
  std::int64_t tx32 = -1, tx128 = -1, extra = 0;
  std::int64_t all32 = -1, all128 = -1;  // with the index, weight and length loads
  std::vector<Sample> samples;
  Sample med;  // medians over the rounds, field by field
  compare::RemapTiming timing;
  std::int64_t executions = 0;
  std::int64_t hits = 0, misses = 0, splits = 0;
  bool ok = true;
  bool demo = false;  // the single-pattern gather-reduce (not an MD run)
  // The run split for the chart (ms): plan + profiling, exposed remap, compute, the rest.
  double seg_plan = 0, seg_remap = 0, seg_compute = 0, seg_other = 0;
};

std::string num(double v, const char* fmt_ = "{:.3f}") {
  return std::isnan(v) ? std::string("") : fmt::format(fmt::runtime(fmt_), v);
}

io::Deck make_deck(const CompareOptions& o, const std::string& mode, const std::string& reorder) {
  auto deck = io::Deck::from_file(o.deck);
  for (const auto& s : o.sets) deck.apply_override(s);
  if (!o.precision.empty()) deck.apply_override("run.precision=" + o.precision);
  if (o.shuffle) {
    deck.apply_override("system.shuffle=true");
    deck.apply_override("neighbor.sort=none");
  }
  RemapFlags f = o.remap;
  f.values.erase("reorder");
  apply_remap_flags(f, deck);
  deck.apply_override("remap.mode=" + mode);
  deck.apply_override("remap.reorder=" + reorder);
  deck.apply_override(fmt::format("run.steps={}", o.steps));
  // Every mode on the same system: the full column-major list the strategies need.
  deck.apply_override("neighbor.list=full");
  deck.apply_override("neighbor.layout=column");
  return deck;
}

template <class F>
double fenced_ms(F&& f) {
  Kokkos::fence();
  Kokkos::Timer t;
  f();
  Kokkos::fence();
  return 1e3 * t.seconds();
}

// One whole run of `mode`: setup to the last step. The last round also measures the phases
// and the modelled transactions (after the run: outside the timed region).
void run_mode(const CompareOptions& o, Row& row, bool last_round) {
  auto deck = make_deck(o, row.mode, row.reorder);
  const md::MdParams p = md::read_md_params(deck);
  auto engine = md::create_engine(p);
  Sample s;
  ThermoSample t0;
  s.setup_ms = fenced_ms([&] { t0 = engine->setup(); });
  md::RunStats st;
  const double loop_ms = fenced_ms([&] { st = engine->run(o.steps); });
  s.run_ms = s.setup_ms + loop_ms;
  s.step_ms = 1e3 * st.loop_seconds / std::max<std::int64_t>(1, st.steps);
  s.force_ms = 1e3 * st.split.force;
  const md::RemapStats rs = engine->remap_stats(last_round);
  const remap::RemapReport& rep = rs.report;
  s.plan_ms = rep.plan_ms;
  s.selection_ms = rep.selection_ms;
  s.selection_exec_ms = rep.selection_exec_ms;
  s.predicted_ms = rep.predicted_run_ms;
  row.samples.push_back(s);
  row.e_pair = t0.e_pair;
  row.strategy = rep.strategy;
  row.executions = o.steps + 1;
  if (!last_round) return;
  row.timing = compare::measure_phases(engine->force_probe(), o.repeats);
  if (rs.have_tx) {
    row.tx32 = rs.tx.seg32;
    row.tx128 = rs.tx.seg128;
    row.all32 = rs.all.total().seg32;
    row.all128 = rs.all.total().seg128;
  }
  row.extra = rep.extra_bytes;
  row.hits = rep.cache_hits;
  row.misses = rep.cache_misses;
  row.splits = rep.splits;
  if (!rep.decision.empty()) row.note = rep.decision;
  if (rep.splits > 0) row.note += fmt::format("{} of {} blocks split", rep.splits, rep.blocks);
  if (rep.packed_elems > 0)
    row.note += fmt::format("{}packed {:.1f}% of dup's elements", row.note.empty() ? "" : "; ",
                            100.0 * rep.packed_elems / std::max<std::int64_t>(1, rep.dup_elems));
}

// Padding refuses the MD force kernel; it is shown on the single-pattern gather-reduce instead.
void run_padding(const CompareOptions& o, const std::string& reorder, const std::string& why,
                 std::vector<Row>& rows, std::vector<std::string>& notes) {
  Row refused;
  refused.mode = "padding";
  refused.reorder = reorder;
  refused.strategy = "refused";
  refused.ok = false;
  refused.note = "force kernel: refused (more than one reference pattern)";
  rows.push_back(refused);
  notes.push_back(fmt::format("[{}] padding: {}", reorder, why));
  auto deck = make_deck(o, "gather", reorder);
  const md::MdParams p = md::read_md_params(deck);
  auto engine = md::create_engine(p);
  engine->setup();
  const md::ForcePattern fp = engine->force_probe().force_pattern();
  // The gather-reduce body is one thread a row (remap.lanes serves the force kernel only).
  remap::RemapOptions ro = md::remap_options(p);
  ro.lanes = 1;
  for (const std::string m : {"gather", "padding"}) {
    const compare::GatherReduceResult g = compare::gather_reduce(fp, m, ro, o.repeats);
    Row r;
    r.mode = m + "[gather-reduce]";
    r.reorder = reorder;
    r.demo = true;
    r.strategy = g.stats.report.strategy;
    r.timing = g.timing;
    r.tx32 = g.stats.tx.seg32;
    r.tx128 = g.stats.tx.seg128;
    r.all32 = g.stats.all.total().seg32;
    r.all128 = g.stats.all.total().seg128;
    r.extra = g.stats.report.extra_bytes;
    Sample s;
    s.plan_ms = g.stats.report.plan_ms;
    s.step_ms = g.timing.pipelined_ms;
    r.samples.push_back(s);
    r.note = fmt::format("single-pattern kernel; max rel. diff vs gather {:.1e}", g.max_rel_err);
    if (m == "padding")
      r.note +=
          fmt::format("; {} holes, {} duplicates", g.stats.report.holes, g.stats.report.duplicates);
    rows.push_back(r);
  }
}

void summarise(Row& r) {
  auto med = [&](double Sample::*f) {
    std::vector<double> v;
    for (const auto& s : r.samples) v.push_back(s.*f);
    return median(v);
  };
  r.med.run_ms = med(&Sample::run_ms);
  r.med.setup_ms = med(&Sample::setup_ms);
  r.med.step_ms = med(&Sample::step_ms);
  r.med.force_ms = med(&Sample::force_ms);
  r.med.plan_ms = med(&Sample::plan_ms);
  r.med.selection_ms = med(&Sample::selection_ms);
  r.med.selection_exec_ms = med(&Sample::selection_exec_ms);
  r.med.predicted_ms = med(&Sample::predicted_ms);
  if (r.demo || !r.ok) return;
  // The chart's split of the run: the remap not hidden by the pipeline, per execution; auto's
  // profiled executions of candidates it did not keep are in the force phase and in selection.
  const double exposed = std::max(0.0, r.timing.pipelined_ms - r.timing.compute_ms);
  r.seg_plan = r.med.plan_ms + r.med.selection_ms;
  r.seg_remap = std::min(r.med.force_ms, exposed * static_cast<double>(r.executions));
  r.seg_compute = std::max(0.0, r.med.force_ms - r.seg_remap - r.med.selection_exec_ms);
  r.seg_other = std::max(0.0, r.med.run_ms - r.seg_plan - r.seg_remap - r.seg_compute);
}

void write_csv(io::StagedFile& out, const std::vector<Row>& rows) {
  const std::string& path = out.target();
  {
    std::ofstream f(out.staging(), std::ios::app);  // emptied already; app: a device in place
    if (!f) throw Error("cannot write " + path);
    f << "mode,reorder,strategy,e_pair,transactions_32,transactions_128,all_loads_32,"
         "all_loads_128,extra_bytes,run_ms,"
         "setup_ms,step_ms,force_ms,plan_ms,selection_ms,predicted_run_ms,remap_ms,compute_ms,"
         "pipelined_ms,overlap,rounds,cache_hits,cache_misses,splits,seg_plan_ms,seg_remap_ms,"
         "seg_compute_ms,seg_other_ms,note\n";
    for (const auto& r : rows) {
      auto q = [](std::string s) {
        for (auto& c : s)
          if (c == '"' || c == '\n') c = c == '"' ? '\'' : ' ';
        return "\"" + s + "\"";
      };
      const bool ok = r.ok;
      f << fmt::format(
          "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}"
          "\n",
          r.mode, r.reorder, r.strategy, num(r.e_pair, "{:.10g}"),
          r.tx32 >= 0 ? std::to_string(r.tx32) : "", r.tx128 >= 0 ? std::to_string(r.tx128) : "",
          r.all32 >= 0 ? std::to_string(r.all32) : "",
          r.all128 >= 0 ? std::to_string(r.all128) : "", ok ? std::to_string(r.extra) : "",
          ok ? num(r.med.run_ms, "{:.4f}") : "", ok ? num(r.med.setup_ms, "{:.4f}") : "",
          ok ? num(r.med.step_ms, "{:.5f}") : "", ok ? num(r.med.force_ms, "{:.4f}") : "",
          ok ? num(r.med.plan_ms, "{:.4f}") : "", ok ? num(r.med.selection_ms, "{:.4f}") : "",
          ok ? num(r.med.predicted_ms, "{:.4f}") : "", ok ? num(r.timing.remap_ms, "{:.5f}") : "",
          ok ? num(r.timing.compute_ms, "{:.5f}") : "",
          ok ? num(r.timing.pipelined_ms, "{:.5f}") : "",
          ok && r.timing.overlap >= 0 ? num(r.timing.overlap, "{:.3f}") : "", r.samples.size(),
          r.hits, r.misses, r.splits, num(r.seg_plan, "{:.4f}"), num(r.seg_remap, "{:.4f}"),
          num(r.seg_compute, "{:.4f}"), num(r.seg_other, "{:.4f}"), q(r.note));
    }
  }
  out.commit();
}

// Per mode one stacked bar of its whole run (median round): plan + profiling, exposed remap,
// compute, and the rest of the step (neighbour lists, integration).
void write_plot(io::StagedFile& out, const std::vector<Row>& rows, const std::string& title) {
  const std::string& path = out.target();
  const std::string dat = path + ".dat";
  {
    std::ofstream f(dat);
    f << "label plan remap compute other\n";
    for (const auto& r : rows)
      if (r.ok && !r.demo)
        f << fmt::format("\"{}/{}\" {} {} {} {}\n", r.mode, r.reorder, r.seg_plan, r.seg_remap,
                         r.seg_compute, r.seg_other);
  }
  const std::string script = fmt::format(
      "set terminal pngcairo size 1200,600 noenhanced; set output '{}';"
      "set title '{}'; set style data histograms; set style histogram rowstacked;"
      "set boxwidth 0.6; set style fill solid 0.85 border -1; set ylabel 'ms over the run';"
      "set xtics rotate by -30; set key outside right top; set grid ytics; set yrange [0:*];"
      "plot '{}' using 2:xtic(1) title 'plan + profiling', '' using 3 title 'remap (exposed)',"
      "'' using 4 title 'compute', '' using 5 title 'neighbour + integrate + other'",
      out.staging(), title, dat);
  const std::string cmd = "gnuplot -e \"" + script + "\" 2>&1";
  const int rc = std::system(cmd.c_str());
  std::remove(dat.c_str());
  if (rc != 0)
    throw Error("gnuplot failed writing " + path + " (is gnuplot with pngcairo installed?)");
  out.commit();
}

// --csv and --plot: checked, kept apart from the deck and each other, and locked before any run.
std::unique_ptr<io::StagedFile> open_output(const std::string& flag, const std::string& path) {
  if (path.empty()) return nullptr;
  try {
    io::check_writable(path);
    return std::make_unique<io::StagedFile>(path);
  } catch (const InputError& e) {
    throw InputError(flag, 0, e.what());
  } catch (const Error& e) {
    throw InputError(flag, 0, e.what());
  }
}

}  // namespace

int run_compare(const CompareOptions& o) {
  io::check_distinct({{"the deck", o.deck, false, ""},
                      {"--csv", o.csv, true, ""},
                      {"--plot", o.plot, true, ""},
                      {"--plot", o.plot.empty() ? "" : o.plot + ".dat", true, ""}});
  const auto csv = open_output("--csv", o.csv);
  const auto plot = open_output("--plot", o.plot);
  const auto modes = split(o.modes);
  const auto reorders = split(o.remap.value("reorder").empty() ? "none" : o.remap.value("reorder"));
  if (modes.empty()) throw InputError("command line", 0, "--modes: give at least one mode");
  // Validate every mode and reorder name before any run.
  for (const auto& m : modes)
    for (const auto& r : reorders)
      md::read_md_params(*std::make_unique<io::Deck>(make_deck(o, m, r)));

  std::vector<Row> rows;
  std::vector<std::string> notes;
  std::map<std::pair<std::string, std::string>, std::size_t> at;  // (reorder, mode) -> row
  for (const auto& r : reorders)
    for (const auto& m : modes) {
      if (m == "padding") {
        std::string why;
        try {
          md::create_engine(md::read_md_params(*std::make_unique<io::Deck>(make_deck(o, m, r))));
        } catch (const Error& e) {
          why = e.what();
        }
        if (why.empty()) throw Error("padding was expected to refuse the MD force kernel");
        run_padding(o, r, why, rows, notes);
        continue;
      }
      Row row;
      row.mode = m;
      row.reorder = r;
      at[{r, m}] = rows.size();
      rows.push_back(row);
    }
  // Interleaved rounds: A B C A B C ...
  for (int round = 0; round < o.rounds; ++round)
    for (auto& [key, k] : at) {
      Row& row = rows[k];
      if (!o.quiet) {
        fmt::print("# round {}/{}: {} / reorder {}\n", round + 1, o.rounds, row.mode, row.reorder);
        std::fflush(stdout);
      }
      run_mode(o, row, round + 1 == o.rounds);
    }
  for (auto& r : rows) summarise(r);

  fmt::print(
      "{:<22} {:<9} {:<12} {:>13} {:>11} {:>11} {:>11} {:>9} {:>10} {:>9} {:>9} {:>9} {:>9} "
      "{:>8} {:>9}  {}\n",
      "mode", "reorder", "strategy", "e_pair", "tx32", "tx128", "tx32 all", "extra MB", "run ms",
      "plan ms", "step ms", "remap ms", "compute", "overlap", "predict", "note");
  for (const auto& r : rows) {
    if (!r.ok) {
      fmt::print("{:<22} {:<9} {:<12} {}\n", r.mode, r.reorder, r.strategy, r.note);
      continue;
    }
    fmt::print(
        "{:<22} {:<9} {:<12} {:>13} {:>11} {:>11} {:>11} {:>9.2f} {:>10} {:>9.3f} {:>9.4f} "
        "{:>9.4f} {:>9.4f} {:>8} {:>9}  {}\n",
        r.mode, r.reorder, r.strategy, num(r.e_pair, "{:.8f}"),
        r.tx32 >= 0 ? std::to_string(r.tx32) : "-", r.tx128 >= 0 ? std::to_string(r.tx128) : "-",
        r.all32 >= 0 ? std::to_string(r.all32) : "-", r.extra / 1e6,
        r.demo ? std::string("-") : num(r.med.run_ms, "{:.1f}"), r.med.plan_ms + r.med.selection_ms,
        r.med.step_ms, r.timing.remap_ms, r.timing.compute_ms,
        r.timing.overlap >= 0 ? fmt::format("{:.0f}%", 100 * r.timing.overlap) : std::string("-"),
        r.med.predicted_ms > 0 ? num(r.med.predicted_ms, "{:.1f}") : std::string("-"),
        r.note.substr(0, r.note.find('\n')));
  }
  // auto against the best fixed mode of the same reorder, on whole-run time.
  for (const auto& ro : reorders) {
    const Row* best = nullptr;
    const Row* au = nullptr;
    for (const auto& r : rows) {
      if (r.reorder != ro || !r.ok || r.demo) continue;
      if (r.mode == "auto")
        au = &r;
      else if (!best || r.med.run_ms < best->med.run_ms)
        best = &r;
    }
    if (au && best)
      fmt::print("[{}] auto ({}) run {:.1f} ms vs best fixed mode {} {:.1f} ms: {:+.1f}%\n", ro,
                 au->strategy, au->med.run_ms, best->mode, best->med.run_ms,
                 100.0 * (au->med.run_ms / best->med.run_ms - 1.0));
  }
  for (const auto& r : rows)
    if (r.mode == "auto" && !r.note.empty())
      notes.push_back(fmt::format("[{}] {}", r.reorder, r.note));
  for (const auto& n : notes) fmt::print("{}\n", n);
  fmt::print(
      "tx32/tx128: modelled 32/128-byte segments of the data loads per force evaluation; tx32 all: "
      "with the index, weight and length loads (as the papers' profilers counted); "
      "run ms: setup (first list build, plan, first force) + {} steps, median of {} interleaved "
      "rounds; plan ms: the kept strategy's plans + auto's candidates not kept; step ms: MD loop "
      "time per step; remap/compute ms: medians of {} fenced force evaluations after the run; "
      "overlap: share of the remap time during which a compute kernel ran, from device "
      "timestamps of each chunk; predict: auto's whole-run prediction for its choice\n",
      o.steps, o.rounds, o.repeats);
  if (csv) write_csv(*csv, rows);
  if (plot) write_plot(*plot, rows, "mdremap compare " + o.deck);
  return 0;
}

}  // namespace mdremap::cli

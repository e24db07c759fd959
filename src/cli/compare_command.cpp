// `mdremap compare DECK --modes ...`: the remap strategies side by side on the same system
// (BRIEF section 2, issue 3): one table, optionally a CSV and a gnuplot PNG bar chart.
#include "cli/compare_command.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>

#include "cli/numeric_flag.hpp"
#include "io/deck.hpp"
#include "io/paths.hpp"
#include "io/staged_file.hpp"
#include "md/params.hpp"
#include "md/simulation.hpp"
#include "mdremap/error.hpp"

namespace mdremap::cli {

void add_compare_command(CLI::App& app, CompareOptions& o) {
  auto* c = app.add_subcommand("compare", "Run remap strategies on the same system, side by side");
  c->add_option("deck", o.deck, "YAML deck (e.g. inputs/lj_bench.yaml)")->required();
  c->add_option("--modes", o.modes, "Comma list of gather,dup,padding,sharing,auto");
  c->add_option("--set", o.sets, "Override a deck key (repeatable)")->take_all();
  c->add_option("--precision", o.precision, "double | mixed | single")
      ->check(CLI::IsMember({"double", "mixed", "single"}));
  c->add_option("--csv", o.csv, "Write one row per mode and reorder to this CSV");
  c->add_option("--plot", o.plot, "Write a PNG bar chart (gnuplot) to this file");
  c->add_option("--steps", o.steps, "Measured MD steps per mode")
      ->check(number_in<int>(1, 1000000000, "INT >= 1"));
  c->add_option("--warmup", o.warmup, "Steps before measuring (auto profiles here)")
      ->check(number_in<int>(0, 1000000000, "INT >= 0"));
  c->add_option("--repeats", o.repeats, "Fenced force evaluations for the remap/compute split")
      ->check(number_in<int>(1, 1000000, "INT >= 1"));
  c->add_flag("--shuffle", o.shuffle, "Randomly permuted atom order (system.shuffle, no sort)");
  c->add_flag("--quiet,-q", o.quiet, "Print only the table");
  add_remap_flags(c, o.remap, false);
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

struct Row {
  std::string mode, reorder, strategy, note;
  double e_pair = std::numeric_limits<double>::quiet_NaN();
  std::int64_t tx32 = -1, tx128 = -1, extra = 0;
  double remap_ms = 0, compute_ms = 0, pipelined_ms = 0, overlap = 0, step_ms = 0, force_ms = 0;
  std::int64_t hits = 0, misses = 0, splits = 0;
  bool ok = true;
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
  f.reorder.clear();
  apply_remap_flags(f, deck);
  deck.apply_override("remap.mode=" + mode);
  deck.apply_override("remap.reorder=" + reorder);
  // Every mode on the same system: the full column-major list the strategies need.
  deck.apply_override("neighbor.list=full");
  deck.apply_override("neighbor.layout=column");
  return deck;
}

void fill_stats(Row& r, const md::RemapStats& rs, const md::RemapTiming& tm) {
  r.strategy = rs.report.strategy;
  if (rs.have_tx) {
    r.tx32 = rs.tx.seg32;
    r.tx128 = rs.tx.seg128;
  }
  r.extra = rs.report.extra_bytes;
  r.remap_ms = tm.remap_ms;
  r.compute_ms = tm.compute_ms;
  r.pipelined_ms = tm.pipelined_ms;
  r.overlap = tm.overlap;
  r.hits = rs.report.cache_hits;
  r.misses = rs.report.cache_misses;
  r.splits = rs.report.splits;
}

Row run_mode(const CompareOptions& o, const std::string& mode, const std::string& reorder,
             std::vector<std::string>& notes) {
  Row r;
  r.mode = mode;
  r.reorder = reorder;
  auto deck = make_deck(o, mode, reorder);
  const md::MdParams p = md::read_md_params(deck);
  auto engine = md::create_engine(p);
  const ThermoSample t0 = engine->setup();
  r.e_pair = t0.e_pair;
  if (o.warmup > 0) engine->run(o.warmup);
  const md::RunStats st = engine->run(o.steps);
  r.step_ms = 1e3 * st.loop_seconds / std::max<std::int64_t>(1, st.steps);
  r.force_ms = 1e3 * st.split.force / std::max<std::int64_t>(1, st.steps);
  fill_stats(r, engine->remap_stats(true), engine->measure_remap(o.repeats));
  const auto rep = engine->remap_stats(false).report;
  if (!rep.decision.empty()) notes.push_back(fmt::format("[{}] {}", reorder, rep.decision));
  if (rep.splits > 0) r.note = fmt::format("{} of {} blocks split", rep.splits, rep.blocks);
  if (rep.packed_elems > 0)
    r.note += fmt::format("{}packed {:.1f}% of dup's elements", r.note.empty() ? "" : "; ",
                          100.0 * rep.packed_elems / std::max<std::int64_t>(1, rep.dup_elems));
  return r;
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
  auto engine = md::create_engine(md::read_md_params(deck));
  engine->setup();
  for (const std::string m : {"gather", "padding"}) {
    const md::GatherReduceResult g = engine->gather_reduce_demo(m, o.repeats);
    Row r;
    r.mode = m + "[gather-reduce]";
    r.reorder = reorder;
    fill_stats(r, g.stats, g.timing);
    r.step_ms = g.timing.pipelined_ms;
    r.note = fmt::format("single-pattern kernel; max rel. diff vs gather {:.1e}", g.max_rel_err);
    if (m == "padding")
      r.note +=
          fmt::format("; {} holes, {} duplicates", g.stats.report.holes, g.stats.report.duplicates);
    rows.push_back(r);
  }
}

void write_csv(io::StagedFile& out, const std::vector<Row>& rows) {
  const std::string& path = out.target();
  {
    std::ofstream f(out.staging(), std::ios::app);  // emptied already; app: a device in place
    if (!f) throw Error("cannot write " + path);
    f << "mode,reorder,e_pair,transactions_32,transactions_128,extra_bytes,remap_ms,compute_ms,"
         "step_ms,strategy,pipelined_ms,overlap,force_ms,cache_hits,cache_misses,splits,note\n";
    for (const auto& r : rows) {
      auto q = [](const std::string& s) { return "\"" + s + "\""; };
      f << fmt::format(
          "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", r.mode, r.reorder,
          num(r.e_pair, "{:.10g}"), r.tx32 >= 0 ? std::to_string(r.tx32) : "",
          r.tx128 >= 0 ? std::to_string(r.tx128) : "", r.ok ? std::to_string(r.extra) : "",
          r.ok ? num(r.remap_ms, "{:.5f}") : "", r.ok ? num(r.compute_ms, "{:.5f}") : "",
          r.ok ? num(r.step_ms, "{:.5f}") : "", r.strategy,
          r.ok ? num(r.pipelined_ms, "{:.5f}") : "", r.ok ? num(r.overlap, "{:.3f}") : "",
          r.ok ? num(r.force_ms, "{:.5f}") : "", r.hits, r.misses, r.splits, q(r.note));
    }
  }
  out.commit();
}

void write_plot(io::StagedFile& out, const std::vector<Row>& rows, const std::string& title) {
  const std::string& path = out.target();
  const std::string dat = path + ".dat";
  {
    std::ofstream f(dat);
    f << "label remap compute step\n";
    for (const auto& r : rows)
      if (r.ok)
        f << fmt::format("\"{}/{}\" {} {} {}\n", r.mode, r.reorder, r.remap_ms, r.compute_ms,
                         r.step_ms);
  }
  const std::string script = fmt::format(
      "set terminal pngcairo size 1200,600 noenhanced; set output '{}';"
      "set title '{}'; set style data histograms; set style histogram clustered gap 1;"
      "set style fill solid 0.8 border -1; set ylabel 'ms'; set xtics rotate by -30;"
      "set key top left; set grid ytics;"
      "plot '{}' using 2:xtic(1) title 'remap (alone)', '' using 3 title 'compute (alone)',"
      "'' using 4 title 'step (MD loop / pipelined)'",
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
  const auto reorders = split(o.remap.reorder.empty() ? "none" : o.remap.reorder);
  if (modes.empty()) throw InputError("command line", 0, "--modes: give at least one mode");
  // Validate every mode and reorder name before any run.
  for (const auto& m : modes)
    for (const auto& r : reorders)
      md::read_md_params(*std::make_unique<io::Deck>(make_deck(o, m, r)));

  std::vector<Row> rows;
  std::vector<std::string> notes;
  for (const auto& r : reorders)
    for (const auto& m : modes) {
      if (!o.quiet) {
        fmt::print("# running {} / reorder {}\n", m, r);
        std::fflush(stdout);
      }
      if (m == "padding") {
        std::string why;
        try {
          run_mode(o, m, r, notes);
        } catch (const Error& e) {
          why = e.what();
        }
        if (why.empty()) throw Error("padding was expected to refuse the MD force kernel");
        run_padding(o, r, why, rows, notes);
        continue;
      }
      rows.push_back(run_mode(o, m, r, notes));
    }

  fmt::print("{:<24} {:<9} {:<14} {:>14} {:>12} {:>12} {:>10} {:>10} {:>10} {:>8} {:>10}  {}\n",
             "mode", "reorder", "strategy", "e_pair", "tx32", "tx128", "extra MB", "remap ms",
             "compute ms", "overlap", "step ms", "note");
  for (const auto& r : rows) {
    if (!r.ok) {
      fmt::print("{:<24} {:<9} {:<14} {}\n", r.mode, r.reorder, r.strategy, r.note);
      continue;
    }
    fmt::print(
        "{:<24} {:<9} {:<14} {:>14} {:>12} {:>12} {:>10.2f} {:>10.4f} {:>10.4f} {:>7.0f}% "
        "{:>10.4f}  {}\n",
        r.mode, r.reorder, r.strategy, num(r.e_pair, "{:.8f}"),
        r.tx32 >= 0 ? std::to_string(r.tx32) : "-", r.tx128 >= 0 ? std::to_string(r.tx128) : "-",
        r.extra / 1e6, r.remap_ms, r.compute_ms, 100 * r.overlap, r.step_ms, r.note);
  }
  // auto against the best measured mode of the same reorder (issue 3: within 5%).
  for (const auto& ro : reorders) {
    const Row* best = nullptr;
    const Row* au = nullptr;
    for (const auto& r : rows) {
      if (r.reorder != ro || !r.ok || r.mode.find('[') != std::string::npos) continue;
      if (r.mode == "auto")
        au = &r;
      else if (!best || r.step_ms < best->step_ms)
        best = &r;
    }
    if (au && best)
      fmt::print("[{}] auto ({}) step {:.4f} ms vs best {} {:.4f} ms: {:+.1f}%\n", ro, au->strategy,
                 au->step_ms, best->mode, best->step_ms,
                 100.0 * (au->step_ms / best->step_ms - 1.0));
  }
  for (const auto& n : notes) fmt::print("{}\n", n);
  fmt::print(
      "step ms: MD loop time per step (force + neighbour + integrate), median-free mean over "
      "{} steps after {} warm-up steps; remap/compute ms: medians of {} fenced evaluations; "
      "overlap: share of the remap time hidden by the stream pipeline\n",
      o.steps, o.warmup, o.repeats);
  if (csv) write_csv(*csv, rows);
  if (plot) write_plot(*plot, rows, "mdremap compare " + o.deck);
  return 0;
}

}  // namespace mdremap::cli

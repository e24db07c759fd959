// `mdremap compare DECK --modes ...`: the remap strategies side by side on the same system
// (BRIEF section 2; the runs: compare/runs.hpp). One table of medians over interleaved rounds,
// optionally a CSV and a gnuplot PNG (per mode, the run stacked into plan + profiling, remap,
// compute and the rest of the step).
#include "cli/compare_command.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/common.hpp"
#include "cli/numeric_flag.hpp"
#include "compare/runs.hpp"
#include "io/checked_write.hpp"
#include "io/deck.hpp"
#include "io/paths.hpp"
#include "io/staged_file.hpp"
#include "io/staged_output.hpp"
#include "mdremap/error.hpp"
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

std::string num(double v, const char* fmt_ = "{:.3f}") {
  return std::isnan(v) ? std::string("") : fmt::format(fmt::runtime(fmt_), v);
}

// The deck with the command line's overrides (compare::run adds each run's mode and reorder).
io::Deck user_deck(const CompareOptions& o) {
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
  return deck;
}

void write_csv(io::StagedFile& out, const std::vector<compare::Row>& rows) {
  io::write_staged(out, [&](std::ostream& f) {
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
  });
}

// The chart's gnuplot script: paths and title arrive as arguments (ARG1 the PNG, ARG2 the data,
// ARG3 the title), never as text of a command, so no file name is parsed by a shell or gnuplot.
constexpr const char* kPlotScript =
    "set terminal pngcairo size 1200,600 noenhanced\n"
    "set output ARG1\n"
    "set title ARG3 noenhanced\n"
    "set style data histograms\n"
    "set style histogram rowstacked\n"
    "set boxwidth 0.6\n"
    "set style fill solid 0.85 border -1\n"
    "set ylabel 'ms over the run'\n"
    "set xtics rotate by -30 noenhanced\n"
    "set key outside right top noenhanced\n"
    "set grid ytics\n"
    "set yrange [0:*]\n"
    "plot ARG2 using 2:xtic(1) title 'plan + profiling', '' using 3 title 'remap (exposed)', "
    "'' using 4 title 'compute', '' using 5 title 'neighbour + integrate + other'\n";

// A temporary file holding `text` (removed by the destructor).
class TempFile {
 public:
  TempFile(const std::string& stem, const std::string& text) {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/" + stem + "XXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0)
      throw Error("cannot create a temporary file in " + pattern.substr(0, pattern.rfind('/')));
    path_ = name.data();
    try {
      io::write_all(fd, text.data(), text.size(), "temporary file '" + path_ + "'");
    } catch (...) {
      ::close(fd);
      ::unlink(path_.c_str());
      throw;
    }
    ::close(fd);
  }
  ~TempFile() { ::unlink(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Runs gnuplot on `args` (no shell) and returns its exit status; its output (an error message)
// in `said`.
int run_gnuplot(const std::vector<std::string>& args, std::string& said) {
  int out[2];
  if (::pipe(out) != 0) throw Error("cannot run gnuplot: no pipe");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, out[1], 2);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  if (spawned != 0) {
    ::close(out[0]);
    return -1;
  }
  char buf[4096];
  for (ssize_t n; (n = ::read(out[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    if (said.size() < 65536) said.append(buf, static_cast<std::size_t>(n));
  }
  ::close(out[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Per mode one stacked bar of its whole run (median round): plan + profiling, exposed remap,
// compute, and the rest of the step (neighbour lists, integration).
void write_plot(io::StagedFile& out, const std::vector<compare::Row>& rows,
                const std::string& title) {
  const std::string& path = out.target();
  // The column names as a comment: gnuplot reads no data from it.
  std::string data = "# label plan remap compute other\n";
  for (const auto& r : rows)
    if (r.ok && !r.demo)
      data += fmt::format("\"{}/{}\" {} {} {} {}\n", r.mode, r.reorder, r.seg_plan, r.seg_remap,
                          r.seg_compute, r.seg_other);
  const TempFile dat("mdremap-plot-data-", data);
  const TempFile script("mdremap-plot-script-", kPlotScript);
  std::string said;
  const int rc =
      run_gnuplot({"gnuplot", "-c", script.path(), out.staging(), dat.path(), title}, said);
  if (rc == -1)
    throw Error("cannot write " + path +
                ": gnuplot is not installed (apt-get install gnuplot-nox)");
  if (rc != 0) {
    // gnuplot's first line that says something, cut (it can quote the script).
    std::string first;
    for (std::size_t b = 0; b < said.size() && first.empty();) {
      const std::size_t e = std::min(said.find('\n', b), said.size());
      first = said.substr(b, e - b);
      if (first.find_first_not_of(" \t^") == std::string::npos) first.clear();
      b = e + 1;
    }
    if (first.size() > 200) first = first.substr(0, 200) + "...";
    throw Error("cannot write " + path + ": gnuplot failed (exit " + std::to_string(rc) + ")" +
                (first.empty() ? "" : ": " + first));
  }
  out.commit();
}

// --csv and --plot: checked, kept apart from the deck and each other, and locked before any run.
std::unique_ptr<io::StagedFile> open_output(const std::string& flag, const std::string& path) {
  if (path.empty()) return nullptr;
  check_output(flag, path);
  try {
    return std::make_unique<io::StagedFile>(path);
  } catch (const Error& e) {
    throw InputError(flag, 0, e.what());
  }
}

void print_table(const std::vector<compare::Row>& rows) {
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
}

// auto against the best fixed mode of the same reorder, on whole-run time.
void print_auto_against_best(const std::vector<compare::Row>& rows,
                             const std::vector<std::string>& reorders) {
  for (const auto& ro : reorders) {
    const compare::Row* best = nullptr;
    const compare::Row* au = nullptr;
    for (const auto& r : rows) {
      if (r.reorder != ro || !r.ok || r.demo) continue;
      if (r.chooses)
        au = &r;
      else if (!best || r.med.run_ms < best->med.run_ms)
        best = &r;
    }
    if (au && best)
      fmt::print("[{}] auto ({}) run {:.1f} ms vs best fixed mode {} {:.1f} ms: {:+.1f}%\n", ro,
                 au->strategy, au->med.run_ms, best->mode, best->med.run_ms,
                 100.0 * (au->med.run_ms / best->med.run_ms - 1.0));
  }
}

}  // namespace

int run_compare(const CompareOptions& o) {
  io::check_outputs(
      {{"the deck", o.deck, false, ""}, {"--csv", o.csv, true, ""}, {"--plot", o.plot, true, ""}});
  const auto csv = open_output("--csv", o.csv);
  const auto plot = open_output("--plot", o.plot);
  compare::Plan plan;
  plan.modes = split(o.modes);
  plan.reorders = split(o.remap.value("reorder").empty() ? "none" : o.remap.value("reorder"));
  if (plan.modes.empty()) throw InputError("command line", 0, "--modes: give at least one mode");
  plan.steps = o.steps;
  plan.rounds = o.rounds;
  plan.repeats = o.repeats;
  plan.deck = [&] { return user_deck(o); };
  plan.before_run = [&](int round, const compare::Row& row) {
    if (o.quiet) return;
    fmt::print("# round {}/{}: {} / reorder {}\n", round, o.rounds, row.mode, row.reorder);
    std::fflush(stdout);
  };
  compare::Results res = compare::run(plan);
  const std::vector<compare::Row>& rows = res.rows;
  std::vector<std::string>& notes = res.notes;
  print_table(rows);
  print_auto_against_best(rows, plan.reorders);
  for (const auto& r : rows)
    if (r.chooses && !r.note.empty()) notes.push_back(fmt::format("[{}] {}", r.reorder, r.note));
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

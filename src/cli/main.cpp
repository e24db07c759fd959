// mdremap: Lennard-Jones MD on Kokkos with the remap strategies of five GPU papers.
// Errors are exceptions with a message a user can act on, caught once here (STYLE.md).
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <H5Epublic.h>

#include <Kokkos_Core.hpp>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "cli/cg_command.hpp"
#include "cli/common.hpp"
#include "cli/compare_command.hpp"
#include "cli/device_choice.hpp"
#include "cli/info_command.hpp"
#include "cli/md_command.hpp"
#include "cli/run_log.hpp"
#include "cli/sp_command.hpp"
#include "comm/runtime.hpp"
#include "io/deck.hpp"
#include "io/paths.hpp"
#include "mdremap/error.hpp"

namespace {

// Rejects unknown flags before CLI11 does, naming the nearest valid flag of that subcommand.
void check_flags(CLI::App& app, int argc, char** argv) {
  CLI::App* cmd = &app;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") break;
    if (a.rfind("-", 0) != 0 || a == "-") {
      if (cmd == &app) {
        try {
          cmd = app.get_subcommand(a);
        } catch (const CLI::OptionNotFound&) {
          std::vector<std::string> names;
          for (auto* s : app.get_subcommands({})) names.push_back(s->get_name());
          std::string near = mdremap::io::nearest(a, names);
          throw mdremap::InputError("command line", 0,
                                    fmt::format("unknown subcommand '{}'{}", a,
                                                near.empty() ? " (see mdremap --help)"
                                                             : " (did you mean '" + near + "'?)"));
        }
      }
      continue;
    }
    if (a.rfind("--kokkos", 0) == 0) continue;
    // A negative number is a flag's value (`--steps -5`, refused by its range), not an option.
    if (a.size() > 1 && (std::isdigit(static_cast<unsigned char>(a[1])) || a[1] == '.')) continue;
    const std::string name = a.substr(0, a.find('='));
    std::vector<std::string> valid;
    bool found = false;
    for (auto* opt : cmd->get_options()) {
      for (const auto& l : opt->get_lnames()) {
        valid.push_back("--" + l);
        found |= name == "--" + l;
      }
      for (const auto& s : opt->get_snames()) {
        valid.push_back("-" + s);
        found |= name == "-" + s;
      }
    }
    if (!found) {
      const std::string near = mdremap::io::nearest(name, valid);
      throw mdremap::InputError("command line", 0,
                                fmt::format("unknown option '{}' for '{}'{}", name,
                                            cmd->get_name().empty() ? "mdremap" : cmd->get_name(),
                                            near.empty() ? "" : " (did you mean '" + near + "'?)"));
    }
  }
}

// One line on stderr. In a run of several MPI ranks every rank meets an error of its input at
// the same point: rank 0 alone prints it.
int report(const std::string& message, int code) {
  if (mdremap::comm::rank() == 0)
    fmt::print(stderr, "mdremap: error: {}\n", mdremap::printable_message(message));
  return code;
}

// An error only this rank met (the others may be waiting for it in a collective): it prints it,
// naming itself, and ends the run on every rank.
[[noreturn]] void fail_alone(const std::string& message, int code) {
  fmt::print(stderr, "mdremap: error (MPI rank {} of {}): {}\n", mdremap::comm::rank(),
             mdremap::comm::size(), mdremap::printable_message(message));
  mdremap::comm::abort(code);
}

// CLI11's messages can span lines; ours are one.
std::string one_line(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  for (auto& c : s)
    if (c == '\n') c = ' ';
  return s;
}

// A run's exit code with its log closed: a log that could not be written fails the run (exit 1).
int logged(int rc) {
  const std::string problem = mdremap::cli::finish_log();
  if (problem.empty()) return rc;
  fmt::print(stderr, "mdremap: error: {}\n", problem);
  return rc == 0 ? 1 : rc;
}

// The files a command names on its command line, as inputs and outputs, beside --log FILE: the log
// replaces none of them.
void check_log_path(const std::string& log, const CLI::App& app, const mdremap::cli::MdOptions& md,
                    const mdremap::cli::CompareOptions& cmp,
                    const mdremap::cli::CgCommandOptions& cg, const mdremap::cli::SpOptions& sp) {
  using mdremap::io::PathUse;
  std::vector<PathUse> uses;
  auto in = [&](const char* role, const std::string& p) {
    if (!p.empty()) uses.push_back({role, p, false, ""});
  };
  auto out = [&](const char* role, const std::string& p) {
    if (!p.empty()) uses.push_back({role, p, true, ""});
  };
  if (app.got_subcommand("md")) {
    in("the deck", md.deck), in("--restart", md.restart);
    out("--summary", md.summary), out("--thermo-csv", md.thermo_csv);
  } else if (app.got_subcommand("compare")) {
    in("the deck", cmp.deck), out("--csv", cmp.csv), out("--plot", cmp.plot);
  } else if (app.got_subcommand("cg")) {
    in("the deck", cg.deck), in("--matrix", cg.matrix), in("--rhs", cg.rhs);
    in("--solution", cg.solution), out("--summary", cg.summary);
    out("--write-matrix", cg.write_matrix);
  } else if (app.got_subcommand("sp")) {
    in("the deck", sp.deck), in("--cnf", sp.cnf), out("--summary", sp.summary);
    out("--assignment-out", sp.assignment_out), out("--write-cnf", sp.write_cnf);
  }
  uses.push_back({"--log", log, true, ""});
  mdremap::io::check_distinct(uses);
}

}  // namespace

int main(int argc, char** argv) {
  // MPI first (under mpirun only: comm/runtime.hpp), finalised last. Only rank 0 prints.
  mdremap::comm::Session mpi(argc, argv);
  if (mdremap::comm::rank() != 0 && !std::freopen("/dev/null", "w", stdout))
    mdremap::comm::abort(1);
  CLI::App app{"mdremap: Lennard-Jones MD with GPU data-remapping strategies"};
  app.require_subcommand(1);
  app.set_version_flag("--version", MDREMAP_VERSION);
  mdremap::cli::MdOptions md_opts;
  mdremap::cli::add_md_command(app, md_opts);
  mdremap::cli::MdOptions minimize_opts;
  mdremap::cli::add_minimize_command(app, minimize_opts);
  mdremap::cli::CompareOptions compare_opts;
  mdremap::cli::add_compare_command(app, compare_opts);
  mdremap::cli::CgCommandOptions cg_opts;
  mdremap::cli::add_cg_command(app, cg_opts);
  mdremap::cli::SpOptions sp_opts;
  mdremap::cli::add_sp_command(app, sp_opts);
  mdremap::cli::InfoOptions info_opts;
  mdremap::cli::add_info_command(app, info_opts);
  std::string device_spec;
  for (auto* sub : app.get_subcommands({}))
    sub->add_option("--device", device_spec,
                    "GPU to run on: an id from `mdremap info` (default: KOKKOS_DEVICE_ID, or "
                    "under mpirun the node-local rank); a comma list gives node-local rank r "
                    "entry r of the list");
  // The run commands' log and verbosity (cli/run_log.hpp).
  std::string log_path;
  bool verbose = false;
  for (auto* sub : app.get_subcommands({})) {
    if (sub->get_name() == "info") continue;
    sub->add_option("--log", log_path,
                    fmt::format("Copy everything the run prints into this file, after the command "
                                "line and the build (default: appended to {} in the working "
                                "directory; `none`: no log)",
                                mdremap::cli::kDefaultLog));
    sub->add_flag("--verbose,-v", verbose,
                  "Also print the resolved deck and the choices made at set-up");
  }

  // No HDF5 clean-up at exit (before any other HDF5 call): every file is closed by its writer,
  // and a file whose flush failed on a full disk cannot be closed; HDF5's exit handler crashed
  // closing it again. Its staging file stays as the partial output.
  H5dont_atexit();
  // HDF5 prints its error stack to stderr by default; every HDF5 failure becomes one line of
  // ours instead.
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  try {
    check_flags(app, argc, argv);
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Every other command-line problem is bad input: exit 2, one line, the flag named.
    return report(one_line(e.what()), 2);
  } catch (const mdremap::Error& e) {
    return report(e.what(), 2);
  }
  auto settings = Kokkos::InitializationSettings().set_disable_warnings(true);
  if (!device_spec.empty()) {
    try {
      settings.set_device_id(
          mdremap::cli::choose_device(device_spec, mdremap::cli::local_rank_from_environment()));
    } catch (const mdremap::Error& e) {
      return report(e.what(), 2);
    }
  }

  // Thread binding for OpenMP unless the user chose one (also silences Kokkos' warning).
  setenv("OMP_PROC_BIND", "spread", 0);
  setenv("OMP_PLACES", "threads", 0);
  Kokkos::ScopeGuard kokkos(settings);
  struct LogGuard {
    ~LogGuard() { mdremap::cli::finish_log(); }
  } log_guard;
  try {
    const bool run_command = !app.got_subcommand("info");
    const bool quiet = (app.got_subcommand("md") && md_opts.quiet) ||
                       (app.got_subcommand("compare") && compare_opts.quiet) ||
                       (app.got_subcommand("cg") && cg_opts.quiet) ||
                       (app.got_subcommand("sp") && sp_opts.quiet);
    if (quiet && verbose)
      throw mdremap::InputError("command line", 0, "--quiet and --verbose both given");
    mdremap::cli::set_verbosity(quiet     ? mdremap::cli::Verbosity::quiet
                                : verbose ? mdremap::cli::Verbosity::verbose
                                          : mdremap::cli::Verbosity::normal);
    if (run_command && log_path != "none" && mdremap::comm::rank() == 0) {
      std::vector<std::string> args(argv, argv + argc);
      if (log_path.empty()) {
        try {
          mdremap::cli::start_log(mdremap::cli::kDefaultLog, true, args,
                                  mdremap::cli::build_info().dump());
        } catch (const mdremap::Error& e) {
          fmt::print(stderr, "note: no log: {} (--log FILE names another, --log none: none)\n",
                     e.what());
        }
      } else {
        mdremap::cli::check_output("--log", log_path);
        check_log_path(log_path, app, md_opts, compare_opts, cg_opts, sp_opts);
        try {
          mdremap::cli::start_log(log_path, false, args, mdremap::cli::build_info().dump());
        } catch (const mdremap::Error& e) {
          throw mdremap::InputError("--log", 0, e.what());
        }
      }
    }
    if (mdremap::comm::size() > 1 && !app.got_subcommand("md") && !app.got_subcommand("info"))
      throw mdremap::comm::CollectiveError(
          fmt::format("only `mdremap md` runs on several MPI ranks; start `mdremap {}` without "
                      "mpirun (or with -np 1)",
                      app.get_subcommands().front()->get_name()),
          2);
    if (app.got_subcommand("md")) return logged(mdremap::cli::run_md(md_opts));
    if (app.got_subcommand("minimize")) return logged(mdremap::cli::run_md(minimize_opts));
    if (app.got_subcommand("compare")) return logged(mdremap::cli::run_compare(compare_opts));
    if (app.got_subcommand("cg")) return logged(mdremap::cli::run_cg(cg_opts));
    if (app.got_subcommand("sp")) return logged(mdremap::cli::run_sp(sp_opts));
    if (app.got_subcommand("info")) return mdremap::cli::run_info(info_opts);
  } catch (const mdremap::comm::CollectiveError& e) {
    return report(e.what(), e.exit_code());
  } catch (const mdremap::InputError& e) {
    if (mdremap::comm::size() > 1) fail_alone(e.what(), 2);
    fmt::print(stderr, "mdremap: error: {}\n", mdremap::printable_message(e.what()));
    return 2;
  } catch (const std::bad_alloc&) {
    const char* what = "out of memory (std::bad_alloc): the system is too large for this machine";
    if (mdremap::comm::size() > 1) fail_alone(what, 1);
    fmt::print(stderr, "mdremap: error: {}\n", what);
    return 1;
  } catch (const std::exception& e) {
    if (mdremap::comm::size() > 1) fail_alone(e.what(), 1);
    fmt::print(stderr, "mdremap: error: {}\n", mdremap::printable_message(e.what()));
    return 1;
  }
  return 0;
}

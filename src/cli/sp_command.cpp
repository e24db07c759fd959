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

void add_sp_command(CLI::App& app, SpOptions& o) {
  auto* sp = app.add_subcommand(
      "sp", "Survey propagation (SP-guided decimation + WalkSAT) for k-SAT from a YAML deck");
  sp->add_option("deck", o.deck, "YAML deck (e.g. inputs/sp_random3sat.yaml)")->required();
  sp->add_option("--cnf", o.cnf,
                 "Formula to solve: a DIMACS CNF file or random-CLAUSES-VARIABLES-K (overrides "
                 "formula.source)");
  sp->add_option("--set", o.sets, "Override a deck key: --set sp.fraction=0.02 (repeatable)")
      ->take_all();
  sp->add_option("--remap", o.remap,
                 "How calc_pi_values' two-level reference is served: " + remap::strategy_list() +
                     " (remap.mode; padding does not apply)");
  sp->add_option("--reorder", o.reorder,
                 "Edge (thread) order: none | variable | labelprop | partition (remap.reorder)");
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

}  // namespace mdremap::cli

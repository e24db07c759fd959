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

}  // namespace mdremap::cli

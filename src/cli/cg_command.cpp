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
  cg->add_option("--remap", o.remap,
                 "Remap strategy serving the SpMV's x[col[rowptr[t]+j]] (csr-thread): " +
                     remap::strategy_list() + " (remap.mode)");
  cg->add_option("--schedule", o.schedule,
                 "throttle: cf | cf-q | sj | sj-q (seed 002 §3; remap.schedule)");
  cg->add_option("--reorder", o.reorder,
                 "Symmetric row reordering: none | labelprop (on the device) | labelprop-host | "
                 "partition (before the solve) | auto (where the order is scattered: labelprop "
                 "before the solve with a named kernel, or when auto finds it pays, at, before "
                 "or after its decision point; the default of --remap auto) (remap.reorder)");
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

}  // namespace mdremap::cli

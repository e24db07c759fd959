#pragma once
#include <string>
#include <vector>

#include "cli/remap_flags.hpp"

namespace CLI {
class App;
}

namespace mdremap::cli {

struct CgCommandOptions {
  std::string deck;
  std::vector<std::string> sets;
  std::string matrix, rhs, solution;  // Matrix Market files (override the deck)
  std::string spmv;                   // spmv.kernel
  RemapFlags remap;                   // --remap, --reorder and the strategies' flags
  std::string backend;
  std::string summary;
  std::string write_matrix;  // the matrix as solved (after any permutation), Matrix Market
  std::string write_npy;     // PREFIX for the system as .npy files (tools/cg_cupy.py)
  bool quiet = false;
};

// Exit codes: 0 converged, 1 runtime failure, 2 bad input, 3 the solve did not converge
// (iteration limit, breakdown or non-finite values).
constexpr int kExitNotConverged = 3;

void add_cg_command(CLI::App& app, CgCommandOptions& o);
int run_cg(const CgCommandOptions& o);

}  // namespace mdremap::cli

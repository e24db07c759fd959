#pragma once
// Everything a CG run reads from its deck (BRIEF section 6), validated with the strict deck
// reader: unknown keys name the nearest valid one, every value is echoed in the resolved deck.
//
//   matrix:   generator (see cg/generators.hpp) or file (Matrix Market); dims, shift, rows,
//             bandwidth, density, seed (the generator's own); permute, permute_seed
//   rhs:      file (b as a Matrix Market array; default b = A x*)
//   solution: file (x*, to report the error), or kind random|ones and seed (generated x*)
//   solver:   tolerance, max_iterations, preconditioner none|jacobi, repeats (solves timed; the
//             median is reported), wait_each_iteration, defer_x (cg/solver.hpp)
//   spmv:     kernel csr-thread|csr-warp|sell|cusparse|auto, vector_length (csr-warp lanes,
//             0 = auto), timing_repeats (SpMVs timed after the solve), transactions (model them:
//             true), fused_dots, sell_fused_dots, warm_up (cg/warm_up.hpp: true), sell_sigma,
//             sell_diagonals (cg/sell_spmv.hpp)
//   remap:    the layer's keys (mdremap/remap/remap_deck.hpp: mode, reorder and every
//             strategy's keys; remap_app() below says which CG serves), and decide_after (auto:
//             iterations of the solve before it decides; 0 = before the solve)
#include <cstdint>
#include <string>

#include "cg/generators.hpp"
#include "cg/solver.hpp"
#include "cg/spmv.hpp"
#include "io/deck.hpp"
#include "mdremap/remap/remap_deck.hpp"

namespace mdremap::cg {

// What CG serves of the remap layer: one chunk and a 5% exploration budget by default, its row
// reorders (labelprop on the device or the host, partition, auto), no index compression, lanes
// or overlapped plans (its SpMV body walks no rows in order and plans once).
const remap::RemapApp& remap_app();

struct CgParams {
  std::string matrix_file;  // empty: generated
  GeneratorSpec gen;        // gen.name empty: from a file
  bool permute = false;
  std::uint64_t permute_seed = 1;
  std::string rhs_file;
  std::string solution_file;
  std::string solution_kind = "random";
  std::uint64_t solution_seed = 7;
  CgOptions solver;
  SpmvOptions spmv;
  int timing_repeats = 20;
  int solve_repeats = 1;
  bool transactions = true;
  bool warm_up = true;  // spmv.warm_up: the kernels' first launches beside the matrix's set-up
  // The deck's remap section: the reorder (a symmetric permutation of the system before the
  // solve) and partition_bytes are read from here; spmv.remap and spmv.remap_opt are the SpMV's
  // copy of its mode and options.
  remap::RemapSettings remap = remap_app().defaults;
};

CgParams read_cg_params(io::Deck& deck);

}  // namespace mdremap::cg

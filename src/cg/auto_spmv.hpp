#pragma once
// CG's `auto` over kernels as well as remap strategies (`spmv.kernel: auto`, what `--remap auto`
// means unless a kernel is named). BRIEF section 5 `auto`: seed 001 §4's online profiling of the
// first iterations of each candidate, G-Streamline style, on the solve's own iterations: sell
// from the first, then csr-warp, the gather (a thread per row, through the layer) and, in CUDA
// builds, cuSPARSE from half way to the decision point, each where the exploration budget
// covers it, run 1 + profile_steps real CG iterations, timed in the loop the solve runs (marks
// in the stream on a GPU); after `decide_after` iterations the remap layer's
// auto gets those measurements (cuSPARSE and csr-warp as alternatives outside the layer) and the
// iterations it expects to remain, screens and profiles its own strategies (dup, sharing,
// throttle) against the best measured time within the exploration budget (on extra SpMVs of a
// ones vector, as it profiles), and chooses; the solve goes on with the choice. The kernels'
// profiling is the solve itself (with decide_after 0: SpMVs of a ones vector before the solve).
#include <memory>
#include <string>
#include <vector>

#include "cg/spmv.hpp"

namespace mdremap::cg {

std::unique_ptr<CgSpmv> make_auto_spmv(const DeviceCsr& a, const SpmvOptions& o);

// The kernels auto measures, in its order, as SpmvOptions::kernel names (its gather is
// csr-thread), cuSPARSE only in builds that have it; the warm-up launches the same.
std::vector<std::string> auto_candidate_kernels();

}  // namespace mdremap::cg

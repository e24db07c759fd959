#pragma once
// The linear system a CG run solves, built on the host from its parameters: the matrix
// (generated or read, optionally symmetrically permuted: the papers' irregular setting), the
// right-hand side, and the known solution x* where there is one (so the error is reported, not
// only the residual).
#include <cstdint>
#include <string>
#include <vector>

#include "cg/csr.hpp"
#include "cg/params.hpp"

namespace mdremap::cg {

struct LinearSystem {
  HostCsr a;
  std::vector<double> b;
  std::vector<double> xstar;          // empty: unknown (b read from a file without --solution)
  std::vector<std::int32_t> natural;  // old (natural) row of each row; empty: not permuted
  std::string source;                 // "generator NAME" or "file PATH"
  double matrix_seconds = 0;          // generating or reading (and permuting) the matrix
  double reorder_seconds = 0;         // remap.reorder: planning and applying it (host or device)
};

// Reads or generates everything (the system as the deck defines it: remap.reorder is not applied);
// bad files are InputErrors naming file and line.
LinearSystem build_system(const CgParams& p);

// remap.reorder's host orders (partition, labelprop-host) applied to the system, timed in
// reorder_seconds; false (nothing done) for none, and for labelprop and auto, which run on the
// device (cg/device_reorder.hpp).
bool reorder_on_host(LinearSystem& s, const CgParams& p);

// x*_i for natural row i: uniform in [-1, 1) from (seed, i), or 1.
double generated_solution(const std::string& kind, std::uint64_t seed, std::int64_t natural_row);

}  // namespace mdremap::cg

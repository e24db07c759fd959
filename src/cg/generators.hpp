#pragma once
// Sparse SPD test matrices by name (BRIEF section 6), and stand-ins for the papers' matrices
// (seed 000 Table 7; the SuiteSparse files are not available offline, the reader takes them).
//
// Every generated matrix is symmetric with positive diagonal and irreducibly diagonally dominant
// (stencil Laplacians keep the full stencil's diagonal at the boundary = Dirichlet), hence SPD.
// Off-diagonals are -1 (banded: random in [-1, -0.1]); `shift` is added to the diagonal.
//
//   laplace2d    dims [nx, ny]       2D 5-point Laplacian
//   laplace3d    dims [nx, ny, nz]   3D 7-point Laplacian
//   laplace3d27  dims [nx, ny, nz]   3D 27-point Laplacian (every neighbour of the 3x3x3 cube)
//   tri2d        dims [nx, ny]       2D triangular mesh (each square cut along its diagonal):
//                                    7 entries a row, the P1 finite-element graph
//   banded       rows, bandwidth, density, seed: random SPD band, entry (i, i+k), 0 < k <=
//                bandwidth, present with probability `density`; diagonal = row sum of |a_ij| +
//                shift (shift > 0 required: strictly dominant)
// Stand-ins (fixed sizes; seed 000 Table 7, rows and average entries a row from SuiteSparse):
//   offshore       259,789 rows, 16.3/row, 3D FEM  -> tet4 (Kuhn-subdivided cube) 15-point
//                  stencil on the first 259,789 points of a 64^3 grid, plus one random coupling
//                  per point to a point within distance 2 (seeded; dropped where the stencil has
//                  it), for the irregular row lengths of an unstructured mesh
//   parabolic_fem  525,825 rows, 7.0/row, 2D FEM    -> tri2d 675 x 779 (exactly 525,825 rows)
//   apache2        715,176 rows, 6.7/row, 3D FD     -> laplace3d 84 x 86 x 99 (exactly 715,176)
//   ecology2       999,999 rows, 5.0/row, 2D grid   -> laplace2d 999 x 1001 (exactly 999,999)
//   large          laplace3d 256^3 = 16,777,216 rows: the vector (128 MiB) exceeds any L2
#include <cstdint>
#include <string>
#include <vector>

#include "cg/csr.hpp"

namespace mdremap::cg {

struct GeneratorSpec {
  std::string name;
  std::vector<std::int64_t> dims;  // grid generators
  double shift = 0.0;              // added to the diagonal
  std::int64_t rows = 0;           // banded
  std::int64_t bandwidth = 0;      // banded
  double density = 1.0;            // banded
  std::uint64_t seed = 1;          // banded, offshore's extra couplings
};

struct GeneratorInfo {
  std::string name;
  int dims;           // grid dimensions taken (0: none)
  bool banded;        // takes rows / bandwidth / density / seed
  bool seeded;        // takes seed
  std::string about;  // one line for --help and messages
};

const std::vector<GeneratorInfo>& generator_list();
const GeneratorInfo* find_generator(const std::string& name);

// Builds the matrix; throws mdremap::Error naming the bad parameter.
HostCsr generate(const GeneratorSpec& spec);

// A bound on how far any entry of the generated matrix lies from its row, |column - row|, in
// the generator's own numbering (the stencil offsets' farthest linear distance: exact where
// every axis has room for the offsets), known before the matrix is built; -1 where the spec is
// not valid (generate refuses it).
std::int64_t natural_reach(const GeneratorSpec& spec);

}  // namespace mdremap::cg

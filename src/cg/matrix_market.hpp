#pragma once
// Matrix Market (NIST exchange format) reading and writing for the CG mini-app (BRIEF section 6).
// Read: `coordinate` real | integer | pattern, general | symmetric (lower triangle, mirrored),
// 1-based, duplicates summed, comments and blank lines; `array` (column-major, for vectors).
// Anything malformed is an mdremap::InputError "FILE:LINE: problem"; the reader never allocates
// more than the input's own size, so a lying size line cannot exhaust memory.
#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "cg/csr.hpp"

namespace mdremap::cg {

struct MatrixMarket {
  std::string name;      // file name for messages
  std::string format;    // coordinate | array
  std::string field;     // real | integer | pattern
  std::string symmetry;  // general | symmetric
  std::int64_t rows = 0, cols = 0;
  std::int64_t declared = 0;  // entries the size line announced
  int size_line = 0;          // line of the size line (messages about the whole matrix)
  // coordinate: the entries as stored (0-based; symmetric files: the lower triangle only), with
  // the line each came from.
  std::vector<std::int32_t> row, col;
  std::vector<double> val;
  std::vector<std::int64_t> line;
  // array: values in column-major order (symmetric arrays expanded to the full matrix).
  std::vector<double> dense;

  bool symmetric() const { return symmetry == "symmetric"; }
};

// Parses a whole Matrix Market stream; `name` is used in messages (and is all a fuzzer needs).
MatrixMarket read_matrix_market(std::istream& in, const std::string& name);
MatrixMarket read_matrix_market_file(const std::string& path);

// The coordinate matrix as CSR: symmetric entries mirrored, duplicates summed.
HostCsr to_csr(const MatrixMarket& m);

// What CG accepts (each refusal names the file and the line to look at): coordinate format, a
// square matrix, symmetric (a general file is checked entry by entry, to 1e-12 relative), and
// every diagonal entry positive (necessary for positive definiteness and for Jacobi).
HostCsr cg_matrix(const MatrixMarket& m);
HostCsr read_cg_matrix(std::istream& in, const std::string& name);
HostCsr read_cg_matrix_file(const std::string& path);

// A vector of `n` entries: an `array` file with one column (or a coordinate file n x 1, absent
// entries zero).
std::vector<double> to_vector(const MatrixMarket& m, std::int64_t n);
std::vector<double> read_vector_file(const std::string& path, std::int64_t n);

// Writers: values in their shortest exact decimal form, so a write-read round trip is
// bit-identical. `symmetric` writes the lower triangle of a matrix the caller knows is symmetric.
void write_matrix_market(std::ostream& out, const HostCsr& a, bool symmetric,
                         const std::string& comment = "");
void write_vector(std::ostream& out, const std::vector<double>& v, const std::string& comment = "");

}  // namespace mdremap::cg

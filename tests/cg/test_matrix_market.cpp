// Matrix Market reading and writing (BRIEF section 6, section 8 "bad input"): what the reader
// accepts, a bit-identical round trip, and every malformed case refused with its line.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "cg/csr.hpp"
#include "cg/matrix_market.hpp"
#include "mdremap/error.hpp"

namespace mdremap::cg {
namespace {

MatrixMarket parse(const std::string& text) {
  std::istringstream in(text);
  return read_matrix_market(in, "m.mtx");
}

HostCsr parse_cg(const std::string& text) {
  std::istringstream in(text);
  return read_cg_matrix(in, "m.mtx");
}

// A random symmetric matrix with values of every magnitude (exercises the shortest-form writer).
HostCsr random_symmetric(std::int64_t n, std::uint64_t seed) {
  std::vector<std::int32_t> r, c;
  std::vector<double> v;
  for (std::int64_t i = 0; i < n; ++i) {
    r.push_back(static_cast<std::int32_t>(i));
    c.push_back(static_cast<std::int32_t>(i));
    v.push_back(10.0 + unit(mix(seed, i, 99)));
    for (int k = 0; k < 3; ++k) {
      const auto j = static_cast<std::int64_t>(mix(seed, i, k) % n);
      if (j == i) continue;
      const double x = (unit(mix(seed, i, k + 10)) - 0.5) *
                       std::pow(10.0, static_cast<int>(mix(seed, i, k + 20) % 40) - 20);
      r.push_back(static_cast<std::int32_t>(i));
      c.push_back(static_cast<std::int32_t>(j));
      v.push_back(x);
      r.push_back(static_cast<std::int32_t>(j));
      c.push_back(static_cast<std::int32_t>(i));
      v.push_back(x);
    }
  }
  return coo_to_csr(n, n, r, c, v);
}

void expect_same(const HostCsr& a, const HostCsr& b) {
  ASSERT_EQ(a.rows, b.rows);
  ASSERT_EQ(a.cols, b.cols);
  ASSERT_EQ(a.rowptr, b.rowptr);
  ASSERT_EQ(a.col, b.col);
  ASSERT_EQ(a.val.size(), b.val.size());
  for (std::size_t k = 0; k < a.val.size(); ++k) ASSERT_EQ(a.val[k], b.val[k]) << "entry " << k;
}

TEST(MatrixMarket, RoundTripGeneralAndSymmetricIsBitIdentical) {
  const HostCsr a = random_symmetric(200, 7);
  ASSERT_FALSE(find_asymmetry(a).found);
  for (bool sym : {false, true}) {
    std::stringstream s;
    write_matrix_market(s, a, sym, "test");
    const MatrixMarket m = read_matrix_market(s, "rt.mtx");
    EXPECT_EQ(m.symmetry, sym ? "symmetric" : "general");
    expect_same(a, to_csr(m));
  }
}

TEST(MatrixMarket, VectorRoundTrip) {
  std::vector<double> v;
  for (int i = 0; i < 50; ++i) v.push_back((unit(mix(3, i)) - 0.5) * std::pow(10.0, i % 30 - 15));
  std::stringstream s;
  write_vector(s, v);
  const auto back = to_vector(read_matrix_market(s, "v.mtx"), 50);
  ASSERT_EQ(back.size(), v.size());
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_EQ(back[i], v[i]);
}

TEST(MatrixMarket, ReadsCommentsBlankLinesMirrorsAndSumsDuplicates) {
  const std::string text =
      "%%matrixmarket MATRIX Coordinate Real Symmetric\r\n"
      "% a comment\n"
      "\n"
      "3 3 5\n"
      "1 1 4.0\n"
      "2 1 -1\n"
      "\n"
      "2 2 +4e0\n"
      "3 3 4\n"
      "3 1 -0.5\n";
  const HostCsr a = to_csr(parse(text));
  EXPECT_EQ(a.rows, 3);
  EXPECT_EQ(a.nnz(), 7);
  EXPECT_EQ(a.at(0, 1), -1.0);
  EXPECT_EQ(a.at(1, 0), -1.0);  // mirrored
  EXPECT_EQ(a.at(0, 2), -0.5);
  EXPECT_EQ(a.at(1, 1), 4.0);
  const HostCsr d =
      to_csr(parse("%%MatrixMarket matrix coordinate integer general\n2 2 3\n"
                   "1 1 2\n1 1 3\n2 2 -7\n"));
  EXPECT_EQ(d.nnz(), 2);
  EXPECT_EQ(d.at(0, 0), 5.0);  // duplicates summed
  EXPECT_EQ(d.at(1, 1), -7.0);
  const HostCsr p =
      to_csr(parse("%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n"
                   "1 1\n2 1\n"));
  EXPECT_EQ(p.at(0, 1), 1.0);
  EXPECT_EQ(p.at(1, 0), 1.0);
  const MatrixMarket arr =
      parse("%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n");  // lower, col-major
  EXPECT_EQ(arr.dense, (std::vector<double>{1, 2, 2, 3}));
}

struct Bad {
  const char* name;
  std::string text;
  int line;
  const char* problem;
};

void expect_refused(const Bad& b, bool cg) {
  try {
    if (cg)
      parse_cg(b.text);
    else
      parse(b.text);
    ADD_FAILURE() << b.name << ": accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), b.line) << b.name << ": " << e.what();
    EXPECT_EQ(e.file(), "m.mtx");
    EXPECT_NE(std::string(e.what()).find(b.problem), std::string::npos)
        << b.name << ": " << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("m.mtx:" + std::to_string(b.line) + ": ", 0), 0u)
        << e.what();
  }
}

const std::string kHead = "%%MatrixMarket matrix coordinate real general\n";

TEST(MatrixMarket, RefusesMalformedFilesWithTheirLine) {
  const std::vector<Bad> cases = {
      {"empty", "", 1, "empty file"},
      {"no-banner", "3 3 1\n1 1 1\n", 1, "not a Matrix Market file"},
      {"short-banner", "%%MatrixMarket matrix coordinate real\n", 1, "header has 4 fields"},
      {"object", "%%MatrixMarket vector coordinate real general\n", 1, "unknown object"},
      {"format", "%%MatrixMarket matrix sparse real general\n", 1, "unknown format 'sparse'"},
      {"field", "%%MatrixMarket matrix coordinate float general\n", 1, "unknown field 'float'"},
      {"complex", "%%MatrixMarket matrix coordinate complex general\n", 1, "complex"},
      {"symmetry", "%%MatrixMarket matrix coordinate real lower\n", 1, "unknown symmetry"},
      {"skew", "%%MatrixMarket matrix coordinate real skew-symmetric\n", 1, "not supported"},
      {"array-pattern", "%%MatrixMarket matrix array pattern general\n", 1, "only valid"},
      {"no-size", kHead + "% only comments\n\n", 3, "missing size line"},
      {"size-fields", kHead + "3 3\n", 2, "size line has 2 fields"},
      {"size-text", kHead + "3 x 3\n", 2, "column count 'x' is not an integer"},
      {"size-negative", kHead + "-3 3 1\n", 2, "negative"},
      {"size-huge", kHead + "99999999999999999999 3 1\n", 2, "out of range"},
      {"size-too-big", kHead + "3000000000 3 1\n", 2, "at most"},
      {"too-many-declared", kHead + "2 2 5\n", 2, "do not fit"},
      {"sym-not-square", "%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n", 2,
       "must be square"},
      {"row-zero", kHead + "3 3 1\n0 1 1\n", 3, "row index 0 is out of range 1..3"},
      {"row-big", kHead + "3 3 2\n1 1 1\n4 1 1\n", 4, "row index 4 is out of range"},
      {"col-big", kHead + "3 3 1\n1 9 1\n", 3, "column index 9 is out of range"},
      {"index-float", kHead + "3 3 1\n1.0 1 1\n", 3, "row index '1.0' is not an integer"},
      {"value-text", kHead + "3 3 1\n1 1 abc\n", 3, "value 'abc' is not a number"},
      {"value-trailing", kHead + "3 3 1\n1 1 1.5x\n", 3, "is not a number"},
      {"value-nan", kHead + "3 3 1\n1 1 nan\n", 3, "not finite"},
      {"value-inf", kHead + "3 3 1\n1 1 -inf\n", 3, "not finite"},
      {"value-missing", kHead + "3 3 1\n1 1\n", 3, "entry has 2 fields"},
      {"value-extra", kHead + "3 3 1\n1 1 2 3\n", 3, "entry has 4 fields"},
      {"integer-field", "%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 2.5\n", 3,
       "not an integer"},
      {"pattern-value", "%%MatrixMarket matrix coordinate pattern general\n1 1 1\n1 1 2\n", 3,
       "entry has 3 fields"},
      {"too-few", kHead + "3 3 3\n1 1 1\n2 2 1\n", 4, "file ends after 2 of the 3 entries"},
      {"too-many", kHead + "3 3 1\n1 1 1\n2 2 1\n", 4, "more entries than the 1 declared"},
      {"upper", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n1 1 1\n1 2 1\n", 4,
       "above the diagonal"},
      {"binary", kHead + "3 3 1\n1 1 \x01\xff\n", 3, "is not a number"},
      {"array-count", "%%MatrixMarket matrix array real general\n2 1\n1\n", 3, "file ends after 1"},
      {"array-fields", "%%MatrixMarket matrix array real general\n2 1\n1 2\n", 3,
       "array entry has 2 fields"},
  };
  for (const auto& b : cases) expect_refused(b, false);
}

TEST(MatrixMarket, RefusesWhatCgCannotSolve) {
  const std::vector<Bad> cases = {
      {"non-square", kHead + "2 3 2\n1 1 1\n2 2 1\n", 2, "square"},
      {"non-symmetric", kHead + "2 2 4\n1 1 4\n1 2 1\n2 1 2\n2 2 4\n", 4, "not symmetric"},
      {"zero-diagonal", kHead + "2 2 2\n1 1 4\n2 2 0\n", 4, "A(2,2) = 0 is not positive"},
      {"negative-diagonal",
       "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 -1\n2 2 4\n", 3,
       "not positive"},
      {"missing-diagonal", kHead + "2 2 1\n1 1 4\n", 2, "row 2 has no diagonal entry"},
      {"array-matrix", "%%MatrixMarket matrix array real general\n1 1\n1\n", 1, "coordinate"},
      {"empty-matrix", kHead + "0 0 0\n", 2, "no rows"},
  };
  for (const auto& b : cases) expect_refused(b, true);
  // The asymmetry found is named by its own line even when the mirror comes first.
  expect_refused({"mirror-first", kHead + "2 2 4\n2 1 2\n1 1 4\n1 2 1\n2 2 4\n", 5,
                  "A(1,2) = 1 but A(2,1) = 2"},
                 true);
}

TEST(MatrixMarket, VectorShapeIsChecked) {
  auto vec = [](const std::string& t, std::int64_t n) {
    std::istringstream in(t);
    return to_vector(read_matrix_market(in, "m.mtx"), n);
  };
  EXPECT_EQ(vec("%%MatrixMarket matrix array real general\n2 1\n1\n2\n", 2),
            (std::vector<double>{1, 2}));
  EXPECT_EQ(vec("%%MatrixMarket matrix coordinate real general\n3 1 1\n2 1 5\n", 3),
            (std::vector<double>{0, 5, 0}));
  try {
    vec("%%MatrixMarket matrix array real general\n2 1\n1\n2\n", 3);
    ADD_FAILURE() << "wrong length accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(std::string(e.what()).find("vector has 2 entries, the matrix has 3 rows"),
              std::string::npos);
  }
  try {
    vec("%%MatrixMarket matrix array real general\n1 2\n1\n2\n", 1);
    ADD_FAILURE() << "two columns accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
  }
}

// Byte mutations of a valid file: the reader returns a matrix or throws InputError, nothing
// else (no crash, no other exception). A cheap stand-in for the fuzz harness.
TEST(MatrixMarket, MutatedInputIsAcceptedOrRefusedCleanly) {
  std::stringstream s;
  write_matrix_market(s, random_symmetric(12, 5), true);
  const std::string good = s.str();
  const char alphabet[] = "0123456789 .-+eE%\n\r\tx\x00\xff";
  for (std::uint64_t trial = 0; trial < 3000; ++trial) {
    std::string t = good;
    const int edits = 1 + static_cast<int>(mix(11, trial) % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = mix(12, trial, e) % (t.size() + 1);
      const char ch = alphabet[mix(13, trial, e) % (sizeof(alphabet) - 1)];
      switch (mix(14, trial, e) % 3) {
        case 0:
          if (at < t.size()) t[at] = ch;
          break;
        case 1:
          t.insert(t.begin() + at, ch);
          break;
        default:
          if (at < t.size()) t.erase(at, 1 + mix(15, trial, e) % 8);
      }
    }
    try {
      const MatrixMarket m = parse(t);
      if (m.format == "coordinate") (void)cg_matrix(m);
    } catch (const InputError&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "trial " << trial << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace mdremap::cg

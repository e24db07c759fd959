// DIMACS CNF reading (every malformed case refused with its line, or warned), writing, and the
// final assignment check. Host only.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "mdremap/error.hpp"
#include "sp/cnf.hpp"
#include "sp/formula.hpp"

namespace sp = mdremap::sp;

namespace {

sp::Formula read(const std::string& text, sp::CnfNotes* notes = nullptr) {
  std::istringstream in(text);
  return sp::read_cnf(in, "f.cnf", notes);
}

// The error message read_cnf throws for `text` ("" if it accepts it).
std::string error_of(const std::string& text) {
  try {
    read(text);
  } catch (const mdremap::InputError& e) {
    return e.what();
  }
  return "";
}

std::vector<std::int32_t> clause(const sp::Formula& f, std::int64_t c) {
  return {f.lits.begin() + f.clause_offset[c], f.lits.begin() + f.clause_offset[c + 1]};
}

}  // namespace

TEST(Cnf, ReadsCommentsHeaderAndClausesAcrossLines) {
  sp::CnfNotes notes;
  const auto f = read(
      "c a comment\n"
      "c another\n"
      "p cnf 4 3\n"
      "1 -2\n"
      "  3 0 -1 4 0\n"
      "c comment between clauses\n"
      "\t2 -3\r\n"
      "-4 0\n",
      &notes);
  EXPECT_EQ(f.nvars, 4);
  ASSERT_EQ(f.clauses(), 3);
  EXPECT_EQ(clause(f, 0), (std::vector<std::int32_t>{1, -2, 3}));
  EXPECT_EQ(clause(f, 1), (std::vector<std::int32_t>{-1, 4}));
  EXPECT_EQ(clause(f, 2), (std::vector<std::int32_t>{2, -3, -4}));
  EXPECT_TRUE(notes.warnings.empty());
}

TEST(Cnf, MissingFinalZeroIsAcceptedWithAWarning) {
  sp::CnfNotes notes;
  const auto f = read("p cnf 3 2\n1 2 0\n-1 3", &notes);
  ASSERT_EQ(f.clauses(), 2);
  EXPECT_EQ(clause(f, 1), (std::vector<std::int32_t>{-1, 3}));
  ASSERT_EQ(notes.warnings.size(), 1u);
  EXPECT_EQ(notes.warnings[0], "f.cnf:3: warning: the last clause has no terminating 0 (accepted)");
}

TEST(Cnf, HeaderCountsThatDisagreeAreWarned) {
  sp::CnfNotes more, fewer;
  EXPECT_EQ(read("p cnf 3 1\n1 0\n2 0\n", &more).clauses(), 2);
  ASSERT_EQ(more.warnings.size(), 1u);
  EXPECT_EQ(more.warnings[0],
            "f.cnf:1: warning: the header declares 1 clauses but the file has 2 (all 2 are used)");
  EXPECT_EQ(read("c x\np cnf 3 5\n1 0\n", &fewer).clauses(), 1);
  ASSERT_EQ(fewer.warnings.size(), 1u);
  EXPECT_NE(fewer.warnings[0].find("f.cnf:2: warning: the header declares 5 clauses but the file "
                                   "has 1"),
            std::string::npos);
}

TEST(Cnf, EmptyClauseIsKeptAndWarned) {
  sp::CnfNotes notes;
  const auto f = read("p cnf 2 2\n1 2 0\n0\n", &notes);
  ASSERT_EQ(f.clauses(), 2);
  EXPECT_EQ(f.clause_size(1), 0);
  EXPECT_EQ(notes.empty_clauses, 1);
  ASSERT_EQ(notes.warnings.size(), 1u);
  EXPECT_EQ(notes.warnings[0], "f.cnf:3: warning: empty clause: the formula is unsatisfiable");
}

TEST(Cnf, RepeatedLiteralsAndTautologiesAreNormalised) {
  sp::CnfNotes notes;
  const auto f = read("p cnf 3 3\n1 2 1 -3 2 0\n1 -1 2 0\n3 0\n", &notes);
  ASSERT_EQ(f.clauses(), 2);  // the tautology is dropped
  EXPECT_EQ(clause(f, 0), (std::vector<std::int32_t>{1, 2, -3}));
  EXPECT_EQ(clause(f, 1), (std::vector<std::int32_t>{3}));
  EXPECT_EQ(notes.tautologies, 1);
  EXPECT_EQ(notes.duplicate_literals, 2);
  EXPECT_EQ(notes.clauses_read, 3);
  ASSERT_EQ(notes.warnings.size(), 2u);
}

TEST(Cnf, ManyWarningsOfOneKindAreSummarised) {
  std::string text = "p cnf 2 10\n";
  for (int i = 0; i < 10; ++i) text += "1 -1 0\n";
  sp::CnfNotes notes;
  EXPECT_EQ(read(text, &notes).clauses(), 0);
  ASSERT_EQ(notes.warnings.size(), 4u);
  EXPECT_EQ(notes.warnings[3], "f.cnf: warning: 7 more of the same (tautology)");
}

TEST(Cnf, SatlibPercentEndsTheFormula) {
  sp::CnfNotes notes;
  const auto f = read("p cnf 2 1\n1 -2 0\n%\n0\n\n", &notes);
  EXPECT_EQ(f.clauses(), 1);
  EXPECT_TRUE(notes.warnings.empty());
}

TEST(Cnf, MalformedInputIsRefusedWithItsLine) {
  EXPECT_EQ(error_of("p cnf 3 1\n1 2 0\n-4 1 0\n"),
            "f.cnf:3: literal -4 is outside [-3, 3] (the header declares 3 variables)");
  EXPECT_EQ(error_of("c x\n1 2 0\np cnf 2 1\n"),
            "f.cnf:2: clause before the 'p cnf VARIABLES CLAUSES' header");
  EXPECT_EQ(error_of("c only comments\n"), "f.cnf:2: no 'p cnf VARIABLES CLAUSES' header");
  EXPECT_EQ(error_of(""), "f.cnf:1: no 'p cnf VARIABLES CLAUSES' header");
  EXPECT_EQ(error_of("p cnf 3 1\np cnf 3 1\n"),
            "f.cnf:2: second 'p' header (the first is on line 1)");
  EXPECT_EQ(error_of("p cnf 3 1\n1 0\np cnf 3 1\n"),
            "f.cnf:3: second 'p' header (the first is on line 1)");
  EXPECT_EQ(
      error_of("p sat 3 1\n"),
      "f.cnf:1: unsupported format 'p sat': only 'p cnf VARIABLES CLAUSES' formulas are read");
  EXPECT_EQ(error_of("p cnf 3\n1 0\n"),
            "f.cnf:1: malformed header: expected 'p cnf VARIABLES CLAUSES'");
  EXPECT_EQ(error_of("p cnf 3 1 7\n"),
            "f.cnf:1: malformed header: unexpected text after 'p cnf VARIABLES CLAUSES'");
  EXPECT_EQ(error_of("p cnf -3 1\n"), "f.cnf:1: negative variable count -3");
  EXPECT_EQ(error_of("p cnf 3 -1\n"), "f.cnf:1: negative clause count -1");
  EXPECT_EQ(error_of("p cnf x 1\n"),
            "f.cnf:1: malformed header: expected 'p cnf VARIABLES CLAUSES'");
  EXPECT_EQ(error_of("p cnf 3000000000 1\n"),
            "f.cnf:1: 3000000000 variables: at most 2147483646 are supported");
  EXPECT_EQ(error_of("p cnf 3 1\n1 2x 0\n"),
            "f.cnf:2: malformed literal '2x' (expected an integer)");
  EXPECT_EQ(error_of("p cnf 3 1\n1 - 2 0\n"),
            "f.cnf:2: malformed literal '-' (expected an integer)");
  EXPECT_EQ(error_of("p cnf 3 1\n1 2 0\nx 0\n"),
            "f.cnf:3: unexpected 'x' (expected a literal, a 'c' comment line or the 'p cnf' "
            "header)");
  EXPECT_EQ(error_of(std::string("p cnf 3 1\n1 \0 0\n", 16)),
            "f.cnf:2: unexpected byte 0x00 (expected a literal, a 'c' comment line or the 'p cnf' "
            "header)");
  EXPECT_EQ(error_of("p cnf 3 1\n1 99999999999999999999999 0\n"),
            "f.cnf:2: literal '99999999999999999999999...' is too large");
  EXPECT_EQ(error_of("p cnf 3 1\n1 2 0 c trailing comment\n"),
            "f.cnf:2: unexpected 'c' (expected a literal, a 'c' comment line or the 'p cnf' "
            "header)");
}

TEST(Cnf, HostileHeaderDoesNotAllocateItsCounts) {
  // A header promising 2e18 clauses with a tiny body: read quickly, warned, no bad_alloc.
  sp::CnfNotes notes;
  const auto f = read("p cnf 3 2000000000000000000\n1 -3 0\n", &notes);
  EXPECT_EQ(f.clauses(), 1);
  EXPECT_EQ(f.nvars, 3);
  EXPECT_EQ(notes.warnings.size(), 1u);
  // Two billion variables that a clause really uses: refused before the per-variable arrays
  // are allocated, naming the memory they need.
  try {
    read("p cnf 2147483646 1\n1 -2147483646 0\n");
    ADD_FAILURE() << "two billion variables accepted";
  } catch (const mdremap::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("host memory"), std::string::npos) << e.what();
  }
}

TEST(Cnf, MissingFileIsAnInputError) {
  try {
    sp::read_cnf_file("/nonexistent/x.cnf");
    FAIL() << "no error";
  } catch (const mdremap::InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "/nonexistent/x.cnf: cannot open CNF file (missing file or no permission)");
  }
}

TEST(Cnf, WriteThenReadGivesTheSameFormula) {
  const auto f = read("p cnf 6 4\n1 -2 3 0\n-6 0\n4 5 -1 2 0\n-3 6 0\n");
  std::ostringstream out;
  sp::write_cnf(out, f, {"round trip"});
  EXPECT_EQ(out.str().substr(0, 25), "c round trip\np cnf 6 4\n1 ");
  sp::CnfNotes notes;
  const auto g = read(out.str(), &notes);
  EXPECT_TRUE(notes.warnings.empty());
  EXPECT_EQ(g.nvars, f.nvars);
  EXPECT_EQ(g.clause_offset, f.clause_offset);
  EXPECT_EQ(g.lits, f.lits);
}

// A cheap stand-in for the libFuzzer harness: mutated formulas and random bytes either parse or
// raise InputError, never anything else (and the parsed formula is well formed).
TEST(Cnf, MutatedInputsParseOrRaiseInputError) {
  const std::string seed_text = "c seed\np cnf 5 4\n1 -2 3 0\n-1 4 0\n5 -4 2 0 % 0\n-5 0\n";
  std::string alphabet = "0123456789-+ \t\n\rcp%xcnf";
  alphabet.push_back('\0');
  std::uint64_t state = 12345;
  auto rnd = [&](std::uint64_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % n;
  };
  int parsed = 0, refused = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::string text = seed_text;
    const int edits = 1 + static_cast<int>(rnd(6));
    for (int e = 0; e < edits; ++e) {
      const std::size_t pos = rnd(text.size() + 1);
      const char c = alphabet[rnd(alphabet.size())];
      switch (rnd(3)) {
        case 0:
          text.insert(pos, 1, c);
          break;
        case 1:
          if (pos < text.size()) text[pos] = c;
          break;
        default:
          if (pos < text.size()) text.erase(pos, 1 + rnd(4));
      }
    }
    if (trial % 10 == 0) {  // pure noise
      text.resize(rnd(64));
      for (auto& ch : text) ch = static_cast<char>(rnd(256));
    }
    try {
      const auto f = read(text);
      ++parsed;
      ASSERT_EQ(f.clause_offset.front(), 0);
      ASSERT_EQ(f.clause_offset.back(), f.literals());
      for (std::int32_t l : f.lits) ASSERT_TRUE(l != 0 && std::abs(l) <= f.nvars);
    } catch (const mdremap::InputError&) {
      ++refused;
    }
  }
  EXPECT_GT(parsed, 100);
  EXPECT_GT(refused, 100);
}

TEST(Formula, CountUnsatisfiedChecksEveryClause) {
  const auto f = read("p cnf 3 3\n1 2 0\n-1 3 0\n-2 -3 0\n");
  std::int64_t first = 0;
  EXPECT_EQ(sp::count_unsatisfied(f, {1, -1, 1}, &first), 0);
  EXPECT_EQ(first, -1);
  EXPECT_EQ(sp::count_unsatisfied(f, {1, 1, 1}, &first), 1);
  EXPECT_EQ(first, 2);
  EXPECT_EQ(sp::count_unsatisfied(f, {-1, -1, -1}, &first), 1);
  EXPECT_EQ(first, 0);
  EXPECT_EQ(sp::count_unsatisfied(f, {0, 0, 0}, &first), 3);  // unassigned satisfies nothing
}

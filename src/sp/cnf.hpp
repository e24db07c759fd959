#pragma once
// DIMACS CNF reading and writing (BRIEF section 7: a lenient parser). Accepted: comment lines
// ('c' first), one `p cnf VARS CLAUSES` header before the first clause, clauses spanning lines
// and several clauses on one line, SATLIB's trailing '%' (ends the formula), a last clause without
// its terminating 0 at end of file (warned). Refused (mdremap::InputError, `FILE:LINE: problem`):
// a missing, malformed or repeated header, a clause before the header, a literal outside
// [-VARS, VARS], a token that is not an integer, any other character. Warned and kept: an empty
// clause (the formula is then unsatisfiable), a clause count that differs from the header's.
// Normalised and warned: a literal repeated in a clause is kept once, a clause holding x and -x
// (always true) is dropped. The reader never allocates from the header's counts, so a hostile
// header cannot exhaust memory.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "sp/formula.hpp"

namespace mdremap::sp {

struct CnfNotes {
  std::vector<std::string> warnings;  // "FILE:LINE: warning: ..." (repeats summarised)
  std::int64_t header_clauses = 0;    // the header's count
  std::int64_t clauses_read = 0;      // clauses in the file (tautologies included)
  std::int64_t tautologies = 0;       // dropped
  std::int64_t duplicate_literals = 0;
  std::int64_t empty_clauses = 0;
};

// Reads a formula from `in`; `name` is the display name used in messages (a path, "<stdin>",
// or a fuzzer's "<input>"). Throws mdremap::InputError on bad input; never anything else for any
// byte sequence (the libFuzzer harness calls this).
Formula read_cnf(std::istream& in, const std::string& name, CnfNotes* notes = nullptr);
Formula read_cnf_file(const std::string& path, CnfNotes* notes = nullptr);

// DIMACS text with a header and one clause per line; `comment` lines are prefixed with "c ".
void write_cnf(std::ostream& out, const Formula& f, const std::vector<std::string>& comment = {});

}  // namespace mdremap::sp

#pragma once
// One SP run as `mdremap sp` makes it (BRIEF section 7): the formula generated or read, written
// as DIMACS where asked (and nothing else then), solved by SP-guided decimation and WalkSAT, the
// result written in DIMACS solution format where asked. The front end prints what it reports.
#include <optional>
#include <string>

#include "sp/cnf.hpp"
#include "sp/generator.hpp"
#include "sp/params.hpp"
#include "sp/solver.hpp"

namespace mdremap::sp {

// Files the run writes; empty: none.
struct RunFiles {
  std::string cnf;         // the formula as DIMACS CNF, instead of solving it
  std::string assignment;  // the result in DIMACS solution format (s ... / v ... 0)
  std::string creator;     // the CNF file's comment begins "written by CREATOR from SOURCE"
};

// The formula as the run has it.
struct FormulaInfo {
  Formula f;
  CnfNotes notes;                  // the reader's warnings (none for a generated formula)
  std::optional<RandomSpec> spec;  // set: generated
  double seconds = 0;              // to generate or read it
  int max_clause = 0;              // the longest clause's literals
  double ratio = 0;                // clauses per variable
};

// The run's steps as they happen (and the solve's rounds), for the front end to show.
class RunObserver : public SolveObserver {
 public:
  virtual void formula(const FormulaInfo& /*f*/) {}
  virtual void wrote_cnf(const std::string& /*path*/) {}
  // The solve has ended (before the assignment is written).
  virtual void solved(const SolveResult& /*r*/) {}
};

struct RunReport {
  FormulaInfo formula;
  bool solved = false;  // false: the formula was written instead (RunFiles::cnf)
  SolveResult result;
};

RunReport run(const SpParams& p, const RunFiles& files, RunObserver& obs);

}  // namespace mdremap::sp

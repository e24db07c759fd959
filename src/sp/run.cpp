#include "sp/run.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <ostream>

#include "io/staged_output.hpp"
#include "mdremap/error.hpp"

namespace mdremap::sp {

namespace {

// DIMACS solution format: the outcome, then the assignment in lines of at most 78 characters.
void write_solution(std::ostream& out, const SolveResult& r) {
  out << "s " << outcome_name(r.outcome) << "\n";
  if (r.outcome != Outcome::Sat) return;
  std::string line = "v";
  for (std::size_t v = 0; v < r.assignment.size(); ++v) {
    const long lit = r.assignment[v] > 0 ? static_cast<long>(v + 1) : -static_cast<long>(v + 1);
    const std::string tok = " " + std::to_string(lit);
    if (line.size() + tok.size() > 78) {
      out << line << "\n";
      line = "v";
    }
    line += tok;
  }
  out << line << " 0\n";
}

// The formula: generated, or read.
FormulaInfo load_formula(const SpParams& p) {
  Kokkos::Timer setup;
  FormulaInfo fi;
  fi.spec = parse_random_spec(p.source);
  if (fi.spec)
    fi.f = generate_random_ksat(*fi.spec, p.formula_seed);
  else
    fi.f = read_cnf_file(p.source, &fi.notes);
  fi.seconds = setup.seconds();
  for (std::int64_t c = 0; c < fi.f.clauses(); ++c)
    fi.max_clause = std::max(fi.max_clause, fi.f.clause_size(c));
  fi.ratio = fi.f.nvars > 0 ? static_cast<double>(fi.f.clauses()) / fi.f.nvars : 0.0;
  return fi;
}

}  // namespace

RunReport run(const SpParams& p, const RunFiles& files, RunObserver& obs) {
  RunReport rep;
  rep.formula = load_formula(p);
  const FormulaInfo& fi = rep.formula;
  obs.formula(fi);
  if (!files.cnf.empty()) {
    io::write_staged(files.cnf, [&](std::ostream& out) {
      write_cnf(out, fi.f,
                {"written by " + files.creator + " from " + p.source +
                 (fi.spec ? fmt::format(" (seed {})", p.formula_seed) : std::string())});
    });
    obs.wrote_cnf(files.cnf);
    return rep;
  }
  rep.result = solve(fi.f, p.solve, &obs);
  rep.solved = true;
  obs.solved(rep.result);
  if (!files.assignment.empty())
    io::write_staged(files.assignment, [&](std::ostream& out) { write_solution(out, rep.result); });
  return rep;
}

}  // namespace mdremap::sp

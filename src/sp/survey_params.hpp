#pragma once
// Parameters of the survey-propagation state and how a variable got its value: kept free of
// Kokkos so host-only code (deck reading, the solver's interface) can include them.
#include <cstdint>

namespace mdremap::sp {

struct SurveyParams {
  double epsilon = 0.001;  // convergence: no survey moves by more than this (LonestarGPU)
  double damping = 0.0;    // eta <- damping * eta_old + (1 - damping) * eta_new
  std::uint64_t seed = 1;  // initial surveys: uniform in [0, 1) per edge
  bool pure_literals = true;
};

// How a variable got its value (the report counts each).
enum class FixedBy : std::uint8_t {
  Free = 0,
  Sp = 1,             // decimation on the SP biases
  Unit = 2,           // unit propagation
  Pure = 3,           // pure literal
  Walksat = 4,        // WalkSAT on the remaining formula
  Unconstrained = 5,  // in no unsatisfied clause: any value (false is written)
};

}  // namespace mdremap::sp

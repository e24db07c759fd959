#pragma once
// A strategy of the registry as an app holds it (catalogue.hpp lists them): its name and what an
// app may ask of it, so that app code compares no strategy names. No Kokkos here.
#include <string>

#include "mdremap/remap/options.hpp"

namespace mdremap::remap {

// Whether a strategy applies to a kernel, and why not (shown by `auto` and by the refusal).
struct Applicability {
  bool ok = true;
  std::string why;
};

class StrategyChoice {
 public:
  // A registered name (catalogue.hpp); another throws Error listing them.
  StrategyChoice(const std::string& name);  // NOLINT: a deck's name converts
  StrategyChoice(const char* name);         // NOLINT
  const std::string& name() const { return name_; }
  // The plain gather: reads A through the pattern's index as given, with no plan and no copy
  // (the baseline every other strategy is measured against).
  bool is_gather() const { return gather_; }
  // Chooses among the other strategies (`auto`, seed 001 §4).
  bool chooses() const { return chooses_; }
  // Runs a part of its threads at a time (execute_selected, registry.hpp).
  bool runs_selections() const { return selections_; }
  // Whether it applies to the kernel `o` describes (reference patterns, writes through them).
  Applicability applies(const RemapOptions& o) const;
  // Throws the strategy's own refusal of options o (its constructor's Error), if any.
  void check(const RemapOptions& o) const;

 private:
  std::string name_;
  bool gather_ = false, chooses_ = false, selections_ = false;
};

}  // namespace mdremap::remap

#pragma once
// Numeric command-line flags go through the deck's checked number parser (io/number.hpp): CLI11
// alone clamps out-of-range integers silently to INT64_MAX and prints multi-line messages with
// its own exit codes. The validator runs before CLI11 converts the text.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <string>

#include "io/number.hpp"

namespace mdremap::cli {

// Accepts a number of type T within [lo, hi]; `what` describes the range in --help.
template <class T>
CLI::Validator number_in(T lo, T hi, const std::string& what) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        T value{};
        std::string problem = io::parse_number(text, value);
        if (problem.empty()) problem = io::check_range(value, lo, hi);
        if (problem.empty()) text = fmt::format("{}", value);  // what CLI11 converts
        return problem;
      },
      what, "number_in");
}

// A number > 0 (open lower bound; the deck checks the rest of the key's range).
inline CLI::Validator positive_real() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double value = 0;
        std::string problem = io::parse_number(text, value);
        if (problem.empty() && !(value > 0))
          problem = fmt::format("must be positive, got {}", value);
        return problem;
      },
      "POSITIVE", "positive_real");
}

}  // namespace mdremap::cli

#pragma once
// The one checked text-to-number conversion behind every deck key, every `--set` and every
// numeric command-line flag: the whole text must be the number, integers must fit their type (no
// silent clamping, no wrap of a negative into an unsigned), and real numbers must be finite (YAML's
// .nan and .inf, "nan", "inf" and overflowing literals are refused).
#include <string>

namespace mdremap::io {

// Parses `text` as a T (an integer type or double). Returns "" and sets `out`, or returns the
// problem in words ("expected an integer, got 'x'", "'1e999' is not a finite number", ...).
template <class T>
std::string parse_number(const std::string& text, T& out);

// The problem when `value` lies outside [lo, hi], or "" (for messages: "must be at least 1").
template <class T>
std::string check_range(T value, T lo, T hi);

}  // namespace mdremap::io

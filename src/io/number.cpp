#include "io/number.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "mdremap/error.hpp"

namespace mdremap::io {

namespace {

std::string shown(const std::string& text) {
  // Long junk is cut: a message is one readable line.
  return shown_value(text, 40);
}

std::string trimmed(const std::string& text) {
  const auto b = text.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  const auto e = text.find_last_not_of(" \t");
  return text.substr(b, e - b + 1);
}

}  // namespace

template <class T>
std::string parse_number(const std::string& raw, T& out) {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>);
  std::string text = trimmed(raw);
  if (text.empty()) return "expected a number, got nothing";
  if (text.size() > 1 && text[0] == '+' && (text[1] == '+' || text[1] == '-'))
    return fmt::format("expected a number, got '{}'", shown(text));
  if constexpr (std::is_integral_v<T>) {
    if (std::is_unsigned_v<T> && text[0] == '-')
      return fmt::format("must not be negative, got '{}'", shown(text));
    const char* b = text.data() + (text[0] == '+' ? 1 : 0);
    const char* e = text.data() + text.size();
    T value{};
    const auto r = std::from_chars(b, e, value, 10);
    if (r.ec == std::errc::result_out_of_range)
      return fmt::format("'{}' is out of range (from {} to {})", shown(text),
                         std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    if (r.ec != std::errc() || r.ptr != e || b == e)
      return fmt::format("expected an integer, got '{}'", shown(text));
    out = value;
    return {};
  } else {
    // YAML's spellings of the non-finite values, and C's, are refused by name.
    std::string lower;
    for (char c : text) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    const std::string bare = lower[0] == '+' || lower[0] == '-' ? lower.substr(1) : lower;
    if (bare == ".nan" || bare == "nan" || bare == ".inf" || bare == "inf" || bare == "infinity")
      return fmt::format("'{}' is not a finite number", shown(text));
    const char* b = text.data() + (text[0] == '+' ? 1 : 0);
    const char* e = text.data() + text.size();
    double value = 0;
    const auto r = std::from_chars(b, e, value, std::chars_format::general);
    // Out of range both ways: strtod tells an overflow (huge) from an underflow (below the
    // smallest subnormal, which would silently become 0).
    if (r.ec == std::errc::result_out_of_range) {
      if (std::fabs(std::strtod(text.c_str(), nullptr)) < 1)
        return fmt::format(
            "'{}' underflows to 0 (it is smaller in magnitude than the smallest "
            "double, about 4.9e-324): write 0 if zero is meant",
            shown(text));
      return fmt::format(
          "'{}' overflows (it is larger in magnitude than the largest double, "
          "about 1.8e308)",
          shown(text));
    }
    if (r.ec != std::errc() || r.ptr != e || b == e)
      return fmt::format("expected a number, got '{}'", shown(text));
    if (!std::isfinite(value)) return fmt::format("'{}' is not a finite number", shown(text));
    out = static_cast<T>(value);
    return {};
  }
}

template <class T>
std::string check_range(T value, T lo, T hi) {
  if (value < lo) return fmt::format("must be at least {}, got {}", lo, value);
  if (value > hi) return fmt::format("must be at most {}, got {}", hi, value);
  return {};
}

template std::string parse_number<int>(const std::string&, int&);
template std::string parse_number<long>(const std::string&, long&);
template std::string parse_number<long long>(const std::string&, long long&);
template std::string parse_number<unsigned long>(const std::string&, unsigned long&);
template std::string parse_number<unsigned long long>(const std::string&, unsigned long long&);
template std::string parse_number<double>(const std::string&, double&);
template std::string check_range<int>(int, int, int);
template std::string check_range<long>(long, long, long);
template std::string check_range<long long>(long long, long long, long long);
template std::string check_range<double>(double, double, double);

}  // namespace mdremap::io

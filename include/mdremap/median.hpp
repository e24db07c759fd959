#pragma once
// The median of a sample (the statistic every timing in mdremap reports: robust to the odd slow
// repeat). Mean of the two middle values for an even count; 0 for an empty sample.
#include <algorithm>
#include <vector>

namespace mdremap {

inline double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  const std::size_t h = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + h, v.end());
  if (v.size() % 2) return v[h];
  const double hi = v[h];
  return 0.5 * (*std::max_element(v.begin(), v.begin() + h) + hi);
}

}  // namespace mdremap

#include "md/overlap_hint.hpp"

#include <fmt/format.h>

#include <cmath>

namespace mdremap::md {

std::string overlap_hint(const Frame& fr, const Box<double>& box,
                         const std::vector<std::int64_t>& given_ids, double dt) {
  const std::size_t n = fr.n();
  if (n < 2 || fr.f.size() != 3 * n) return "";
  std::size_t worst = 0;
  double f2max = -1;
  for (std::size_t i = 0; i < n; ++i) {
    const double f2 = fr.f[3 * i] * fr.f[3 * i] + fr.f[3 * i + 1] * fr.f[3 * i + 1] +
                      fr.f[3 * i + 2] * fr.f[3 * i + 2];
    if (!(f2 <= f2max)) f2max = f2, worst = i;
  }
  std::size_t nearest = worst == 0 ? 1 : 0;
  double r2min = INFINITY;
  for (std::size_t j = 0; j < n; ++j) {
    if (j == worst) continue;
    double d[3];
    for (int k = 0; k < 3; ++k) d[k] = fr.x[3 * j + k] - fr.x[3 * worst + k];
    box.minimum_image(d[0], d[1], d[2]);
    const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if (r2 < r2min) r2min = r2, nearest = j;
  }
  auto given = [&](std::size_t slot) {
    const std::int64_t id = fr.id[slot];
    return id >= 0 && static_cast<std::size_t>(id) < given_ids.size() ? given_ids[id] : id + 1;
  };
  return fmt::format(
      "the first forces are huge: {:.3g} on atom {}, {:.3g} sigma from atom {}; overlapping "
      "atoms at time step {} move farther than {} sigma in one step: minimise first, with a "
      "`minimize:` section in the deck or `mdremap minimize DECK`",
      std::sqrt(f2max), given(worst), std::sqrt(r2min), given(nearest), dt, kOverlapMove);
}

}  // namespace mdremap::md

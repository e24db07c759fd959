// g(r) from the device's counts (md/compute/rdf_table.hpp).
#include "md/compute/rdf_table.hpp"

namespace mdremap::md {

RdfTable normalise_rdf(const std::vector<double>& weighted, double r_max, std::int64_t samples,
                       double volume_sum, std::int64_t natoms) {
  const std::size_t bins = weighted.size();
  const double pi = 3.14159265358979323846;
  const double dr = r_max / static_cast<double>(bins);
  const double others = static_cast<double>(natoms) - 1.0;  // partners of each atom
  const double pairs = static_cast<double>(natoms) * others;
  const double mean_volume = samples > 0 ? volume_sum / static_cast<double>(samples) : 0.0;
  RdfTable t;
  t.samples = samples;
  t.r.resize(bins);
  t.g.resize(bins);
  t.coord.resize(bins);
  double coord = 0;
  for (std::size_t b = 0; b < bins; ++b) {
    const double lo = static_cast<double>(b) * dr, hi = static_cast<double>(b + 1) * dr;
    const double shell = 4.0 / 3.0 * pi * (hi * hi * hi - lo * lo * lo);
    t.r[b] = (static_cast<double>(b) + 0.5) * dr;
    const double norm = static_cast<double>(samples) * pairs * shell;
    t.g[b] = norm > 0 ? weighted[b] / norm : 0.0;
    if (mean_volume > 0) coord += t.g[b] * shell * others / mean_volume;
    t.coord[b] = coord;
  }
  return t;
}

}  // namespace mdremap::md

// The deck's `compute:` section (md/compute/settings.hpp).
#include "md/compute/settings.hpp"

#include <fmt/format.h>

#include <cmath>

#include "io/number.hpp"

namespace mdremap::md {

namespace {

// Half-list entries the RDF's own list may hold (32-bit counts, device memory).
constexpr double kMaxRdfPairs = 2147483647.0;
constexpr int kMaxRdfBins = 1000000;
constexpr double kMaxRdfCells = 1 << 27;  // as the force list's (md/params.hpp kMaxListCells)

constexpr const char* kOneProcess =
    "runs on one process (its pairs and image counts are not exchanged between MPI ranks): run "
    "it without mpirun and parallel.ghosts";

RdfSettings read_rdf(io::DeckSection s, const ComputeLimits& lim) {
  RdfSettings r;
  r.enabled = true;
  r.bins = s.ranged<int>("bins", r.bins, 1, kMaxRdfBins);
  r.r_max = s.get<double>("r_max", lim.cutoff);
  if (!(r.r_max > 0) || !std::isfinite(r.r_max))
    s.fail("r_max", fmt::format("must be positive, got {}", r.r_max));
  // Its own list is built at each sample (md/compute/rdf.hpp), so r_max is not bound to the
  // force list's cutoff + skin; one image of each pair needs r_max <= half the box.
  if (r.r_max > 0.5 * lim.min_box)
    s.fail("r_max", fmt::format("{} is more than half the shortest box edge ({:.6g}): a pair "
                                "would be counted at two of its periodic images; at most {:.6g}",
                                r.r_max, lim.min_box, 0.5 * lim.min_box));
  const double pi = 3.14159265358979323846;
  const double pairs = 0.5 * double(lim.atoms) * double(lim.atoms) / lim.volume * 4.0 / 3.0 * pi *
                       std::pow(r.r_max, 3);
  if (pairs > kMaxRdfPairs)
    s.fail("r_max", fmt::format("{} holds about {:.3g} atom pairs, more than the {:.3g} its list "
                                "can hold: lower r_max",
                                r.r_max, pairs, kMaxRdfPairs));
  // Its list's cells are r_max wide: a tiny r_max in a large box would ask for billions.
  const double cells = lim.volume / std::pow(r.r_max, 3);
  if (cells > kMaxRdfCells)
    s.fail("r_max",
           fmt::format("{} would need {:.3g} list cells in this box (at most {:.3g}): "
                       "at least {:.3g}",
                       r.r_max, cells, kMaxRdfCells, std::cbrt(lim.volume / kMaxRdfCells)));
  r.every = s.ranged<long long>("every", r.every, 1, lim.max_steps);
  r.file = s.get<std::string>("file", "");
  if (!lim.one_process) s.fail("", std::string("compute.rdf ") + kOneProcess);
  s.finish();
  return r;
}

MsdSettings read_msd(io::DeckSection s, const ComputeLimits& lim) {
  MsdSettings m;
  m.enabled = true;
  m.every = s.ranged<long long>("every", m.every, 1, lim.max_steps);
  m.file = s.get<std::string>("file", "");
  if (!lim.one_process) s.fail("", std::string("compute.msd ") + kOneProcess);
  s.finish();
  return m;
}

}  // namespace

ComputeSettings read_computes(io::DeckSection& root, const ComputeLimits& lim) {
  ComputeSettings c;
  // Read only where the deck has them: defaults in the resolved deck would say the run computes.
  if (root.has("compute")) {
    auto s = root.section("compute");
    s.allow("rdf");
    s.allow("msd");
    if (s.has("rdf")) c.rdf = read_rdf(s.section("rdf"), lim);
    if (s.has("msd")) c.msd = read_msd(s.section("msd"), lim);
    s.finish();
  }
  if (lim.msd_column) {
    if (!lim.one_process)
      root.section("run").fail("thermo_columns", std::string("msd ") + kOneProcess);
    c.msd.enabled = true;
  }
  return c;
}

}  // namespace mdremap::md

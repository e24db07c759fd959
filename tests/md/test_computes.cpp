// The computes (md/compute/): per-atom potential energy summing to the thermo's pair energy on
// every list kind, potential and precision; the RDF of an fcc crystal at step 0 (first peak at
// the nearest-neighbour distance, 12 then 18 neighbours); the MSD's reference and unwrapping.
// The comparison with MDAnalysis on a trajectory is tests/physics/computes_vs_mdanalysis.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "md/compute/rdf_table.hpp"
#include "md_test_util.hpp"

using namespace mdremap;

namespace {

const std::string kBinary = "tests/reference/minimize/";

double pe_sum(md::MdEngine& e) {
  Frame fr;
  e.snapshot_slots(fr, false, false, true, true);
  EXPECT_EQ(fr.pe.size(), static_cast<std::size_t>(e.natoms()));
  return std::accumulate(fr.pe.begin(), fr.pe.end(), 0.0);
}

// sum_i e_i = N e_pair (the thermo's pair energy per atom, shift and tail included), at step 0
// and after steps, on the disordered binary system of the LAMMPS references.
TEST(PeAtom, SumsToThermoPairEnergy) {
  const std::string start = test::source_path(kBinary + "start.data");
  struct Case {
    std::vector<std::string> sets;
    double tol;
  };
  const std::vector<Case> cases = {
      {{"potential.shift=true", "neighbor.list=full"}, 1e-12},
      {{"potential.shift=true", "neighbor.list=half"}, 1e-12},
      {{"potential.shift=true", "neighbor.list=cluster"}, 1e-12},
      {{"potential.shift=false", "potential.tail=true", "neighbor.list=full"}, 1e-12},
      {{"potential.shift=false", "potential.tail=true", "neighbor.list=half"}, 1e-12},
      {{"potential={style: wca}", "neighbor.list=full"}, 1e-12},
      {{"potential.shift=true", "neighbor.list=full", "remap.mode=dup"}, 1e-12},
      // Pair energies in float: the sums differ in their order only.
      {{"potential.shift=true", "run.precision=mixed"}, 1e-6},
      {{"potential.shift=true", "run.precision=single", "neighbor.list=half"}, 1e-5},
  };
  for (const auto& c : cases) {
    auto sets = c.sets;
    sets.push_back("system.file=" + start);
    std::string name;
    for (const auto& s : c.sets) name += s + " ";
    SCOPED_TRACE(name);
    auto engine = md::create_engine(test::params(kBinary + "deck.yaml", sets));
    const double n = double(engine->natoms());
    const ThermoSample t0 = engine->setup();
    EXPECT_LT(test::rel(pe_sum(*engine), t0.e_pair * n), c.tol);
    const md::RunStats st = engine->run(7);
    EXPECT_LT(test::rel(pe_sum(*engine), st.last.e_pair * n), c.tol);
  }
}

// Without the field no frame carries per-atom energies.
TEST(PeAtom, OnlyWhereAsked) {
  auto engine = md::create_engine(test::params(
      kBinary + "deck.yaml", {"system.file=" + test::source_path(kBinary + "start.data")}));
  engine->setup();
  Frame fr;
  engine->snapshot_slots(fr, false, false);
  EXPECT_TRUE(fr.pe.empty());
}

const char* kFcc = R"(system:
  lattice: {style: fcc, density: 0.8442, cells: [6, 6, 6]}
run: {steps: 0}
compute:
  rdf: {bins: 250, r_max: 2.5, every: 1}
)";

// An fcc crystal at step 0: no pair closer than the nearest-neighbour distance a / sqrt(2), the
// highest bin the one holding it, 12 neighbours within the first shell and 18 within the second
// (at a), LAMMPS' coord column.
TEST(Rdf, FccCrystalPeaksAtNearestNeighbour) {
  auto engine = md::create_engine(test::params_from_text(kFcc));
  engine->setup();
  const md::RdfTable t = engine->rdf_average();
  ASSERT_EQ(t.g.size(), 250u);
  EXPECT_EQ(t.samples, 1);
  const double a = std::cbrt(4.0 / 0.8442), r1 = a / std::sqrt(2.0), dr = 2.5 / 250;
  const auto peak = std::max_element(t.g.begin(), t.g.end()) - t.g.begin();
  EXPECT_LE(std::abs(t.r[peak] - r1), 0.5 * dr + 1e-12) << "peak at " << t.r[peak];
  for (std::size_t b = 0; b < t.r.size(); ++b)
    if (t.r[b] + 0.5 * dr < r1 - 1e-9) EXPECT_EQ(t.g[b], 0.0) << "r " << t.r[b];
  auto coord_at = [&](double r) { return t.coord[static_cast<std::size_t>(r / dr)]; };
  EXPECT_NEAR(coord_at(0.5 * (r1 + a)), 12.0, 1e-12);
  EXPECT_NEAR(coord_at(0.5 * (a + std::sqrt(1.5) * a)), 18.0, 1e-12);
}

// An ideal-gas count gives g = 1: the normalisation by pairs N (N - 1) and shell volumes.
TEST(Rdf, NormalisationOfUniformCounts) {
  const int bins = 10, n = 100;
  const double r_max = 2.0, volume = 1000.0, pi = 3.14159265358979323846;
  std::vector<double> w(bins);
  for (int b = 0; b < bins; ++b) {
    const double lo = b * r_max / bins, hi = (b + 1) * r_max / bins;
    const double shell = 4.0 / 3.0 * pi * (hi * hi * hi - lo * lo * lo);
    w[b] = 3 * double(n) * (n - 1) * shell / volume * volume;  // 3 samples at this volume
  }
  const md::RdfTable t = md::normalise_rdf(w, r_max, 3, 3 * volume, n);
  for (int b = 0; b < bins; ++b) EXPECT_NEAR(t.g[b], 1.0, 1e-12);
  EXPECT_NEAR(t.coord.back(), (n - 1) / volume * 4.0 / 3.0 * pi * 8.0, 1e-9);
  EXPECT_NEAR(t.r.front(), 0.1, 1e-15);
}

// The RDF's samples: the run's first step and every `every` steps after it.
TEST(Rdf, SamplesAtStartAndEvery) {
  auto engine = md::create_engine(test::params_from_text(
      kFcc, {"run.steps=10", "compute.rdf.every=4", "velocity.temperature=1.0"}));
  engine->setup();
  engine->run(10);
  EXPECT_EQ(engine->rdf_average().samples, 3);  // steps 0, 4, 8
}

struct MsdRows : md::RunObserver {
  std::vector<MsdSample> rows;
  std::vector<ThermoSample> thermo_rows;
  void msd(const MsdSample& m) override { rows.push_back(m); }
  void thermo(const ThermoSample& t) override { thermo_rows.push_back(t); }
};

// The MSD against the unwrapped positions of snapshots (x + image L): zero at the start, the
// column and the rows the same numbers, and through the wraps of a hot liquid.
TEST(Msd, UnwrappedDisplacementFromTheStart) {
  auto engine = md::create_engine(test::params_from_text(
      R"(system:
  lattice: {style: fcc, density: 0.8442, cells: [5, 5, 5]}
velocity: {temperature: 3.0}
run: {steps: 200, thermo: 50, thermo_columns: [msd]}
compute:
  msd: {every: 25}
)"));
  const ThermoSample t0 = engine->setup();
  ASSERT_TRUE(t0.has_msd);
  EXPECT_EQ(t0.msd[3], 0.0);
  const Frame f0 = engine->snapshot(false);
  MsdRows obs;
  engine->run(200, &obs);
  const Frame f1 = engine->snapshot(false);
  ASSERT_EQ(obs.rows.size(), 8u);
  ASSERT_EQ(obs.thermo_rows.size(), 4u);
  EXPECT_EQ(obs.rows.back().step, 200);
  EXPECT_EQ(obs.rows.back().msd[3], obs.thermo_rows.back().msd[3]);
  double sum[3] = {0, 0, 0};
  int wrapped = 0;
  for (std::size_t k = 0; k < f1.n(); ++k)
    for (int d = 0; d < 3; ++d) {
      const double u1 = f1.x[3 * k + d] + f1.image[3 * k + d] * f1.box_len[d];
      const double u0 = f0.x[3 * k + d] + f0.image[3 * k + d] * f0.box_len[d];
      sum[d] += (u1 - u0) * (u1 - u0);
      wrapped += f1.image[3 * k + d] != f0.image[3 * k + d];
    }
  EXPECT_GT(wrapped, 0);  // the test passes through periodic wraps
  const double n = double(f1.n());
  for (int d = 0; d < 3; ++d) EXPECT_NEAR(obs.rows.back().msd[d], sum[d] / n, 1e-12);
  EXPECT_NEAR(obs.rows.back().msd[3], (sum[0] + sum[1] + sum[2]) / n, 1e-12);
  EXPECT_GT(obs.rows.back().msd[3], 0.1);
}

}  // namespace

// neighbor.list: cluster against the plain full list: forces, energy and virial on the same
// positions (random gas, fcc lattice, a melted lattice, a binary mixture, a box just over
// 2 x (cutoff + skin)) for every cluster size and precision, with every pair from both sides
// and each pair once (neighbor.cluster_newton); NVE energy conservation over 10,000 steps beside
// the plain list's; the deck keys' validation.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "md/md_test_util.hpp"
#include "md/system.hpp"
#include "mdremap/error.hpp"

using namespace mdremap;
using mdremap::test::rel;

namespace {

// The state of a frame as a system to start engines from (same positions, velocities, ids).
md::HostSystem system_of(const Frame& f) {
  md::HostSystem s;
  s.x = f.x;
  s.v = f.v;
  s.type = f.type;
  s.id = f.id;
  for (int d = 0; d < 3; ++d) s.lo[d] = f.box_lo[d], s.len[d] = f.box_len[d];
  return s;
}

struct Tolerance {
  double thermo;  // e_pair and pressure, relative
  double force;   // largest component difference over the largest component
};

// Tolerances per precision. Double: the sums differ only in order (cluster order against list
// order): measured at most 1.3e-15 (thermo) and 2.1e-15 (forces) on the OpenMP build. Single
// and mixed: float arithmetic in another order (and, on AVX-512 hosts, the plain list's
// intrinsic loop): measured at most 5e-8 and 1.1e-6. Both bounds a tenth or less of these.
Tolerance tolerance(Precision p) {
  return p == Precision::Double ? Tolerance{1e-13, 1e-13} : Tolerance{1e-6, 1e-5};
}

// Engines with the plain full list and with the cluster list (each cluster size) from the same
// system; their step-0 thermo and forces compared. `moving`: the reference is the plain
// engine's state after `steps` steps (off the lattice, forces not zero by symmetry).
void check_against_full_list(const md::MdParams& deck, int steps, bool forces_vanish = false) {
  for (const Precision prec : {Precision::Double, Precision::Mixed, Precision::Single}) {
    md::MdParams pf = deck;
    pf.precision = prec;
    pf.list = neighbor::ListKind::Full;
    md::HostSystem sys;
    {
      auto e0 = md::create_engine(pf);
      e0->setup();
      if (steps > 0) e0->run(steps);
      sys = system_of(e0->snapshot());
    }
    auto ef = md::make_engine(pf, sys);
    const ThermoSample tf = ef->setup();
    const Frame ff = ef->snapshot();
    double fmax = 0;
    for (double v : ff.f) fmax = std::max(fmax, std::abs(v));
    for (const int m : {4, 8, 16})
      for (const bool newton : {false, true}) {
        md::MdParams pc = pf;
        pc.list = neighbor::ListKind::Cluster;
        pc.cluster_size = m;
        pc.cluster_newton = newton;
        auto ec = md::make_engine(pc, sys);
        const ThermoSample tc = ec->setup();
        const Frame fc = ec->snapshot();
        Tolerance tol = tolerance(prec);
        // A perfect lattice: every atom's energy is the same, so a sum over them in one order
        // drifts one way, up to n * eps relative (one thread sums 4,000 of them sequentially:
        // 1.04e-13 between the lists measured, 1.0e-13 between one and two threads of the same
        // list).
        if (forces_vanish) tol.thermo = std::max(tol.thermo, double(sys.n()) * 2.2e-16);
        const std::string tag =
            fmt::format("{}_{}_m{}{}", sys.n(), to_string(prec), m, newton ? "_newton" : "");
        SCOPED_TRACE(fmt::format("{} atoms, precision {}, clusters of {}{}", sys.n(),
                                 to_string(prec), m, newton ? ", each pair once" : ""));
        ::testing::Test::RecordProperty(
            "thermo_error_" + tag,
            fmt::format("{:.3g} {:.3g}", rel(tc.e_pair, tf.e_pair), rel(tc.press, tf.press)));
        EXPECT_LT(rel(tc.e_pair, tf.e_pair), tol.thermo) << tc.e_pair << " " << tf.e_pair;
        EXPECT_LT(rel(tc.press, tf.press), tol.thermo) << tc.press << " " << tf.press;
        ASSERT_EQ(fc.f.size(), ff.f.size());
        if (forces_vanish) {
          // A perfect lattice: forces are rounding noise; both lists' must be as small.
          for (size_t k = 0; k < fc.f.size(); ++k)
            ASSERT_LT(std::abs(fc.f[k]), prec == Precision::Double ? 1e-10 : 1e-3);
        } else {
          const double err = test::max_force_error(fc, ff);
          EXPECT_LT(err, tol.force);
          ASSERT_GT(fmax, 0.0);
          ::testing::Test::RecordProperty("force_error_" + tag, fmt::format("{:.3g}", err));
        }
      }
  }
}

const char* kRandomGas = R"(system:
  random: {atoms: 3000, density: 0.8442, min_distance: 0.8, seed: 5}
potential: {cutoff: 2.5}
velocity: {temperature: 1.44}
neighbor: {skin: 0.3}
)";

// Side 5.65 at density 0.8442 (152 atoms): just over 2 x (2.5 + 0.3) = 5.6.
const char* kNearLimit = R"(system:
  random: {atoms: 152, density: 0.8423, min_distance: 0.8, seed: 9}
potential: {cutoff: 2.5}
velocity: {temperature: 1.44}
neighbor: {skin: 0.3}
)";

}  // namespace

TEST(ClusterPair, RandomGasMatchesFullList) {
  check_against_full_list(test::params_from_text(kRandomGas), 0);
}

TEST(ClusterPair, BoxNearTwiceTheListCutoffMatchesFullList) {
  const auto p = test::params_from_text(kNearLimit);
  ASSERT_LT(p.box_len(0), 5.7);
  ASSERT_GT(p.box_len(0), 5.6);
  check_against_full_list(p, 0);
}

TEST(ClusterPair, LatticeMatchesFullList) {
  // The perfect lattice (thermo only: its forces vanish), then melted off it by the plain list.
  check_against_full_list(test::params("inputs/lj_melt.yaml"), 0, true);
  check_against_full_list(test::params("inputs/lj_melt.yaml"), 30);
}

TEST(ClusterPair, BinaryMixtureMatchesFullList) {
  // Two types, arithmetic mixing, an explicit A-B pair, shifted: the evaluator's type tables.
  check_against_full_list(test::params("inputs/lj_binary_nvt.yaml"), 30);
}

// Every atom order the engine offers, cells (the GPU default) included: the cluster grid sorts
// whatever order it is given.
TEST(ClusterPair, AnyAtomOrderGivesTheSameThermo) {
  double e0 = 0;
  for (const std::string sort : {"none", "hilbert", "morton", "cells"}) {
    auto e = md::create_engine(
        test::params("inputs/lj_melt.yaml", {"neighbor.list=cluster", "neighbor.sort=" + sort}));
    e->setup();
    const auto st = e->run(40);
    SCOPED_TRACE(sort);
    if (sort == "none")
      e0 = st.last.e_pair;
    else
      EXPECT_LT(rel(st.last.e_pair, e0), 1e-9);
    EXPECT_GT(st.cluster_size, 0);
    EXPECT_GT(st.cluster_pairs_per_icluster, 1.0);
    EXPECT_GT(st.cluster_mask_fill, 0.0);
    EXPECT_LE(st.cluster_mask_fill, 1.0);
  }
}

// As Nve.ConservesEnergyAndMomentumOver10000Steps (test_physics.cpp) on a smaller box (864 atoms,
// side 10.1), with the cluster list and beside the plain list: the drift must be as small as
// the plain list's.
TEST(ClusterPair, NveConservesEnergyOver10000Steps) {
  double drift[3];
  for (int k = 0; k < 3; ++k) {
    auto p = test::params(
        "inputs/lj_melt.yaml",
        {"system.lattice.cells=[6,6,6]", "velocity.temperature=1.44", "potential.shift=true",
         "neighbor.every=1", "neighbor.check=true", "run.thermo=10", "run.precision=double",
         k ? "neighbor.list=cluster" : "neighbor.list=full",
         k == 2 ? "neighbor.cluster_newton=true" : "neighbor.cluster_newton=false"});
    auto engine = md::create_engine(p);
    const ThermoSample t0 = engine->setup();
    test::EnergyDrift track(t0.etotal);
    const auto st = engine->run(10000, &track);
    drift[k] = track.relative();
    EXPECT_GT(st.list_builds, 10);
    EXPECT_EQ(st.dangerous_builds, 0);
    double mom[3];
    engine->total_momentum(mom);
    for (double m : mom) EXPECT_LT(std::abs(m) / engine->natoms(), 1e-10);
  }
  RecordProperty("max_relative_energy_drift_full", fmt::format("{:.3g}", drift[0]));
  RecordProperty("max_relative_energy_drift_cluster", fmt::format("{:.3g}", drift[1]));
  RecordProperty("max_relative_energy_drift_cluster_newton", fmt::format("{:.3g}", drift[2]));
  for (int k = 1; k < 3; ++k) {
    EXPECT_LT(drift[k], 5e-4);
    EXPECT_LT(drift[k], 2 * drift[0]);
  }
}

TEST(ClusterPair, DeckKeysAreValidated) {
  const std::string deck = "inputs/lj_melt.yaml";
  EXPECT_EQ(test::params(deck, {"neighbor.list=cluster"}).cluster_size, 0);
  EXPECT_EQ(test::params(deck, {"neighbor.list=cluster", "neighbor.cluster_size=4"}).cluster_size,
            4);
  auto refused = [&](const std::vector<std::string>& sets, const std::string& says) {
    try {
      test::params(deck, sets);
      ADD_FAILURE() << "accepted: " << sets.back();
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  refused({"neighbor.list=cluster", "neighbor.cluster_size=6"}, "cluster_size");
  refused({"neighbor.list=full", "neighbor.cluster_size=8"}, "cluster_size");
  refused({"neighbor.list=cluster", "remap.mode=dup"}, "remap.mode=gather");
  refused({"neighbor.list=cluster", "remap.reorder=labelprop"}, "reorder");
  refused({"neighbor.list=cluster", "neighbor.layout=row"}, "neighbor.layout");
  refused({"neighbor.list=clusters"}, "cluster");
  refused({"neighbor.list=full", "neighbor.cluster_newton=true"}, "cluster_newton");
  EXPECT_TRUE(
      test::params(deck, {"neighbor.list=cluster", "neighbor.cluster_newton=true"}).cluster_newton);
}

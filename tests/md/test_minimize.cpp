// Minimisation (the deck's `minimize:` section) against LAMMPS (tests/reference/minimize/*.yaml,
// the numbers of `lmp` on the .lmp inputs beside them): FIRE and CG follow LAMMPS' path
// iteration by iteration and reach its minimised energy within 1e-6 per atom (CG on the glass:
// the path to rounding, see cg.yaml); a start with overlapping atoms blows up with a message
// that names them, and runs once minimised.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "comm/runtime.hpp"
#include "md/minimize/minimizer.hpp"
#include "md_test_util.hpp"
#include "mdremap/error.hpp"

using namespace mdremap;
using mdremap::test::params;

namespace {

const std::string kDir = "tests/reference/minimize/";

class MinimizeReference : public ::testing::TestWithParam<std::string> {};

// The energy per atom at every iteration.
struct Path : md::MinimizeObserver {
  std::vector<double> e;
  void iteration(std::int64_t it, double energy, double) override {
    if (static_cast<std::size_t>(it) >= e.size()) e.resize(it + 1);
    e[it] = energy;
  }
};

TEST_P(MinimizeReference, ReachesLammpsMinimumWithin1e6PerAtom) {
  const YAML::Node ref = YAML::LoadFile(test::source_path(kDir + GetParam() + ".yaml"));
  auto sets = ref["set"].as<std::vector<std::string>>();
  sets.push_back("system.file=" + test::source_path(kDir + ref["start"].as<std::string>()));
  const auto e = ref["expect"];
  for (const std::string list : {"full", "half"}) {
    SCOPED_TRACE(GetParam() + " " + list + " list");
    auto s = sets;
    s.push_back("neighbor.list=" + list);
    s.push_back("minimize.thermo=1");
    const md::MdParams p = params(kDir + "deck.yaml", s);
    auto engine = md::create_engine(p);
    engine->setup();
    ThermoSample after;
    Path path;
    const md::MinimizeResult r = engine->minimize(p.minimize, &path, after);
    const auto lammps_path = ref["path"].as<std::vector<double>>(std::vector<double>{});
    const std::size_t every = ref["path_every"].as<std::size_t>(1);
    for (std::size_t k = 0; k < lammps_path.size(); ++k) {
      const std::size_t it = every * (k + 1);
      ASSERT_LT(it, path.e.size());
      EXPECT_NEAR(path.e[it], lammps_path[k], 1e-10) << "iteration " << it;
    }
    RecordProperty(list + "_iterations", std::to_string(r.iterations));
    EXPECT_EQ(md::to_string(r.stop), e["stop"].as<std::string>());
    EXPECT_NEAR(r.e_initial, e["e_initial"].as<double>(), 1e-12);
    EXPECT_NEAR(r.fnorm_initial, e["fnorm_initial"].as<double>(), 1e-4);
    EXPECT_NEAR(r.e_final, e["e_final"].as<double>(), e["e_final_tol"].as<double>(1e-6))
        << "iterations " << r.iterations;
    // LAMMPS' iteration and evaluation counts, as near as the case's rounding allows.
    const double it = e["iterations"].as<double>(), ev = e["evaluations"].as<double>();
    const double tol = e["counts_rtol"].as<double>();
    EXPECT_LE(std::abs(r.iterations - it), tol * it) << r.iterations;
    EXPECT_LE(std::abs(r.evaluations - ev), tol * ev) << r.evaluations;
    // The state the dynamics starts from is the minimised one.
    EXPECT_NEAR(after.e_pair, r.e_final, 1e-12);
  }
}

INSTANTIATE_TEST_SUITE_P(Lammps, MinimizeReference,
                         ::testing::Values("fire", "cg", "crystal_fire", "crystal_cg"),
                         [](const auto& info) { return info.param; });

// A random gas without a minimum distance: atoms sit on each other (E_pair ~1e8 per atom).
const char* kOverlapping = R"(system:
  random: {atoms: 400, density: 0.8, seed: 5}
potential: {style: lj, cutoff: 2.5}
velocity: {temperature: 1.0}
neighbor: {skin: 0.3, every: 1, check: true}
run: {steps: 200, thermo: 50, precision: double}
)";

TEST(Minimize, OverlapBlowUpNamesTheAtomsAndPointsToMinimize) {
  auto engine = md::create_engine(test::params_from_text(kOverlapping));
  const ThermoSample t0 = engine->setup();
  EXPECT_GT(t0.e_pair, 1e4);
  try {
    engine->run(200);
    FAIL() << "a start with overlapping atoms ran 200 steps";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the first forces are huge"), std::string::npos) << what;
    EXPECT_NE(what.find("on atom "), std::string::npos) << what;
    EXPECT_NE(what.find("from atom "), std::string::npos) << what;
    EXPECT_NE(what.find("minimize"), std::string::npos) << what;
  }
}

// CG's line search never moves a coordinate more than dmax; FIRE's dynamics, whose time step
// shrinks only at uphill moves, needs atoms no closer than about 0.5 sigma (forces near 1e5).
TEST(Minimize, OverlappingStartRunsOnceMinimised) {
  for (const std::string style : {"fire", "cg"}) {
    SCOPED_TRACE(style);
    const std::string closest = style == "fire" ? "0.6" : "0";
    const auto p = test::params_from_text(
        kOverlapping,
        {"minimize.style=" + style, "minimize.ftol=1e-3", "system.random.min_distance=" + closest});
    auto engine = md::create_engine(p);
    engine->setup();
    ThermoSample after;
    const md::MinimizeResult r = engine->minimize(p.minimize, nullptr, after);
    EXPECT_GT(r.e_initial, 100.0);  // a liquid has -5
    EXPECT_LT(r.e_final, -5.0);     // a dense LJ glass
    EXPECT_LT(after.e_pair, -5.0);
    const md::RunStats st = engine->run(200);
    EXPECT_TRUE(std::isfinite(st.last.etotal));
    EXPECT_LT(st.last.e_pair, -4.0);
  }
}

TEST(Minimize, DeckRefusesKeysOfTheOtherStyleAndTheRanksExchange) {
  EXPECT_THROW(test::params_from_text(kOverlapping, {"minimize.style=cg", "minimize.delay=5"}),
               InputError);
  EXPECT_THROW(test::params_from_text(kOverlapping, {"minimize.dmax=0"}), InputError);
  EXPECT_THROW(test::params_from_text(kOverlapping, {"minimize.tmin=20"}), InputError);
  EXPECT_THROW(test::params_from_text(kOverlapping, {"minimize.style=bfgs"}), InputError);
  EXPECT_THROW(
      test::params_from_text(kOverlapping, {"minimize.style=fire", "parallel.ghosts=exchange"}),
      InputError);
  EXPECT_FALSE(test::params_from_text(kOverlapping).minimize.enabled);
}

}  // namespace

// Physics checks against references (LAMMPS step-0 thermo), conservation laws, thermostat
// statistics and cross-precision / cross-list agreement.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "md/md_test_util.hpp"

using namespace mdremap;
using mdremap::test::params;
using mdremap::test::rel;

// Reference cases are data (tests/reference/*.yaml): deck, overrides, LAMMPS thermo, tolerance.
// Each file is a case (as LAMMPS' unittest/force-styles YAML files are): the cases are the
// folder's files, and tests/CMakeLists.txt registers a ctest for each, so a new case is a file.
class LammpsReference : public ::testing::TestWithParam<std::string> {};

std::vector<std::string> reference_cases() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(test::source_path("tests/reference")))
    if (e.path().extension() == ".yaml") files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

// The case's name in gtest: the file's stem as a C identifier (CMake's MAKE_C_IDENTIFIER).
std::string case_name(const std::string& file) {
  std::string s = std::filesystem::path(file).stem().string();
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  if (!s.empty() && std::isdigit(static_cast<unsigned char>(s[0]))) s = "_" + s;
  return s;
}

TEST_P(LammpsReference, Step0ThermoMatchesLammpsInDouble) {
  const YAML::Node ref = YAML::LoadFile(test::source_path("tests/reference/" + GetParam()));
  const auto sets = ref["set"].as<std::vector<std::string>>();
  const double rtol = ref["rtol"].as<double>();
  const auto e = ref["expect"];
  // Every list kind, and every atom order (the GPU default is cell order).
  for (const std::string list_sort : {"full hilbert", "half hilbert", "full cells", "half cells",
                                      "half none", "cluster hilbert", "cluster cells"}) {
    const auto space = list_sort.find(' ');
    auto s = sets;
    s.push_back("neighbor.list=" + list_sort.substr(0, space));
    s.push_back("neighbor.sort=" + list_sort.substr(space + 1));
    s.push_back("run.precision=double");
    auto engine = md::create_engine(params(ref["deck"].as<std::string>(), s));
    const ThermoSample t = engine->setup();
    SCOPED_TRACE(GetParam() + " " + list_sort);
    EXPECT_LT(rel(t.temp, e["temp"].as<double>()), rtol);
    EXPECT_LT(rel(t.e_pair, e["e_pair"].as<double>()), rtol) << t.e_pair;
    EXPECT_LT(rel(t.etotal, e["etotal"].as<double>()), rtol) << t.etotal;
    EXPECT_LT(rel(t.press, e["press"].as<double>()), rtol) << t.press;
  }
}

INSTANTIATE_TEST_SUITE_P(Decks, LammpsReference, ::testing::ValuesIn(reference_cases()),
                         [](const auto& info) { return case_name(info.param); });

// Energy shift on, displacement-triggered rebuilds: total energy is conserved by velocity Verlet.
TEST(Nve, ConservesEnergyAndMomentumOver10000Steps) {
  auto p = params("inputs/lj_melt.yaml",
                  {"velocity.temperature=1.44", "potential.shift=true", "neighbor.every=1",
                   "neighbor.check=true", "run.thermo=10", "run.precision=double"});
  auto engine = md::create_engine(p);
  const ThermoSample t0 = engine->setup();
  test::EnergyDrift track(t0.etotal);
  const auto st = engine->run(10000, &track);
  const double drift = track.relative();
  RecordProperty("max_relative_energy_drift", std::to_string(drift));
  EXPECT_LT(drift, 5e-4);
  EXPECT_GT(st.list_builds, 10);      // the displacement trigger fired
  EXPECT_EQ(st.dangerous_builds, 0);  // check=true never lets an atom pass skin/2
  double mom[3];
  engine->total_momentum(mom);
  for (double m : mom) EXPECT_LT(std::abs(m) / engine->natoms(), 1e-10);
}

// WCA (potential.style wca) under NVE: energy and force both reach zero at its cut-off, so
// velocity Verlet sees no truncation jumps; what remains is its shadow energy's O(dt^2) offset
// and fluctuation (the lattice start has no pair energy; the melt's steep repulsion then does).
// So the deviation is bounded (7e-4 of E0 at dt 0.005 when written; bound 2e-3) and, what a
// cut-off error or a wrong force would break, shrinks about fourfold when dt halves.
TEST(Nve, WcaConservesEnergyOver2000Steps) {
  double drift[2];
  for (int h = 0; h < 2; ++h) {
    auto p = test::params_from_text(R"(system:
  lattice: {style: fcc, density: 0.8442, cells: [8, 8, 8]}
potential: {style: wca}
velocity: {temperature: 1.0}
neighbor: {skin: 0.3, every: 1, check: true}
run: {thermo: 10, precision: double}
)",
                                    {h ? "integrator.dt=0.0025" : "integrator.dt=0.005"});
    auto engine = md::create_engine(p);
    const ThermoSample t0 = engine->setup();
    test::EnergyDrift track(t0.etotal);
    const auto st = engine->run(2000, &track);
    EXPECT_GT(st.list_builds, 10);
    EXPECT_EQ(st.dangerous_builds, 0);
    double mom[3];
    engine->total_momentum(mom);
    for (double m : mom) EXPECT_LT(std::abs(m) / engine->natoms(), 1e-10);
    drift[h] = track.relative();
  }
  RecordProperty("max_relative_energy_drift", std::to_string(drift[0]));
  EXPECT_LT(drift[0], 2e-3);
  EXPECT_GT(drift[0] / drift[1], 2.5);  // O(dt^2): 4 when dt halves
}

// Without the shift, the truncated potential's jumps at the cutoff break conservation visibly:
// the same run drifts by much more (LAMMPS's bench TotEng moves 2e-3 in 100 steps).
TEST(Nve, UnshiftedCutoffDriftsMore) {
  auto shifted =
      params("inputs/lj_melt.yaml", {"velocity.temperature=1.44", "potential.shift=true",
                                     "neighbor.every=1", "neighbor.check=true", "run.thermo=10"});
  auto plain = shifted;
  plain.shift = false;
  double drift[2];
  int k = 0;
  for (auto* p : {&shifted, &plain}) {
    auto e = md::create_engine(*p);
    const double e0 = e->setup().etotal;
    test::EnergyDrift track(e0);
    e->run(500, &track);
    drift[k++] = track.relative();
  }
  EXPECT_GT(drift[1], 3 * drift[0]);
}

TEST(Forces, HalfAndFullListsAgree) {
  for (const std::string deck : {"inputs/lj_melt.yaml", "inputs/lj_binary_nvt.yaml"}) {
    auto pf = params(deck, {"neighbor.list=full"});
    auto ph = params(deck, {"neighbor.list=half"});
    auto ef = md::create_engine(pf);
    auto eh = md::create_engine(ph);
    const auto tf = ef->setup();
    const auto th = eh->setup();
    // Move off the lattice so forces are not zero by symmetry.
    ef->run(20);
    eh->run(20);
    const Frame a = ef->snapshot(), b = eh->snapshot();
    SCOPED_TRACE(deck);
    EXPECT_LT(rel(tf.e_pair, th.e_pair), 1e-12);
    EXPECT_LT(rel(tf.press, th.press), 1e-12);
    EXPECT_LT(test::max_force_error(a, b), 1e-9);
  }
}

// A thermostat holds the target: the mean temperature over the second half of the run is within
// a few standard errors. Instantaneous T fluctuates with sigma = T sqrt(2/(3N)); with correlated
// samples we allow 4 sigma of a single sample, which still catches a wrong target or friction.
void check_thermostat(const std::string& style) {
  const double target = 1.2;
  auto p = params("inputs/lj_melt.yaml",
                  {"velocity.temperature=0.8", "integrator.style=" + style,
                   fmt::format("integrator.temperature={}", target), "integrator.damp=0.2",
                   "neighbor.every=1", "neighbor.check=true", "run.thermo=5"});
  auto engine = md::create_engine(p);
  engine->setup();
  engine->run(1500);  // equilibrate from T = 0.8
  struct Mean : md::RunObserver {
    double sum = 0;
    int n = 0;
    void thermo(const ThermoSample& t) override { sum += t.temp, ++n; }
  } mean;
  engine->run(3000, &mean);
  const double tbar = mean.sum / mean.n;
  const double sigma = target * std::sqrt(2.0 / (3.0 * engine->natoms()));
  ::testing::Test::RecordProperty("mean_temperature", std::to_string(tbar));
  EXPECT_NEAR(tbar, target, 4 * sigma) << style;
}

TEST(Thermostat, LangevinHoldsTemperature) {
  check_thermostat("langevin");
}
TEST(Thermostat, NoseHooverHoldsTemperature) {
  check_thermostat("nose-hoover");
}

// Nose-Hoover chains conserve the extended energy E + thermostat terms.
TEST(Thermostat, NoseHooverConservesExtendedEnergy) {
  auto p = params("inputs/lj_melt.yaml",
                  {"velocity.temperature=1.0", "integrator.style=nose-hoover",
                   "integrator.temperature=1.2", "integrator.damp=0.5", "potential.shift=true",
                   "neighbor.every=1", "neighbor.check=true", "run.thermo=10"});
  auto engine = md::create_engine(p);
  const double n = engine->natoms();
  const double h0 = engine->setup().etotal * n + engine->thermostat_energy();
  struct Track : md::RunObserver {
    md::MdEngine* e;
    double n, h0, worst = 0;
    void thermo(const ThermoSample& t) override {
      worst = std::max(worst, std::abs(t.etotal * n + e->thermostat_energy() - h0));
    }
  } track;
  track.e = engine.get();
  track.n = n;
  track.h0 = h0;
  engine->run(2000, &track);
  EXPECT_LT(track.worst / std::abs(h0), 5e-4);
}

// Single and mixed precision against double: same initial state, stated tolerances.
TEST(Precision, SingleAndMixedStayCloseToDouble) {
  auto pd = params("inputs/lj_melt.yaml", {"run.precision=double", "potential.shift=true"});
  auto ed = md::create_engine(pd);
  const auto td = ed->setup();
  ed->run(20);
  const Frame fd = ed->snapshot();
  // Tolerances: float arithmetic on O(10) coordinates and O(1..100) forces.
  struct Case {
    const char* name;
    double thermo_rtol, force_rtol;
  };
  for (const Case c : {Case{"mixed", 2e-6, 2e-4}, Case{"single", 2e-6, 2e-4}}) {
    auto p = params("inputs/lj_melt.yaml",
                    {std::string("run.precision=") + c.name, "potential.shift=true"});
    auto e = md::create_engine(p);
    const auto t = e->setup();
    SCOPED_TRACE(c.name);
    EXPECT_LT(rel(t.e_pair, td.e_pair), c.thermo_rtol);
    EXPECT_LT(rel(t.press, td.press), 10 * c.thermo_rtol);
    e->run(20);
    const Frame f = e->snapshot();
    EXPECT_LT(test::max_force_error(f, fd), c.force_rtol);
  }
  // Energy conservation in single precision over 1000 steps stays at the float level.
  auto ps = params("inputs/lj_melt.yaml",
                   {"run.precision=single", "potential.shift=true", "velocity.temperature=1.44",
                    "neighbor.every=1", "neighbor.check=true", "run.thermo=10"});
  auto es = md::create_engine(ps);
  const double e0 = es->setup().etotal;
  test::EnergyDrift track(e0);
  es->run(1000, &track);
  EXPECT_LT(track.relative(), 2e-3);
}

TEST(Velocity, ExactTemperatureZeroMomentumReproducible) {
  auto p = params("inputs/lj_binary_nvt.yaml");
  auto e1 = md::create_engine(p);
  const auto t = e1->setup();
  EXPECT_NEAR(t.temp, 1.0, 1e-12);
  double mom[3];
  e1->total_momentum(mom);
  for (double m : mom) EXPECT_LT(std::abs(m), 1e-9);
  // Same seed, same velocities, regardless of atom order (shuffled storage).
  auto ps = p;
  ps.shuffle = true;
  auto e2 = md::create_engine(ps);
  e2->setup();
  const Frame a = e1->snapshot(false), b = e2->snapshot(false);
  ASSERT_EQ(a.v.size(), b.v.size());
  for (size_t k = 0; k < a.v.size(); ++k) ASSERT_DOUBLE_EQ(a.v[k], b.v[k]);
}

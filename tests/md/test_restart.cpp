// Restarts are bit-identical (BRIEF section 8): a run of 2N steps in one go (no checkpoint at
// step N) and a run of N steps, a checkpoint file, and N more steps from it end with the same
// bytes in every position, velocity and force, for each integrator and precision, with the
// neighbour list rebuilt on displacement (every 1, check true: LAMMPS' defaults) and on a
// schedule (every 20, check false). Both go through the real path: the run output writes the
// checkpoint, read_checkpoint reads it, restart_engine continues.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "io/checkpoint.hpp"
#include "io/deck.hpp"
#include "io/io_test_util.hpp"
#include "md/md_test_util.hpp"
#include "md/output.hpp"
#include "md/params.hpp"
#include "md/simulation.hpp"
#include "mdremap/error.hpp"

using namespace mdremap;
using mdremap::io::test::TempDir;

namespace {

// 864 atoms from a hot lattice. N = 25 is no multiple of neighbor.every = 20: the checkpoint
// step is not a scheduled rebuild, and with check true the list in use there was built at an
// earlier step. The checkpoint keeps that build, from which the restart builds the same list.
constexpr const char* kDeck = R"(system:
  lattice: {style: fcc, density: 0.8442, cells: [6, 6, 6]}
velocity: {temperature: 1.44}
neighbor: {skin: 0.3}
run: {thermo: 10}
)";
constexpr int kHalf = 25;

// The neighbour-list modes every case runs in (set explicitly: independent of the defaults).
const std::vector<std::string>& neighbor_sets(const std::string& mode) {
  static const std::vector<std::string> check{"neighbor.every=1", "neighbor.check=true"};
  static const std::vector<std::string> every20{"neighbor.every=20", "neighbor.check=false"};
  return mode == "check" ? check : every20;
}

struct Deck {
  md::MdParams p;
  std::string yaml;
};

Deck make_deck(const std::vector<std::string>& sets) {
  auto d = io::Deck::from_string(kDeck, "restart.yaml");
  for (const auto& s : sets) d.apply_override(s);
  Deck out{md::read_md_params(d), ""};
  out.yaml = d.resolved_yaml();
  return out;
}

struct Ran {
  Frame frame;  // the final state ordered by id
  md::RunStats stats;
};

// `steps` steps writing restart.file = `checkpoint` every `every` steps (0: at the end only);
// from `restart` if given.
Ran run(const Deck& deck, std::int64_t steps, const std::string& checkpoint,
        const std::string& restart = "", std::int64_t every = 0) {
  md::MdParams p = deck.p;
  p.steps = steps;
  p.restart_file = checkpoint;
  p.restart_every = every;
  auto engine = restart.empty() ? md::create_engine(p)
                                : md::restart_engine(p, io::read_checkpoint(restart), restart);
  md::RunOutput out(p, *engine, md::OutputInfo{deck.yaml, "test", "openmp", "test"},
                    engine->step() + steps);
  out.start(engine->setup());
  Ran r;
  r.stats = engine->run(steps, &out);
  out.finish();
  EXPECT_EQ(engine->step(), restart.empty() ? steps : 2 * kHalf);
  r.frame = engine->snapshot(true);
  return r;
}

bool same_bytes(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

// integrator, precision, another setting, the neighbour-list mode (check | every20)
using Params = std::tuple<std::string, std::string, std::string, std::string>;

std::vector<std::string> case_sets(const Params& param) {
  const auto& [integrator, precision, extra, mode] = param;
  std::vector<std::string> sets{"integrator.style=" + integrator, "run.precision=" + precision};
  if (integrator != "nve") sets.push_back("integrator.temperature=1.0");
  if (integrator == "npt" || integrator == "c-rescale") sets.push_back("integrator.pressure=2.0");
  if (!extra.empty()) sets.push_back(extra);
  for (const auto& s : neighbor_sets(mode)) sets.push_back(s);
  return sets;
}

class Restart : public ::testing::TestWithParam<Params> {};

TEST_P(Restart, TwoHalvesEqualOneRunBitForBit) {
  const auto& integrator = std::get<0>(GetParam());
  const Deck deck = make_deck(case_sets(GetParam()));
  TempDir dir;
  // The run in one go writes its checkpoint at its end only: nothing happens at step N.
  const Frame whole = run(deck, 2 * kHalf, dir.file("whole.h5")).frame;
  run(deck, kHalf, dir.file("half.h5"));
  const Ran second = run(deck, kHalf, dir.file("resumed.h5"), dir.file("half.h5"));
  const Frame& resumed = second.frame;
  // The resumed half decided list builds of its own (from the checkpointed build on).
  EXPECT_GE(second.stats.list_builds, 1);

  ASSERT_EQ(whole.id, resumed.id);
  EXPECT_TRUE(same_bytes(whole.x, resumed.x)) << "max |dx| " << max_diff(whole.x, resumed.x);
  EXPECT_TRUE(same_bytes(whole.v, resumed.v)) << "max |dv| " << max_diff(whole.v, resumed.v);
  EXPECT_TRUE(same_bytes(whole.f, resumed.f)) << "max |df| " << max_diff(whole.f, resumed.f);
  // The final checkpoints agree too, thermostat state included.
  const io::Checkpoint a = io::read_checkpoint(dir.file("whole.h5"));
  const io::Checkpoint b = io::read_checkpoint(dir.file("resumed.h5"));
  EXPECT_EQ(a.step, 2 * kHalf);
  EXPECT_EQ(b.step, 2 * kHalf);
  EXPECT_TRUE(same_bytes(a.frame.x, b.frame.x));
  // npt's last two values are the first run's span (its ramp), which the halves' first run
  // makes shorter.
  auto state = [&](const io::Checkpoint& c) {
    std::vector<double> v = c.thermostat_state;
    if (integrator == "npt") v.resize(v.size() - 2);
    return v;
  };
  EXPECT_TRUE(same_bytes(state(a), state(b)));
  EXPECT_EQ(a.thermostat_state.empty(), integrator == "nve" || integrator == "langevin");
  // A meaningful comparison: the atoms moved and (thermostats) were kicked.
  const io::Checkpoint mid = io::read_checkpoint(dir.file("half.h5"));
  EXPECT_EQ(mid.step, kHalf);
  EXPECT_FALSE(same_bytes(mid.frame.x, a.frame.x));
}

// The thermo and trajectory intervals decide which steps compute energies
// and which fuse the final kick into the next step's first: neither may change the trajectory.
// The first half and the resumed half here use other intervals than the whole run.
TEST_P(Restart, IndependentOfThermoAndTrajectoryIntervals) {
  const auto sets = case_sets(GetParam());
  TempDir dir;
  const Deck deck = make_deck(sets);
  const Frame whole = run(deck, 2 * kHalf, dir.file("whole.h5")).frame;
  auto other = sets;
  other.push_back("run.thermo=0");
  run(make_deck(other), kHalf, dir.file("half.h5"));
  other.back() = "run.thermo=7";
  other.push_back("output.h5md.file=" + dir.file("resumed.h5md"));
  other.push_back("output.h5md.every=3");
  const Frame resumed =
      run(make_deck(other), kHalf, dir.file("resumed.h5"), dir.file("half.h5")).frame;
  ASSERT_EQ(whole.id, resumed.id);
  EXPECT_TRUE(same_bytes(whole.x, resumed.x)) << "max |dx| " << max_diff(whole.x, resumed.x);
  EXPECT_TRUE(same_bytes(whole.v, resumed.v)) << "max |dv| " << max_diff(whole.v, resumed.v);
  EXPECT_TRUE(same_bytes(whole.f, resumed.f)) << "max |df| " << max_diff(whole.f, resumed.f);
}

// Writing checkpoints (every 7 steps here) leaves the trajectory as it is: the lists are not
// rebuilt for them.
class Checkpoints : public ::testing::TestWithParam<Params> {};

TEST_P(Checkpoints, LeaveTheTrajectoryAlone) {
  const Deck deck = make_deck(case_sets(GetParam()));
  TempDir dir;
  const Frame plain = run(deck, 2 * kHalf, dir.file("plain.h5")).frame;
  const Frame often = run(deck, 2 * kHalf, dir.file("often.h5"), "", 7).frame;
  ASSERT_EQ(plain.id, often.id);
  EXPECT_TRUE(same_bytes(plain.x, often.x)) << "max |dx| " << max_diff(plain.x, often.x);
  EXPECT_TRUE(same_bytes(plain.v, often.v)) << "max |dv| " << max_diff(plain.v, often.v);
  EXPECT_TRUE(same_bytes(plain.f, often.f)) << "max |df| " << max_diff(plain.f, often.f);
}

// A test name's words: alphanumerics, the rest '_'.
std::string name_of(std::string s) {
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}
const auto kModes = ::testing::Values("check", "every20");

// Every name: integrator_precision[_setting]_mode.
std::string case_name(const ::testing::TestParamInfo<Params>& info) {
  const auto& [integrator, precision, extra, mode] = info.param;
  std::string s = integrator + "_" + precision;
  if (!extra.empty()) s += "_" + extra.substr(extra.find('.') + 1);
  return name_of(s + "_" + mode);
}

INSTANTIATE_TEST_SUITE_P(IntegratorsAndPrecisions, Restart,
                         ::testing::Combine(::testing::Values("nve", "langevin", "nose-hoover"),
                                            ::testing::Values("double", "mixed", "single"),
                                            ::testing::Values(""), kModes),
                         case_name);

// Neighbour settings that change what a restart must reproduce: periodic re-sorts (the sort
// step kept with the list's build), a full column-major list, a shuffled start without sorting,
// the cluster-pair list.
INSTANTIATE_TEST_SUITE_P(
    NeighborSettings, Restart,
    ::testing::Combine(::testing::Values("langevin"), ::testing::Values("double"),
                       ::testing::Values("neighbor.sort_every=10", "neighbor.list=full",
                                         "system.shuffle=true", "neighbor.list=cluster"),
                       kModes),
    case_name);

// The barostats: the box and the cell's and chains' state in the checkpoint; the box of the
// list's build is not the checkpoint's.
INSTANTIATE_TEST_SUITE_P(
    Barostats, Restart,
    ::testing::Combine(::testing::Values("npt"), ::testing::Values("double", "mixed", "single"),
                       ::testing::Values("integrator.coupling=iso", "integrator.coupling=aniso"),
                       kModes),
    case_name);
INSTANTIATE_TEST_SUITE_P(StochasticBarostat, Restart,
                         ::testing::Combine(::testing::Values("c-rescale"),
                                            ::testing::Values("double", "mixed", "single"),
                                            ::testing::Values(""), kModes),
                         case_name);

INSTANTIATE_TEST_SUITE_P(
    Integrators, Checkpoints,
    ::testing::Combine(::testing::Values("nve", "langevin", "npt", "c-rescale"),
                       ::testing::Values("double"), ::testing::Values(""), kModes),
    case_name);
INSTANTIATE_TEST_SUITE_P(Precisions, Checkpoints,
                         ::testing::Combine(::testing::Values("nve"),
                                            ::testing::Values("mixed", "single"),
                                            ::testing::Values("", "neighbor.sort_every=10"),
                                            kModes),
                         case_name);

// Another potential through the same pair driver (potential.style wca, recorded in the
// checkpoint's resolved deck).
INSTANTIATE_TEST_SUITE_P(Potentials, Restart,
                         ::testing::Combine(::testing::Values("nve"),
                                            ::testing::Values("double", "single"),
                                            ::testing::Values("potential.style=wca"), kModes),
                         case_name);

// The checkpoint keeps the list's build: with check true the list in use at step N was built at
// an earlier step, from other positions than the checkpoint's (kept in the run's storage
// precision).
TEST(RestartListBuild, CheckpointKeepsTheBuildOfTheListInUse) {
  for (const std::string precision : {"double", "mixed", "single"}) {
    SCOPED_TRACE(precision);
    TempDir dir;
    auto sets = neighbor_sets("check");
    sets.push_back("run.precision=" + precision);
    run(make_deck(sets), kHalf, dir.file("c.h5"));
    const io::Checkpoint c = io::read_checkpoint(dir.file("c.h5"));
    ASSERT_EQ(c.list_x.size(), c.frame.x.size());
    EXPECT_GT(c.list_step, 0);  // rebuilt on displacement in the run
    EXPECT_LT(c.list_step, kHalf);
    EXPECT_FALSE(same_bytes(c.list_x, c.frame.x));
    for (int d = 0; d < 3; ++d) EXPECT_EQ(c.list_box_len[d], c.frame.box_len[d]);
    bool floats = true;
    for (double v : c.list_x) floats = floats && static_cast<double>(static_cast<float>(v)) == v;
    EXPECT_EQ(floats, precision == "single");
  }
}

// A checkpoint written before the list's build was kept (no list_x) still restarts as it did:
// the list built from its positions, as a run that rebuilds its list at that step (an H5MD
// frame with velocities there) goes on.
TEST(RestartListBuild, OldCheckpointWithoutTheBuildRestartsAsBefore) {
  TempDir dir;
  // The runs rebuild their lists at steps N and 2N (H5MD frames with velocities there), as the
  // runs that wrote the checkpoints before the list's build was kept did at checkpoint steps.
  auto sets = neighbor_sets("check");
  sets.push_back("output.h5md.every=" + std::to_string(kHalf));
  sets.push_back("output.h5md.fields=[position,velocity]");
  auto with_h5md = [&](const std::string& name) {
    auto s = sets;
    s.push_back("output.h5md.file=" + dir.file(name));
    return make_deck(s);
  };
  run(with_h5md("half.h5md"), kHalf, dir.file("half.h5"));
  io::Checkpoint c = io::read_checkpoint(dir.file("half.h5"));
  c.list_x.clear();
  io::write_checkpoint(dir.file("old.h5"), c);
  ASSERT_TRUE(io::read_checkpoint(dir.file("old.h5")).list_x.empty());
  const Frame resumed =
      run(with_h5md("resumed.h5md"), kHalf, dir.file("resumed.h5"), dir.file("old.h5")).frame;
  const Frame whole = run(with_h5md("whole.h5md"), 2 * kHalf, dir.file("whole.h5")).frame;
  ASSERT_EQ(whole.id, resumed.id);
  EXPECT_TRUE(same_bytes(whole.x, resumed.x)) << "max |dx| " << max_diff(whole.x, resumed.x);
  EXPECT_TRUE(same_bytes(whole.v, resumed.v)) << "max |dv| " << max_diff(whole.v, resumed.v);
  EXPECT_TRUE(same_bytes(whole.f, resumed.f)) << "max |df| " << max_diff(whole.f, resumed.f);
}

// A checkpoint that does not fit the deck is refused with a one-line error naming the file.
TEST(RestartRefuses, OtherAtomCountPrecisionOrThermostat) {
  TempDir dir;
  const std::string path = dir.file("nh.h5");
  run(make_deck({"integrator.style=nose-hoover", "integrator.temperature=1.0"}), 5, path);
  const io::Checkpoint c = io::read_checkpoint(path);
  auto expect_refused = [&](const std::vector<std::string>& sets, const std::string& words) {
    try {
      md::restart_engine(make_deck(sets).p, c, path);
      ADD_FAILURE() << "accepted: " << words;
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind(path + ": ", 0), 0u) << msg;
      EXPECT_NE(msg.find(words), std::string::npos) << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
  };
  const std::vector<std::string> nh{"integrator.style=nose-hoover", "integrator.temperature=1.0"};
  auto with = [&](std::vector<std::string> sets, const std::string& s) {
    sets.push_back(s);
    return sets;
  };
  expect_refused(with(nh, "system.lattice.cells=[7,7,7]"),
                 "holds 864 atoms, the deck describes 1372");
  expect_refused(with(nh, "run.precision=single"), "precision double, the run asks for single");
  expect_refused({}, "does not fit the deck's integrator");
  expect_refused(with(nh, "integrator.chain=2"), "does not fit the deck's integrator");
}

// Checkpoints written before the integrators kept their own state still restart, and continue
// to the thermo the old code printed (tests/md/data/legacy_checkpoints.yaml). Without the
// thermostat values or the checkpoint's noise seed the same restart must miss those numbers.
TEST(LegacyCheckpoint, RestartsToTheThermoTheOldCodePrinted) {
  const YAML::Node data =
      YAML::LoadFile(test::source_path("tests/md/data/legacy_checkpoints.yaml"));
  const double rtol = data["rtol"].as<double>();
  for (const auto& c : data["cases"]) {
    const std::string path = test::source_path(c["checkpoint"].as<std::string>());
    SCOPED_TRACE(path);
    md::MdParams p =
        test::params(data["deck"].as<std::string>(), c["set"].as<std::vector<std::string>>());
    const auto e = c["expect"];
    auto continue_from = [&](const io::Checkpoint& ck) {
      auto engine = md::restart_engine(p, ck, path);
      engine->setup();
      const auto st = engine->run(c["steps"].as<int>());
      EXPECT_EQ(st.last.step, e["step"].as<std::int64_t>());
      return st.last;
    };
    const io::Checkpoint ck = io::read_checkpoint(path);
    const ThermoSample t = continue_from(ck);
    for (const auto& [name, value] : {std::pair{"temp", t.temp}, std::pair{"e_pair", t.e_pair},
                                      std::pair{"ke", t.ke}, std::pair{"press", t.press}})
      EXPECT_LT(test::rel(value, e[name].as<double>()), rtol) << name << " " << value;
    // The negative control: the integrator's state dropped (thermostat values zeroed, or the
    // deck's seed instead of the checkpoint's) changes the continuation visibly.
    io::Checkpoint lost = ck;
    if (lost.thermostat_state.empty())
      lost.rng_seed = p.integrator.keys.seed("seed");
    else
      std::fill(lost.thermostat_state.begin(), lost.thermostat_state.end(), 0.0);
    const ThermoSample u = continue_from(lost);
    EXPECT_GT(test::rel(u.temp, e["temp"].as<double>()), 1e-4) << u.temp;
  }
}

}  // namespace

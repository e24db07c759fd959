// Trajectories and checkpoints written by an MD run, read back independently of the
// writers: H5MD through the HDF5 C API and through h5py/MDAnalysis, VTK frames through
// vtkXMLPolyDataReader, checkpoints through read_checkpoint. Values are compared exactly with
// the engine's own snapshots at the same steps.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "h5_test_util.hpp"
#include "io/background_writer.hpp"
#include "io/checkpoint.hpp"
#include "io/deck.hpp"
#include "io_test_util.hpp"
#include "md/output.hpp"
#include "md/params.hpp"
#include "md/simulation.hpp"
#include "mdremap/error.hpp"
#include "require.hpp"

#if MDREMAP_HAS_VTK
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkXMLPolyDataReader.h>
#endif

namespace mdremap::md {
namespace {

using io::test::H5;
using io::test::read_all;
using io::test::read_attr;
using io::test::read_string_attr;
using io::test::shape;
using io::test::TempDir;

// 864 atoms, Langevin so forces carry thermostat terms; 40 steps, frames every 10.
constexpr const char* kDeck = R"(system:
  lattice: {style: fcc, density: 0.8442, cells: [6, 6, 6]}
integrator: {style: langevin, temperature: 1.0, seed: 99}
run: {steps: 40, thermo: 20}
)";

struct Case {
  MdParams p;
  std::string yaml;  // resolved deck
};

Case make_case(const std::vector<std::string>& sets) {
  auto d = io::Deck::from_string(kDeck, "test.yaml");
  for (const auto& s : sets) d.apply_override(s);
  Case c{read_md_params(d), ""};
  c.yaml = d.resolved_yaml();
  return c;
}

// The engine's own view at the first and the last step, ordered by id.
struct Result {
  Frame first, last;
  ThermoSample t0, t_end;
  std::int64_t frames = 0;
};

// One run as `mdremap md` does it; finish = false stands for a run that died.
Result run(const Case& c, bool finish = true) {
  auto engine = create_engine(c.p);
  RunOutput out(c.p, *engine, OutputInfo{c.yaml, "test-version", "openmp", "Test Author"},
                c.p.steps);
  Result r;
  r.t0 = engine->setup();
  r.first = engine->snapshot(true);
  out.start(r.t0);
  r.t_end = engine->run(c.p.steps, &out).last;
  r.last = engine->snapshot(true);
  if (finish) out.finish();
  r.frames = out.frames();
  return r;
}

std::string read_string_dataset(hid_t file, const std::string& path) {
  H5 set{H5Dopen2(file, path.c_str(), H5P_DEFAULT), H5Dclose};
  EXPECT_GE(set.id, 0) << path;
  if (set.id < 0) return {};
  H5 type{H5Dget_type(set.id), H5Tclose};
  std::vector<char> buf(H5Tget_size(type.id) + 1, '\0');
  H5Dread(set.id, type.id, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data());
  return std::string(buf.data());
}

std::vector<double> frame_slice(const std::vector<double>& all, std::size_t frame,
                                std::size_t per_frame) {
  return std::vector<double>(all.begin() + frame * per_frame,
                             all.begin() + (frame + 1) * per_frame);
}

TEST(MdOutput, H5mdFromARunReadsBackWithTheHdf5Api) {
  TempDir dir;
  const std::string path = dir.file("traj.h5");
  const Case c = make_case({"output.h5md.file=" + path, "output.h5md.every=10",
                            "output.h5md.fields=[position, velocity, force, species, id]"});
  const Result r = run(c);
  const std::size_t n = r.first.n();
  const std::size_t frames = 5;  // steps 0, 10, 20, 30, 40
  EXPECT_EQ(r.frames, static_cast<std::int64_t>(frames));

  H5 file{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
  ASSERT_GE(file.id, 0);
  const hid_t f = file.id;
  // Structure: H5MD 1.1 header, box, per-atom time series, observables, parameters.
  EXPECT_EQ(read_attr<int>(f, "h5md", "version", H5T_NATIVE_INT), (std::vector<int>{1, 1}));
  EXPECT_EQ(read_string_attr(f, "h5md/author", "name"), std::vector<std::string>{"Test Author"});
  EXPECT_EQ(read_string_attr(f, "h5md/creator", "name"), std::vector<std::string>{"mdremap"});
  EXPECT_EQ(read_string_attr(f, "h5md/creator", "version"),
            std::vector<std::string>{"test-version"});
  EXPECT_EQ(read_attr<int>(f, "particles/all/box", "dimension", H5T_NATIVE_INT),
            std::vector<int>{3});
  EXPECT_EQ(read_string_attr(f, "particles/all/box", "boundary"),
            (std::vector<std::string>{"periodic", "periodic", "periodic"}));
  EXPECT_EQ(shape(f, "particles/all/box/edges/value"), (std::vector<hsize_t>{frames, 3, 3}));
  const auto edges = read_all<double>(f, "particles/all/box/edges/value", H5T_NATIVE_DOUBLE);
  for (int d = 0; d < 3; ++d) EXPECT_EQ(edges[4 * d], c.p.box_len(d));
  for (const char* name : {"position", "velocity", "force"})
    EXPECT_EQ(shape(f, std::string("particles/all/") + name + "/value"),
              (std::vector<hsize_t>{frames, n, 3}))
        << name;
  EXPECT_EQ(shape(f, "particles/all/species/value"), (std::vector<hsize_t>{frames, n}));
  const auto steps = read_all<std::int64_t>(f, "particles/all/position/step", H5T_NATIVE_INT64);
  EXPECT_EQ(steps, (std::vector<std::int64_t>{0, 10, 20, 30, 40}));
  const auto times = read_all<double>(f, "particles/all/position/time", H5T_NATIVE_DOUBLE);
  for (std::size_t k = 0; k < frames; ++k) EXPECT_DOUBLE_EQ(times[k], steps[k] * c.p.dt);

  // Values: rows in id order, equal to the engine's snapshots at steps 0 and 40.
  const auto pos = read_all<double>(f, "particles/all/position/value", H5T_NATIVE_DOUBLE);
  const auto vel = read_all<double>(f, "particles/all/velocity/value", H5T_NATIVE_DOUBLE);
  const auto frc = read_all<double>(f, "particles/all/force/value", H5T_NATIVE_DOUBLE);
  EXPECT_EQ(frame_slice(pos, 0, 3 * n), r.first.x);
  EXPECT_EQ(frame_slice(vel, 0, 3 * n), r.first.v);
  EXPECT_EQ(frame_slice(pos, frames - 1, 3 * n), r.last.x);
  EXPECT_EQ(frame_slice(vel, frames - 1, 3 * n), r.last.v);
  EXPECT_EQ(frame_slice(frc, frames - 1, 3 * n), r.last.f);
  EXPECT_NE(frame_slice(pos, 1, 3 * n), r.first.x);  // atoms moved
  const auto ids = read_all<std::int64_t>(f, "particles/all/id/value", H5T_NATIVE_INT64);
  std::vector<std::int64_t> want_ids(n);
  std::iota(want_ids.begin(), want_ids.end(), std::int64_t{1});  // a lattice numbers 1..N
  EXPECT_EQ(std::vector<std::int64_t>(ids.end() - n, ids.end()), want_ids);
  const auto species = read_all<std::int32_t>(f, "particles/all/species/value", H5T_NATIVE_INT32);
  EXPECT_EQ(std::vector<std::int32_t>(species.begin(), species.begin() + n), r.first.type);

  // Observables at the frames' steps (MDAnalysis reads them by frame index).
  for (const char* name :
       {"temperature", "potential_energy", "kinetic_energy", "total_energy", "pressure"})
    EXPECT_EQ(shape(f, std::string("observables/") + name + "/value"), std::vector<hsize_t>{frames})
        << name;
  EXPECT_EQ(read_all<std::int64_t>(f, "observables/temperature/step", H5T_NATIVE_INT64), steps);
  const auto temp = read_all<double>(f, "observables/temperature/value", H5T_NATIVE_DOUBLE);
  const auto etot = read_all<double>(f, "observables/total_energy/value", H5T_NATIVE_DOUBLE);
  EXPECT_EQ(temp.front(), r.t0.temp);
  EXPECT_EQ(temp.back(), r.t_end.temp);
  EXPECT_EQ(etot.back(), r.t_end.etotal);

  // Parameters: units, dt, the full resolved deck, the completion marker.
  EXPECT_EQ(read_string_attr(f, "parameters", "units"), std::vector<std::string>{"lj"});
  EXPECT_EQ(read_attr<double>(f, "parameters", "dt", H5T_NATIVE_DOUBLE),
            std::vector<double>{c.p.dt});
  EXPECT_EQ(read_attr<int>(f, "parameters", "mdremap_complete", H5T_NATIVE_INT),
            std::vector<int>{1});
  const std::string deck = read_string_dataset(f, "parameters/mdremap_deck");
  EXPECT_EQ(deck, c.yaml);
  EXPECT_NE(deck.find("every: 10"), std::string::npos) << deck;
}

TEST(MdOutput, RunThatDiesLeavesReadableIncompleteTrajectory) {
  TempDir dir;
  const std::string path = dir.file("traj.h5");
  const Case c = make_case({"output.h5md.file=" + path, "output.h5md.every=20"});
  run(c, /*finish=*/false);
  // Not completed: the target name is not taken; the frames so far are in PATH.partial.
  EXPECT_FALSE(std::filesystem::exists(path));
  const std::string partial = path + ".partial";
  H5 file{H5Fopen(partial.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
  ASSERT_GE(file.id, 0);
  EXPECT_EQ(read_attr<int>(file.id, "parameters", "mdremap_complete", H5T_NATIVE_INT),
            std::vector<int>{0});
  EXPECT_EQ(shape(file.id, "particles/all/position/value")[0], 3u);  // steps 0, 20, 40
}

TEST(MdOutput, CheckpointHoldsTheStateInSlotOrder) {
  TempDir dir;
  const std::string path = dir.file("restart.h5");
  const Case c = make_case({"restart.file=" + path, "restart.every=25"});
  const Result r = run(c);
  const io::Checkpoint ck = io::read_checkpoint(path);  // the last one: step 40
  EXPECT_EQ(ck.step, 40);
  EXPECT_EQ(ck.frame.step, 40);
  EXPECT_EQ(ck.precision, "double");
  EXPECT_EQ(ck.backend, "openmp");
  EXPECT_EQ(ck.deck_yaml, c.yaml);
  EXPECT_EQ(ck.rng_seed, 99u);
  EXPECT_EQ(ck.rng_counter, 40u);
  EXPECT_TRUE(ck.thermostat_state.empty());  // Langevin: counter-based noise, no state
  const std::size_t n = r.last.n();
  ASSERT_EQ(ck.frame.n(), n);
  bool slot_order = false;
  for (std::size_t i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(ck.frame.id[i]);
    slot_order |= k != i;  // hilbert-sorted at setup: not id order
    for (int d = 0; d < 3; ++d) {
      ASSERT_EQ(ck.frame.x[3 * i + d], r.last.x[3 * k + d]);
      ASSERT_EQ(ck.frame.v[3 * i + d], r.last.v[3 * k + d]);
      ASSERT_EQ(ck.frame.f[3 * i + d], r.last.f[3 * k + d]);
    }
    ASSERT_EQ(ck.frame.type[i], r.last.type[k]);
  }
  EXPECT_TRUE(slot_order);
}

// Image counts follow the wraps: x + image * L changes from one snapshot to the next by the
// minimum-image displacement (snapshots close enough that no atom moves half a box between).
TEST(MdOutput, ImageCountsUnwrapTheTrajectory) {
  const Case c = make_case(
      {"system.lattice.cells=[4, 4, 4]", "velocity.temperature=3.0", "integrator.temperature=3.0"});
  auto engine = create_engine(c.p);
  engine->setup();
  Frame prev = engine->snapshot(false);
  const std::size_t n = prev.n();
  ASSERT_EQ(prev.image.size(), 3 * n);
  std::int64_t crossed = 0;
  for (int k = 0; k < 40; ++k) {
    engine->run(5);
    const Frame now = engine->snapshot(false);
    for (std::size_t i = 0; i < 3 * n; ++i) {
      const double len = now.box_len[i % 3];
      double dx = now.x[i] - prev.x[i];
      dx -= len * std::nearbyint(dx / len);
      const double du = (now.x[i] + now.image[i] * len) - (prev.x[i] + prev.image[i] * len);
      ASSERT_NEAR(du, dx, 1e-9) << "atom " << i / 3 << " axis " << i % 3 << " step " << now.step;
    }
    prev = now;
  }
  for (auto im : prev.image) crossed += im != 0;
  EXPECT_GT(crossed, 10);  // the test saw atoms cross the box
}

// A checkpoint keeps the image counts: a restarted run has the uninterrupted run's.
TEST(MdOutput, ImageCountsSurviveARestart) {
  TempDir dir;
  const std::string path = dir.file("restart.h5");
  const std::vector<std::string> hot = {"system.lattice.cells=[4, 4, 4]",
                                        "velocity.temperature=3.0", "integrator.temperature=3.0"};
  std::vector<std::string> with_restart = hot;
  with_restart.push_back("restart.file=" + path);
  with_restart.push_back("run.steps=20");
  const Case half = make_case(with_restart);
  run(half);
  std::vector<std::string> whole_sets = hot;
  whole_sets.push_back("run.steps=40");
  const Result whole = run(make_case(whole_sets));
  const io::Checkpoint ck = io::read_checkpoint(path);
  ASSERT_EQ(ck.frame.image.size(), 3 * ck.frame.n());
  Case rest = make_case(hot);
  auto engine = restart_engine(rest.p, ck, path);
  engine->setup();
  engine->run(20);
  const Frame end = engine->snapshot(false);
  EXPECT_EQ(end.image, whole.last.image);
  EXPECT_EQ(end.x, whole.last.x);
  std::int64_t crossed = 0;
  for (auto im : end.image) crossed += im != 0;
  EXPECT_GT(crossed, 0);
}

// The H5MD file holds what analyses need: image, per-atom mass, species names, LJ units.
TEST(MdOutput, H5mdHoldsImagesMassesNamesAndUnits) {
  TempDir dir;
  const std::string path = dir.file("traj.h5");
  const Case c = make_case({"output.h5md.file=" + path, "output.h5md.every=20",
                            "output.h5md.fields=[position, species, id, image]",
                            "system.types=[{name: Ar, mass: 1.0, fraction: 0.75}, "
                            "{name: Kr, mass: 2.5, fraction: 0.25}]"});
  const Result r = run(c);
  const std::size_t n = r.last.n();
  H5 file{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
  ASSERT_GE(file.id, 0);
  const auto image = read_all<std::int32_t>(file.id, "particles/all/image/value", H5T_NATIVE_INT32);
  ASSERT_EQ(image.size(), 3 * 3 * n);  // steps 0, 20, 40
  EXPECT_EQ(std::vector<std::int32_t>(image.end() - 3 * n, image.end()), r.last.image);
  const auto mass = read_all<double>(file.id, "particles/all/mass", H5T_NATIVE_DOUBLE);
  ASSERT_EQ(mass.size(), n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(mass[i], r.last.type[i] == 0 ? 1.0 : 2.5);
  EXPECT_EQ(read_string_attr(file.id, "particles/all/species", "names"),
            (std::vector<std::string>{"Ar", "Kr"}));
  EXPECT_EQ(read_string_attr(file.id, "h5md/modules/units", "system"),
            std::vector<std::string>{"lj"});
  EXPECT_EQ(read_string_attr(file.id, "particles/all/box/edges/value", "unit"),
            std::vector<std::string>{"sigma"});
  EXPECT_EQ(read_string_attr(file.id, "observables/pressure/value", "unit"),
            std::vector<std::string>{"epsilon sigma-3"});
}

TEST(MdOutput, UnwritablePathsAreInputErrorsNamingTheKey) {
  const Case c = make_case({"output.h5md.file=/nonexistent-dir/t.h5"});
  try {
    check_output_paths(c.p);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("output.h5md.file"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
  }
  EXPECT_THROW(check_output_paths(make_case({"restart.file=/nonexistent-dir/r.h5"}).p), InputError);
  EXPECT_THROW(check_output_paths(make_case({"output.thermo_csv=/nonexistent-dir/t.csv"}).p),
               InputError);
}

TEST(MdOutput, DeckRejectsUnknownH5mdField) {
  try {
    make_case({"output.h5md.fields=[position, charge]"});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("output.h5md.fields"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("charge"), std::string::npos) << e.what();
  }
}

// A deck asking for VTK output is refused by a build without VTK, with the reason.
TEST(MdOutput, VtkOutputNeedsAVtkBuild) {
#if MDREMAP_HAS_VTK
  EXPECT_EQ(make_case({"output.vtk.dir=/tmp"}).p.vtk_dir, "/tmp");
#else
  try {
    make_case({"output.vtk.dir=/tmp"});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("built without VTK"), std::string::npos) << e.what();
  }
#endif
}

TEST(BackgroundWriter, RunsJobsInOrderAndRethrowsTheFirstError) {
  io::BackgroundWriter w(1);
  std::vector<int> done;
  for (int k = 0; k < 5; ++k) w.submit([&done, k] { done.push_back(k); });
  w.finish();
  EXPECT_EQ(done, (std::vector<int>{0, 1, 2, 3, 4}));
  w.submit([] { throw Error("disk full"); });
  try {
    w.submit([&done] { done.push_back(99); });  // queued (then dropped) or refused
  } catch (const Error&) {
  }
  EXPECT_THROW(w.finish(), Error);
  EXPECT_THROW(w.submit([] {}), Error);  // sticky: nothing runs after a failure
  EXPECT_EQ(done.size(), 5u);
}

// The engine-produced file opens in h5py and MDAnalysis (Debian python3-mdanalysis,
// convert_units=False: the file is in reduced LJ units); tests/require.hpp finds them.
const char* const kScript = R"PY(
import sys
import numpy as np
import h5py
from MDAnalysis.coordinates.H5MD import H5MDReader
import MDAnalysis as mda

path, n_atoms, n_frames = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with h5py.File(path, "r") as f:
    pos = f["particles/all/position/value"][()]
    vel = f["particles/all/velocity/value"][()]
    steps = f["particles/all/position/step"][()]
    temp = f["observables/temperature/value"][()]
    box = f["particles/all/box/edges/value"][0].diagonal()
    assert pos.shape == (n_frames, n_atoms, 3), pos.shape
    assert temp.shape == (n_frames,)
    assert f["parameters"].attrs["mdremap_complete"] == 1
    assert "integrator:" in f["parameters/mdremap_deck"][()].decode()
r = H5MDReader(path, convert_units=False)
assert r.n_frames == n_frames and r.n_atoms == n_atoms, (r.n_frames, r.n_atoms)
for k, ts in enumerate(r):
    assert np.allclose(ts.positions, pos[k], rtol=1e-6, atol=1e-5)  # float32 in MDAnalysis
    assert np.allclose(ts.velocities, vel[k], rtol=1e-6, atol=1e-6)
    assert np.allclose(ts.dimensions[:3], box) and ts.data["step"] == steps[k]
    assert abs(ts.data["temperature"] - temp[k]) < 1e-12
u = mda.Universe.empty(n_atoms, trajectory=False)
u.load_new(path, format="H5MD", convert_units=False)
assert len(u.trajectory) == n_frames
print("OK MDAnalysis", mda.__version__, "frames", n_frames, "atoms", n_atoms)
)PY";

TEST(MdOutput, EngineTrajectoryOpensInH5pyAndMDAnalysis) {
  const auto python_tool =
      mdremap::test::python_with("MDAnalysis, h5py", "python3-mdanalysis python3-h5py");
  MDREMAP_REQUIRE(python_tool);
  const std::string& python = python_tool.path;
  TempDir dir;
  const std::string path = dir.file("traj.h5md");
  const Case c = make_case({"output.h5md.file=" + path, "output.h5md.every=10",
                            "output.h5md.fields=[position, velocity, force, species, id]"});
  const Result r = run(c);
  const std::string script = dir.file("check.py");
  std::ofstream(script) << kScript;
  const std::string log = dir.file("python.log");
  const int rc =
      io::test::run_shell(io::test::shell_quote(python) + " " + io::test::shell_quote(script) +
                          " " + io::test::shell_quote(path) + " " + std::to_string(r.first.n()) +
                          " 5 >" + io::test::shell_quote(log) + " 2>&1");
  std::ifstream in(log);
  const std::string output((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(rc, 0) << output;
  EXPECT_NE(output.find("OK MDAnalysis"), std::string::npos) << output;
  std::cout << "[ python   ] " << output;
}

#if MDREMAP_HAS_VTK
TEST(MdOutput, VtkFrameFromARunReadsBackWithVtkXMLPolyDataReader) {
  TempDir dir;
  const Case c = make_case({"output.vtk.dir=" + dir.path().string(), "output.vtk.every=20"});
  const Result r = run(c);
  EXPECT_EQ(r.frames, 3);  // steps 0, 20, 40
  const std::size_t n = r.last.n();
  vtkNew<vtkXMLPolyDataReader> reader;
  reader->SetFileName(dir.file("traj_40.vtp").c_str());
  reader->Update();
  vtkPolyData* poly = reader->GetOutput();
  ASSERT_EQ(poly->GetNumberOfPoints(), static_cast<vtkIdType>(n));
  ASSERT_EQ(poly->GetNumberOfVerts(), static_cast<vtkIdType>(n));
  vtkPointData* pd = poly->GetPointData();
  vtkDataArray* ids = pd->GetArray("id");
  vtkDataArray* types = pd->GetArray("type");
  vtkDataArray* vel = pd->GetArray("velocity");
  vtkDataArray* frc = pd->GetArray("force");
  ASSERT_TRUE(ids && types && vel && frc);
  ASSERT_EQ(vel->GetNumberOfComponents(), 3);
  // Points in id order (a lattice's ids 1..N), equal to the engine's state at step 40.
  for (vtkIdType k = 0; k < static_cast<vtkIdType>(n); ++k) {
    ASSERT_EQ(ids->GetComponent(k, 0), static_cast<double>(k + 1));
    ASSERT_EQ(types->GetComponent(k, 0), r.last.type[k]);
    double p[3];
    poly->GetPoint(k, p);
    for (int d = 0; d < 3; ++d) {
      ASSERT_EQ(p[d], r.last.x[3 * k + d]) << k;
      ASSERT_EQ(vel->GetComponent(k, d), r.last.v[3 * k + d]) << k;
      ASSERT_EQ(frc->GetComponent(k, d), r.last.f[3 * k + d]) << k;
    }
  }
  std::ifstream pvd(dir.file("traj.pvd"));
  const std::string text((std::istreambuf_iterator<char>(pvd)), std::istreambuf_iterator<char>());
  for (const char* frame : {"traj_0.vtp", "traj_20.vtp", "traj_40.vtp"})
    EXPECT_NE(text.find(frame), std::string::npos) << text;
}
#endif

}  // namespace
}  // namespace mdremap::md

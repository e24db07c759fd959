// The H5MD file opens in h5py and MDAnalysis (BRIEF section 8: "readable by h5py and
// MDAnalysis"). Skipped when no Python with both modules is found.
//
// MDAnalysis 2.4.2 (Debian 12) notes, checked by hand and (the working forms) here:
//  - mda.Universe(file) alone builds no topology from an H5MD file: its minimal-topology path
//    hard-codes particles/trajectory (ours is particles/all, as BRIEF section 8 asks) and needs
//    units it knows, and passing convert_units=False there raises TypeError in
//    H5MDReader.parse_n_atoms. With a topology it opens: the run writes one as a GSD file
//    (output.h5md.topology; test_particle_file_python.cpp's MDAnalysis case), or
//      u = mda.Universe.empty(n_atoms); u.load_new(file, format="H5MD", convert_units=False)
//    or MDAnalysis.coordinates.H5MD.H5MDReader(file, convert_units=False), as here.
//  - convert_units must be False: reduced LJ units are none MDAnalysis knows.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "io/h5md_writer.hpp"
#include "io_test_util.hpp"
#include "require.hpp"

namespace mdremap::io {
namespace {

using test::random_frame;
using test::run_shell;
using test::shell_quote;
using test::TempDir;

const char* const kScript = R"PY(
import sys
import numpy as np
import h5py
import MDAnalysis as mda
from MDAnalysis.coordinates.H5MD import H5MDReader

path, n_atoms, n_frames = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
box = [float(b) for b in sys.argv[4:7]]

with h5py.File(path, "r") as f:
    assert list(f["h5md"].attrs["version"]) == [1, 1]
    assert f["h5md/author"].attrs["name"] == b"Test Author"
    assert f["h5md/creator"].attrs["name"] == b"mdremap"
    assert f["particles/all/box"].attrs["dimension"] == 3
    assert [b.decode() for b in f["particles/all/box"].attrs["boundary"]] == ["periodic"] * 3
    pos = f["particles/all/position/value"][()]
    assert pos.shape == (n_frames, n_atoms, 3), pos.shape
    ids = f["particles/all/id/value"][()]
    assert (ids == np.arange(n_atoms)).all(), "atoms must be ordered by id"
    steps = f["particles/all/position/step"][()]
    times = f["particles/all/position/time"][()]
    temp = f["observables/temperature/value"][()]
    assert temp.shape == (n_frames,)
    deck = f["parameters/mdremap_deck"][()].decode()
    assert "lattice: fcc" in deck
    assert f["parameters"].attrs["units"] == b"lj"

r = H5MDReader(path, convert_units=False)
assert r.n_frames == n_frames and r.n_atoms == n_atoms
for k, ts in enumerate(r):
    assert np.allclose(ts.positions, pos[k], rtol=1e-6, atol=1e-6)   # float32 in MDAnalysis
    assert np.allclose(ts.dimensions, box + [90, 90, 90]), ts.dimensions
    assert ts.data["step"] == steps[k] and abs(ts.time - times[k]) < 1e-12
    assert abs(ts.data["temperature"] - temp[k]) < 1e-12
    assert ts.has_velocities and ts.has_forces

u = mda.Universe.empty(n_atoms, trajectory=False)
u.load_new(path, format="H5MD", convert_units=False)
assert len(u.trajectory) == n_frames
u.trajectory[-1]
assert np.allclose(u.atoms.positions, pos[-1], rtol=1e-6, atol=1e-6)
print("OK MDAnalysis", mda.__version__, "h5py", h5py.__version__)
)PY";

TEST(H5mdPython, OpensInH5pyAndMDAnalysis) {
  const auto python_tool =
      mdremap::test::python_with("MDAnalysis, h5py", "python3-mdanalysis python3-h5py");
  MDREMAP_REQUIRE(python_tool);
  const std::string& python = python_tool.path;
  TempDir dir;
  const std::string path = dir.file("traj.h5");
  const std::size_t n = 23;
  H5mdOptions o;
  o.author = "Test Author";
  o.creator_name = "mdremap";
  o.creator_version = "0.1.0";
  o.deck_yaml = "system:\n  lattice: fcc\n";
  o.dt = 0.005;
  o.n_atoms = n;
  o.fields = H5mdFields{true, true, true, true, true};
  {
    H5mdWriter w(path, o);
    for (int k = 0; k < 3; ++k) {
      w.write_frame(random_frame(n, 40 + k, 100 * k));
      ThermoSample s;
      s.step = 100 * k;
      s.time = 0.5 * k;
      s.temp = 0.7 + k;
      w.write_observables(s);
    }
    w.close();
  }
  const Frame ref = random_frame(n, 40, 0);
  const std::string script = dir.file("check_h5md.py");
  std::ofstream(script) << kScript;
  const std::string log = dir.file("python.log");
  std::string cmd = shell_quote(python) + " " + shell_quote(script) + " " + shell_quote(path) +
                    " " + std::to_string(n) + " 3";
  for (double b : ref.box_len) cmd += " " + std::to_string(b);
  const int rc = run_shell(cmd + " >" + shell_quote(log) + " 2>&1");
  std::ifstream in(log);
  const std::string output((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(rc, 0) << output;
  EXPECT_NE(output.find("OK MDAnalysis"), std::string::npos) << output;
  std::cout << "[ python   ] " << output;
}

}  // namespace
}  // namespace mdremap::io

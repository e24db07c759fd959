// system.file readers on files the tools write (python3-gsd, ASE, MDAnalysis, LAMMPS'
// write_data), and this program's GSD and H5MD outputs read by the tools (python3-gsd,
// MDAnalysis with a GSD topology). A case skips with the install hint where its tool is missing
// (tools/setup.sh installs them all).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/gsd_writer.hpp"
#include "io/h5md_writer.hpp"
#include "io/particle_file.hpp"
#include "io_test_util.hpp"
#include "require.hpp"

namespace mdremap::io {
namespace {

using test::run_shell;
using test::shell_quote;
using test::TempDir;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Runs `script` (written to dir) with `python` and arguments; returns its output, failing the
// test on a non-zero exit.
std::string run_python(const std::string& python, const TempDir& dir, const std::string& script,
                       const std::string& args) {
  const std::string file = dir.file("script.py");
  std::ofstream(file) << script;
  const std::string log = dir.file("python.log");
  const int rc = run_shell(shell_quote(python) + " -W ignore " + shell_quote(file) + " " + args +
                           " >" + shell_quote(log) + " 2>&1");
  const std::string out = slurp(log);
  EXPECT_EQ(rc, 0) << out;
  return out;
}

// Whitespace-separated numbers of a text file.
std::vector<double> numbers(const std::string& path) {
  std::ifstream in(path);
  std::vector<double> v;
  for (double x; in >> x;) v.push_back(x);
  return v;
}

const char* const kGsdWrite = R"PY(
import sys, numpy as np, gsd.hoomd
out, expect = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(4)
n = 5
frames = []
for k in range(3):
    s = gsd.hoomd.Snapshot()
    s.configuration.step = 1000 + 10 * k
    s.configuration.box = [4.0, 5.0, 6.0, 0, 0, 0]
    s.particles.N = n
    if k == 0:  # attributes in frame 0 only: later frames take them from it
        s.particles.types = ['Ar', 'Kr']
        s.particles.typeid = [0, 1, 1, 0, 1]
        s.particles.mass = [1.0, 2.0, 2.0, 1.0, 2.0]
    s.particles.position = (rng.random((n, 3)) - 0.5) * [4.0, 5.0, 6.0]
    s.particles.velocity = rng.random((n, 3)) - 0.5
    s.particles.image = rng.integers(-3, 3, size=(n, 3))
    frames.append(s)
with gsd.hoomd.open(out, 'wb') as t:
    for s in frames:
        t.append(s)
with gsd.hoomd.open(out, 'rb') as t:  # what gsd reads back (float32), frame -1
    f = t[-1]
    vals = [f.configuration.step] + list(f.particles.position.ravel()) + \
        list(f.particles.velocity.ravel()) + list(f.particles.image.ravel()) + \
        list(f.particles.typeid)
np.savetxt(expect, np.array(vals, dtype=float), fmt='%.9g')
print('OK gsd', gsd.__version__)
)PY";

TEST(ToolFiles, GsdWrittenByPythonGsd) {
  const auto python = mdremap::test::python_with("gsd.hoomd, numpy", "python3-gsd python3-numpy");
  MDREMAP_REQUIRE(python);
  TempDir dir;
  const std::string path = dir.file("t.gsd"), expect = dir.file("expect.txt");
  run_python(python.path, dir, kGsdWrite, shell_quote(path) + " " + shell_quote(expect));
  const ParticleFile f = read_particle_file(path, "auto", -1);
  const auto e = numbers(expect);
  const std::size_t n = 5;
  ASSERT_EQ(e.size(), 1 + 3 * n * 3 + n);
  EXPECT_EQ(f.format, "GSD");
  EXPECT_EQ(f.frames, 3);
  EXPECT_EQ(f.step, static_cast<std::int64_t>(e[0]));
  ASSERT_EQ(f.n(), n);
  for (std::size_t i = 0; i < 3 * n; ++i) {
    EXPECT_FLOAT_EQ(f.x[i], e[1 + i]);
    EXPECT_FLOAT_EQ(f.v[i], e[1 + 3 * n + i]);
    EXPECT_EQ(f.image[i], e[1 + 6 * n + i]);
  }
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(f.type[i], e[1 + 9 * n + i]);
  EXPECT_EQ(f.types[1].name, "Kr");
  EXPECT_DOUBLE_EQ(f.types[1].mass, 2.0);
  EXPECT_DOUBLE_EQ(f.lo[2], -3.0);
}

const char* const kGsdRead = R"PY(
import sys, numpy as np, gsd.hoomd
path, n = sys.argv[1], int(sys.argv[2])
with gsd.hoomd.open(path, 'rb') as t:
    assert len(t) == 2, len(t)
    for k, f in enumerate(t):
        assert f.configuration.step == 100 * k
        assert f.particles.N == n
        assert list(f.particles.types) == ['A', 'Bee'], f.particles.types
        assert list(f.particles.typeid) == [1, 0, 1, 0]
        assert np.allclose(f.configuration.box, [4, 5, 6, 0, 0, 0])
        assert np.allclose(f.particles.mass, [3, 1, 3, 1])
        assert (f.particles.position >= -f.configuration.box[:3] / 2).all()
        assert (f.particles.position < f.configuration.box[:3] / 2).all()
        L = f.configuration.box[:3]
        unwrapped = f.particles.position + f.particles.image * L + L / 2
        assert np.allclose(unwrapped[0], [-0.5 + 4 * 1 + 4 * k, 1, 1]), unwrapped[0]
        assert np.allclose(unwrapped[3], [0.5, 0.5, 0.5]), unwrapped[3]
        assert np.allclose(f.particles.velocity[0], [10, 11, 12])
print('OK gsd', gsd.__version__)
)PY";

TEST(ToolFiles, PythonGsdReadsTheGsdOutput) {
  const auto python = mdremap::test::python_with("gsd.hoomd, numpy", "python3-gsd python3-numpy");
  MDREMAP_REQUIRE(python);
  TempDir dir;
  const std::string path = dir.file("out.gsd");
  GsdOptions o;
  o.type_names = {"A", "Bee"};
  o.type_mass = {1.0, 3.0};
  o.n_atoms = 4;
  o.application = "mdremap test";
  Frame fr;
  fr.box_len[0] = 4, fr.box_len[1] = 5, fr.box_len[2] = 6;
  fr.v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  fr.type = {0, 1, 0, 1};
  fr.id = {3, 2, 1, 0};
  {
    GsdTrajectoryWriter w(path, o);
    for (int k = 0; k < 2; ++k) {
      fr.step = 100 * k;
      // id 0 (slot 3) one box length further along x each frame: its image grows.
      fr.x = {0.5, 0.5, 0.5, 3.5, 4.5, 5.5, 1, 1, 1, -0.5 + 4.0 * k, 1, 1};
      fr.image = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0};
      w.write_frame(fr);
    }
    w.close();
  }
  const std::string out = run_python(python.path, dir, kGsdRead, shell_quote(path) + " 4");
  EXPECT_NE(out.find("OK gsd"), std::string::npos) << out;
}

const char* const kAseWrite = R"PY(
import sys, numpy as np
from ase import Atoms
import ase.io
out, expect = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(7)
frames = []
for k in range(2):
    a = Atoms('Ar3Kr2', positions=rng.random((5, 3)) * 5, cell=[5, 6, 7], pbc=True)
    a.set_masses([1, 1, 1, 2.5, 2.5])
    a.set_velocities(rng.random((5, 3)) - 0.5)
    frames.append(a)
ase.io.write(out, frames, format='extxyz')
b = ase.io.read(out, index=-1)
np.savetxt(expect, np.concatenate([b.positions.ravel(), b.get_velocities().ravel()]), fmt='%.17g')
print('OK ase')
)PY";

TEST(ToolFiles, ExtendedXyzWrittenByAse) {
  const auto python = mdremap::test::python_with("ase, numpy", "python3-ase python3-numpy");
  MDREMAP_REQUIRE(python);
  TempDir dir;
  const std::string path = dir.file("t.xyz"), expect = dir.file("expect.txt");
  run_python(python.path, dir, kAseWrite, shell_quote(path) + " " + shell_quote(expect));
  const ParticleFile f = read_particle_file(path, "auto", -1);
  const auto e = numbers(expect);
  ASSERT_EQ(f.n(), 5u);
  ASSERT_EQ(e.size(), 30u);
  EXPECT_EQ(f.frames, 2);
  EXPECT_EQ(f.types[0].name, "Ar");
  EXPECT_EQ(f.types[1].name, "Kr");
  EXPECT_DOUBLE_EQ(f.types[1].mass, 2.5);
  EXPECT_DOUBLE_EQ(f.len[2], 7.0);
  for (std::size_t i = 0; i < 15; ++i) {
    EXPECT_NEAR(f.x[i], e[i], 1e-8);       // ASE prints 8 decimals
    EXPECT_NEAR(f.v[i], e[15 + i], 1e-6);  // momenta over masses, as ASE's own reader does
  }
}

const char* const kMdaWrite = R"PY(
import sys, numpy as np, MDAnalysis as mda
from MDAnalysis.coordinates.H5MD import H5MDWriter
out, expect = sys.argv[1], sys.argv[2]
u = mda.Universe.empty(4, trajectory=True, velocities=True)
u.dimensions = [5, 6, 7, 90, 90, 90]
rng = np.random.default_rng(3)
with H5MDWriter(out, 4, velocities=True, convert_units=False) as w:
    for k in range(3):
        u.atoms.positions = rng.random((4, 3)) * 5
        u.atoms.velocities = rng.random((4, 3))
        u.trajectory.ts.data['step'] = 10 * k
        w.write(u)
np.savetxt(expect, np.concatenate([u.atoms.positions.ravel(), u.atoms.velocities.ravel()]),
           fmt='%.9g')
print('OK MDAnalysis', mda.__version__)
)PY";

TEST(ToolFiles, H5mdWrittenByMDAnalysis) {
  const auto python =
      mdremap::test::python_with("MDAnalysis, h5py", "python3-mdanalysis python3-h5py");
  MDREMAP_REQUIRE(python);
  TempDir dir;
  const std::string path = dir.file("t.h5md"), expect = dir.file("expect.txt");
  run_python(python.path, dir, kMdaWrite, shell_quote(path) + " " + shell_quote(expect));
  const ParticleFile f = read_particle_file(path, "auto", -1);
  const auto e = numbers(expect);
  ASSERT_EQ(f.n(), 4u);
  ASSERT_EQ(e.size(), 24u);
  EXPECT_EQ(f.frames, 3);
  EXPECT_EQ(f.step, 20);
  EXPECT_DOUBLE_EQ(f.len[1], 6.0);
  EXPECT_FALSE(f.named_types);  // no species: one type, matched by index
  for (std::size_t i = 0; i < 12; ++i) {
    EXPECT_FLOAT_EQ(f.x[i], e[i]);
    EXPECT_FLOAT_EQ(f.v[i], e[12 + i]);
  }
  EXPECT_EQ(f.id, (std::vector<std::int64_t>{1, 2, 3, 4}));
}

const char* const kMdaRead = R"PY(
import sys, numpy as np, MDAnalysis as mda
top, traj = sys.argv[1], sys.argv[2]
u = mda.Universe(top, traj, convert_units=False)
assert len(u.trajectory) == 2, len(u.trajectory)
assert list(u.atoms.types) == ['B', 'A', 'B'], u.atoms.types
assert np.allclose(u.atoms.masses, [2, 1, 2]), u.atoms.masses
u.trajectory[1]
assert np.allclose(u.dimensions, [4, 5, 6, 90, 90, 90]), u.dimensions
assert np.allclose(u.atoms.positions[2], [1, 2, 2]), u.atoms.positions
assert u.trajectory.ts.data['step'] == 10
assert abs(u.trajectory.ts.data['temperature'] - 1.5) < 1e-12
print('OK MDAnalysis', mda.__version__)
)PY";

TEST(ToolFiles, MDAnalysisOpensTheH5mdWithItsGsdTopology) {
  const auto python =
      mdremap::test::python_with("MDAnalysis, gsd.hoomd", "python3-mdanalysis python3-gsd");
  MDREMAP_REQUIRE(python);
  TempDir dir;
  const std::string traj = dir.file("t.h5md"), top = dir.file("top.gsd");
  H5mdOptions h;
  h.fields = H5mdFields{true, true, false, true, true, true};
  h.n_atoms = 3;
  h.type_names = {"A", "B"};
  h.type_mass = {1.0, 2.0};
  h.author = "test";
  GsdOptions g;
  g.type_names = h.type_names;
  g.type_mass = h.type_mass;
  g.n_atoms = 3;
  g.fields = GsdFields{true, false, true};
  Frame fr;
  fr.box_len[0] = 4, fr.box_len[1] = 5, fr.box_len[2] = 6;
  fr.x = {0, 0, 0, 1, 1, 1, 2, 2, 2};
  fr.v = fr.x;
  fr.type = {1, 0, 1};
  fr.id = {0, 1, 2};
  fr.image = std::vector<std::int32_t>(9, 0);
  {
    H5mdWriter w(traj, h);
    GsdTrajectoryWriter t(top, g);
    for (int k = 0; k < 2; ++k) {
      fr.step = 10 * k;
      fr.x[6] = k;
      if (k == 0) t.write_frame(fr);
      w.write_frame(fr);
      ThermoSample s;
      s.step = fr.step;
      s.temp = 1.5;
      w.write_observables(s);
    }
    w.close();
    t.close();
  }
  const std::string out =
      run_python(python.path, dir, kMdaRead, shell_quote(top) + " " + shell_quote(traj));
  EXPECT_NE(out.find("OK MDAnalysis"), std::string::npos) << out;
}

const char* const kLammpsInput = R"(units lj
atom_style atomic
lattice fcc 0.8442
region box block 0 3 0 3 0 3
create_box 2 box
create_atoms 1 box
set type 1 type/fraction 2 0.3 2024
mass 1 1.0
mass 2 3.0
velocity all create 1.44 87287 loop geom
displace_atoms all move 2.1 -1.3 0.7
pair_style lj/cut 2.5
pair_coeff * * 1.0 1.0
write_data lmp.data
write_dump all custom lmp.dump id type x y z ix iy iz vx vy vz modify sort id format float %.17g
)";

TEST(ToolFiles, LammpsDataWrittenByLmp) {
  const auto lmp = mdremap::test::program("lmp", "MDREMAP_LMP", "apt-get install lammps", true);
  MDREMAP_REQUIRE(lmp);
  TempDir dir;
  std::ofstream(dir.file("in.lmp")) << kLammpsInput;
  const int rc = run_shell("cd " + shell_quote(dir.path().string()) + " && " +
                           shell_quote(lmp.path) + " -in in.lmp -log none -screen none");
  ASSERT_EQ(rc, 0) << "lmp failed";
  const ParticleFile f = read_particle_file(dir.file("lmp.data"), "auto", 0);
  ASSERT_EQ(f.n(), 108u);
  EXPECT_DOUBLE_EQ(f.types[1].mass, 3.0);
  // The dump (sorted by id) holds the same atoms: id type x y z ix iy iz vx vy vz.
  std::ifstream dump(dir.file("lmp.dump"));
  std::string line;
  for (int k = 0; k < 9 && std::getline(dump, line); ++k) {
  }
  std::vector<std::size_t> row_of_id(f.n() + 1, 0);
  for (std::size_t i = 0; i < f.n(); ++i) row_of_id[static_cast<std::size_t>(f.id[i])] = i;
  int atoms = 0;
  while (std::getline(dump, line)) {
    std::istringstream in(line);
    double id, type, x[3], im[3], v[3];
    in >> id >> type >> x[0] >> x[1] >> x[2] >> im[0] >> im[1] >> im[2] >> v[0] >> v[1] >> v[2];
    const std::size_t i = row_of_id.at(static_cast<std::size_t>(id));
    EXPECT_EQ(f.type[i] + 1, type);
    for (int d = 0; d < 3; ++d) {
      // write_data's positions with its image flags are the dump's (unwrapped alike).
      const double unwrapped = f.x[3 * i + d] + f.image[3 * i + d] * f.len[d];
      EXPECT_NEAR(unwrapped, x[d] + im[d] * f.len[d], 1e-12);
      EXPECT_NEAR(f.v[3 * i + d], v[d], 1e-12);
    }
    ++atoms;
  }
  EXPECT_EQ(atoms, 108);
}

}  // namespace
}  // namespace mdremap::io

// system.file readers (io/particle_file.hpp) on hand-written files: what each format holds is
// read back exactly, and a bad file is refused with its line (or dataset) and the problem.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "io/gsd_file.hpp"
#include "io/gsd_writer.hpp"
#include "io/h5md_writer.hpp"
#include "io/particle_file.hpp"
#include "io/staged_file.hpp"
#include "io_test_util.hpp"
#include "mdremap/error.hpp"

namespace mdremap::io {
namespace {

using test::TempDir;

ParticleFile lammps(const std::string& text) {
  std::istringstream in(text);
  ParticleFile f = read_lammps_data(in, "t.data");
  check_particle_file(f);
  return f;
}
ParticleFile xyz(const std::string& text, std::int64_t frame = -1) {
  std::istringstream in(text);
  ParticleFile f = read_xyz(in, "t.xyz", frame);
  check_particle_file(f);
  return f;
}

// The message of the InputError `f` throws ("" if none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const char* const kData = R"(LAMMPS data file via write_data, timestep = 1000, units = lj

3 atoms  # a comment after a count
2 atom types

-1.0 4.0 xlo xhi
0 5 ylo yhi
0 6.5 zlo zhi
0.0 0.0 0.0 xy xz yz

Atom Type Labels

1 Ar
2 Kr

Masses

1 1.0
Kr 2.5 # by its label

Pair Coeffs # lj/cut

1 1 1
2 1 1

Atoms # atomic

30 Kr 1.0 2.0 3.0 0 1 -1
10 1 0.5 0.5 0.5 0 0 0

20 Ar 3.9 4.9 6.4 2 0 0

Velocities

10 0.1 0.2 0.3
30 -1 -2 -3
20 0 0 0
)";

TEST(LammpsData, ReadsHeaderSectionsLabelsImagesAndVelocities) {
  const ParticleFile f = lammps(kData);
  EXPECT_EQ(f.format, "LAMMPS data");
  ASSERT_EQ(f.n(), 3u);
  EXPECT_DOUBLE_EQ(f.lo[0], -1.0);
  EXPECT_DOUBLE_EQ(f.len[0], 5.0);
  EXPECT_DOUBLE_EQ(f.len[2], 6.5);
  EXPECT_EQ(f.box_line[0], 6);
  EXPECT_EQ(f.box_line[2], 8);
  ASSERT_EQ(f.types.size(), 2u);
  EXPECT_TRUE(f.named_types);
  EXPECT_EQ(f.types[0].name, "Ar");
  EXPECT_EQ(f.types[1].name, "Kr");
  EXPECT_DOUBLE_EQ(f.types[1].mass, 2.5);
  EXPECT_EQ(f.types[1].mass_line, 19);
  EXPECT_EQ(f.id, (std::vector<std::int64_t>{30, 10, 20}));
  EXPECT_EQ(f.type, (std::vector<std::int32_t>{1, 0, 0}));
  EXPECT_EQ(f.line, (std::vector<std::int32_t>{28, 29, 31}));
  EXPECT_EQ(f.image, (std::vector<std::int32_t>{0, 1, -1, 0, 0, 0, 2, 0, 0}));
  EXPECT_DOUBLE_EQ(f.x[6], 3.9);
  EXPECT_DOUBLE_EQ(f.v[0], -1);  // atom id 30 is row 0
  EXPECT_DOUBLE_EQ(f.v[5], 0.3);
  ASSERT_EQ(f.notes.size(), 1u);  // the Pair Coeffs section, read past
  EXPECT_NE(f.notes[0].find("Pair Coeffs"), std::string::npos);
}

TEST(LammpsData, NumberedTypesWithoutLabelsAndNoVelocities) {
  const ParticleFile f = lammps(
      "title\n2 atoms\n1 atom types\n0 3 xlo xhi\n0 3 ylo yhi\n0 3 zlo zhi\n\nAtoms\n\n1 1 0 0 "
      "0\n2 1 1 1 1\n");
  EXPECT_FALSE(f.named_types);
  EXPECT_EQ(f.types[0].name, "1");
  EXPECT_DOUBLE_EQ(f.types[0].mass, 0.0);  // not given
  EXPECT_TRUE(f.v.empty());
  EXPECT_TRUE(f.image.empty());
}

TEST(LammpsData, BadFilesNameTheirLine) {
  const std::string head = "t\n2 atoms\n1 atom types\n0 3 xlo xhi\n0 3 ylo yhi\n0 3 zlo zhi\n";
  const struct {
    std::string text, expect;
  } cases[] = {
      {head + "\nAtoms\n\n1 1 0 0 0\n2 2 1 1 1\n", "t.data:11: atom type 2 outside 1..1"},
      {head + "\nAtoms\n\n1 1 0 0 0\n1 1 1 1 1\n", "t.data:11: atom id 1 appears twice (line 10)"},
      {head + "\nAtoms\n\n1 1 0 0 0\n2 1 1 x 1\n", "t.data:11: y: expected a number, got 'x'"},
      {head + "\nAtoms\n\n1 1 0 0 0\n2 1 1 1\n", "t.data:11: Atoms (atomic): expected"},
      {head + "\nAtoms\n\n1 1 0 0 0\n", "t.data:10: the file ends after 1 of the 2 lines"},
      {head + "\nAtoms # full\n\n1 1 0 0 0 0 0\n", "t.data:8: Atoms section of atom_style full"},
      {head + "\nBonds\n\n1 1 1 2\n", "t.data:8: section Bonds: atom_style atomic"},
      {head + "1 bonds\n", "t.data:7: 1 bonds: atom_style atomic has no molecular topology"},
      {head + "0.5 0 0 xy xz yz\n", "t.data:7: a triclinic box (tilt xy 0.5)"},
      {"t\n2 atoms\n1 atom types\n3 0 xlo xhi\n", "t.data:4: xhi 0 must be greater than xlo 3"},
      {"t\n2 atoms\n1 atom types\n0 3 xlo xhi\n\nAtoms\n\n",
       "t.data:6: the header has no 'ylo yhi'"},
      {head + "\nMasses\n\n1 -1\n", "t.data:10: mass -1 of type 1 must be positive"},
      {head + "\nAtoms\n\n1 1 0 0 0\n2 1 1 1 1\n\nVelocities\n\n1 0 0 0\n3 0 0 0\n",
       "t.data:16: velocity of atom id 3, which the Atoms section lacks"},
      {head + "\nAtoms\n\n1 1 0 0 0\n2 1 1 1 nan\n", "t.data:11: z: 'nan' is not a finite number"},
      {head + "\nFoo\n", "t.data:8: unknown header line or section 'Foo'"},
      {head, "t.data:6: no Atoms section"},
      {"t\n9999999999 atoms\n", "t.data:2: 9999999999 atoms: at most"},
      {"", "t.data: empty file"},
  };
  for (const auto& c : cases) {
    const std::string msg = error_of([&] { lammps(c.text); });
    EXPECT_NE(msg.find(c.expect), std::string::npos) << "got: " << msg << "\nfor:\n" << c.text;
  }
}

const char* const kXyz =
    "2\n"
    "Lattice=\"5.0 0.0 0.0 0.0 6.0 0.0 0.0 0.0 7.0\" Properties=species:S:1:pos:R:3:vel:R:3 "
    "pbc=\"T T T\" Time=0.0\n"
    "Ar 0 0 0 0.1 0.2 0.3\n"
    "Kr 1 2 3 -1 -2 -3\n"
    "3\n"
    "Lattice=\"5.0 0.0 0.0 0.0 6.0 0.0 0.0 0.0 7.0\" Properties=species:S:1:pos:R:3:id:I:1:"
    "masses:R:1:forces:R:3 pbc=\"T T F\"\n"
    "Kr 1 1 1 7 2.0 0 0 0\n"
    "Ar 2 2 2 5 1.0 0 0 0\n"
    "Kr 3 3 3 9 2.0 0 0 0\n";

TEST(ExtendedXyz, ReadsTheFrameAskedForWithItsColumns) {
  const ParticleFile first = xyz(kXyz, 0);
  EXPECT_EQ(first.frames, 2);
  EXPECT_EQ(first.frame, 0);
  ASSERT_EQ(first.n(), 2u);
  EXPECT_EQ(first.types[0].name, "Ar");
  EXPECT_EQ(first.types[1].name, "Kr");
  EXPECT_EQ(first.id, (std::vector<std::int64_t>{1, 2}));
  EXPECT_DOUBLE_EQ(first.v[4], -2);
  EXPECT_DOUBLE_EQ(first.len[1], 6.0);
  EXPECT_EQ(first.line, (std::vector<std::int32_t>{3, 4}));

  const ParticleFile last = xyz(kXyz);  // -1: the last frame
  EXPECT_EQ(last.frame, 1);
  ASSERT_EQ(last.n(), 3u);
  EXPECT_EQ(last.id, (std::vector<std::int64_t>{7, 5, 9}));
  EXPECT_EQ(last.types[0].name, "Kr");  // in order of appearance
  EXPECT_DOUBLE_EQ(last.types[0].mass, 2.0);
  EXPECT_TRUE(last.v.empty());
  EXPECT_FALSE(last.periodic[2]);
  EXPECT_EQ(last.line, (std::vector<std::int32_t>{7, 8, 9}));
  ASSERT_EQ(last.notes.size(), 1u);  // forces: not used
}

TEST(ExtendedXyz, PlainXyzNeedsABoxAndBadFramesNameTheirLine) {
  const std::string box = "Lattice=\"4 0 0 0 4 0 0 0 4\"";
  const ParticleFile plain = xyz("1\n" + box + "\nA 1 1 1\n");
  EXPECT_EQ(plain.types[0].name, "A");
  const struct {
    std::string text, expect;
  } cases[] = {
      {"1\ncomment\nA 1 1 1\n", "t.xyz:2: no Lattice="},
      {"1\nLattice=\"4 1 0 0 4 0 0 0 4\"\nA 1 1 1\n", "t.xyz:2: Lattice= is not diagonal"},
      {"2\n" + box + "\nA 1 1 1\n", "t.xyz:3: the file ends inside a frame of 2 atoms"},
      {"1\n" + box + "\nA 1 1\n", "t.xyz:3: expected 4 columns"},
      {"1\n" + box + "\nA 1 1 q\n", "t.xyz:3: z: expected a number"},
      {"x\n", "t.xyz:1: atom count: expected an integer"},
      {"1\n" + box + " pbc=\"F T T\"\nA 5 1 1\n",
       "t.xyz:3: position x = 5 lies outside the box [0, 4], which is not periodic along x"},
      {"1\n" + box + " Properties=species:S:1:pos:R:3:momenta:R:3\nA 1 1 1 0 0 0\n",
       "t.xyz:2: a momenta column without a masses column"},
      {"2\n" + box + " Properties=species:S:1:pos:R:3:masses:R:1\nA 1 1 1 1\nA 2 2 2 3\n",
       "t.xyz:4: species A has mass 3 here and 1 on line 3"},
      {"2\n" + box + " Properties=species:S:1:pos:R:3:id:I:1\nA 1 1 1 4\nA 2 2 2 4\n",
       "t.xyz:4: atom id 4 appears twice"},
  };
  for (const auto& c : cases) {
    const std::string msg = error_of([&] { xyz(c.text); });
    EXPECT_NE(msg.find(c.expect), std::string::npos) << "got: " << msg << "\nfor:\n" << c.text;
  }
  EXPECT_NE(error_of([&] {
              xyz("1\n" + box + "\nA 1 1 1\n", 3);
            }).find("t.xyz: system.frame 3 is not a frame of this file: it holds 1 XYZ frame"),
            std::string::npos);
}

// A two-frame GSD file through this project's writer, read back by the reader.
TEST(Gsd, TrajectoryWriterFramesReadBack) {
  TempDir dir;
  const std::string path = dir.file("t.gsd");
  GsdOptions o;
  o.type_names = {"A", "Bee"};
  o.type_mass = {1.0, 3.0};
  o.n_atoms = 4;
  o.application = "test";
  Frame fr;
  fr.box_lo[0] = fr.box_lo[1] = fr.box_lo[2] = 0;
  fr.box_len[0] = 4, fr.box_len[1] = 5, fr.box_len[2] = 6;
  fr.x = {0.5, 0.5, 0.5, 3.5, 4.5, 5.5, 4.25, 1, 1, -0.5, 1, 1};  // the last two outside x
  fr.v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  fr.type = {1, 0, 1, 0};
  fr.id = {3, 2, 1, 0};  // written in id order
  fr.image = {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0};
  {
    GsdTrajectoryWriter w(path, o);
    for (int k = 0; k < 2; ++k) {
      fr.step = 100 * k;
      w.write_frame(fr);
    }
    w.close();
  }
  std::ifstream in(path, std::ios::binary);
  ParticleFile f = read_gsd_frame(in, path, -1);
  check_particle_file(f);
  EXPECT_EQ(f.frames, 2);
  EXPECT_EQ(f.step, 100);
  ASSERT_EQ(f.n(), 4u);
  EXPECT_DOUBLE_EQ(f.lo[1], -2.5);
  EXPECT_DOUBLE_EQ(f.len[2], 6);
  EXPECT_EQ(f.types[1].name, "Bee");
  EXPECT_DOUBLE_EQ(f.types[1].mass, 3.0);  // from frame 0's particles/mass
  EXPECT_EQ(f.type, (std::vector<std::int32_t>{0, 1, 0, 1}));
  // id 0 is slot 3 (x = -0.5 + 4: wrapped once up), id 1 slot 2 (4.25: wrapped down once more).
  EXPECT_FLOAT_EQ(f.x[0], 3.5f - 2.0f);
  EXPECT_EQ(f.image[0], -1);
  EXPECT_FLOAT_EQ(f.x[3], 0.25f - 2.0f);
  EXPECT_EQ(f.image[3], 2);
  EXPECT_DOUBLE_EQ(f.v[0], 10);
  EXPECT_EQ(f.id, (std::vector<std::int64_t>{1, 2, 3, 4}));
}

TEST(Gsd, CorruptFilesAreRefused) {
  TempDir dir;
  auto read = [&](const std::string& bytes) {
    std::istringstream in(bytes);
    return error_of([&] { read_gsd_frame(in, "c.gsd", 0); });
  };
  EXPECT_NE(read("short").find("c.gsd: too short for a GSD header"), std::string::npos);
  EXPECT_NE(read(std::string(300, 'x')).find("not a GSD file"), std::string::npos);
  // A good file with its index pointed past the end.
  const std::string path = dir.file("g.gsd");
  GsdOptions o;
  o.type_names = {"A"};
  o.n_atoms = 1;
  Frame fr;
  fr.box_len[0] = fr.box_len[1] = fr.box_len[2] = 3;
  fr.x = {1, 1, 1};
  fr.v = {0, 0, 0};
  fr.type = {0};
  fr.id = {0};
  {
    GsdTrajectoryWriter w(path, o);
    w.write_frame(fr);
    w.close();
  }
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string moved = bytes;
  moved[8] = '\xff', moved[9] = '\xff', moved[10] = '\xff';
  EXPECT_NE(read(moved).find("the index lies outside the file"), std::string::npos);
  EXPECT_NE(read(bytes.substr(0, bytes.size() - 20)).find("lies outside the file"),
            std::string::npos);
  EXPECT_EQ(read(bytes), "");
  std::istringstream whole(bytes);
  EXPECT_NE(error_of([&] {
              read_gsd_frame(whole, "c.gsd", 5);
            }).find("system.frame 5 is not a frame of this file: it holds 1 GSD frame"),
            std::string::npos);
}

// Hand-made GSD frames the fuzzer found ways into, refused by name: particles/N with no position
// chunk (N = 2^32 - 1 was allocated before anything bounded it), a count stored as a float
// no integer holds, image counts beyond any run.
TEST(Gsd, FramesTheFuzzerFoundAreRefused) {
  TempDir dir;
  // One frame of a box, particles/N as `n_type` and two particles (position and image when
  // `with_atoms`); the reader's error.
  auto frame = [&](std::uint8_t n_type, const void* n, bool with_atoms, std::int64_t image) {
    const std::string path = dir.file("f.gsd");
    {
      StagedFile out(path);
      gsd::Writer w(out, "test", "hoomd", 1 << 16 | 4,
                    {"configuration/box", "particles/N", "particles/position", "particles/image"});
      const float box[6] = {3, 3, 3, 0, 0, 0};
      const float pos[6] = {0, 0, 0, 1, 1, 1};
      const std::int64_t im[6] = {0, 0, 0, 0, image, 0};
      w.chunk("configuration/box", gsd::kFloat, 6, 1, box);
      w.chunk("particles/N", n_type, 1, 1, n);
      if (with_atoms) {
        w.chunk("particles/position", gsd::kFloat, 2, 3, pos);
        w.chunk("particles/image", gsd::kInt64, 2, 3, im);
      }
      w.end_frame();
      out.commit();
    }
    std::ifstream in(path, std::ios::binary);
    return error_of([&] { read_gsd_frame(in, "f.gsd", 0); });
  };
  const std::uint32_t huge = 0xffffffffu, two = 2;
  EXPECT_EQ(frame(gsd::kUInt32, &huge, false, 0),
            "f.gsd: frame 0 has no particles/position (nor frame 0): 4294967295 particles all at "
            "the origin");
  const double float_counts[] = {6.7665e22, 2.5, std::nan("")};
  for (const double c : float_counts)
    EXPECT_EQ(frame(gsd::kDouble, &c, true, 0),
              "f.gsd: chunk 'particles/N' holds a value that is not a whole number in range")
        << c;
  EXPECT_EQ(frame(gsd::kUInt32, &two, true, std::int64_t{1} << 40),
            "f.gsd: frame 0 particles/image row 1: image count 1099511627776 (at most 2^30 box "
            "lengths)");
  EXPECT_EQ(frame(gsd::kUInt32, &two, true, -7), "");
  // A type id stored as a float must be a whole number too (NaN passed the range check).
  {
    const std::string path = dir.file("t.gsd");
    {
      StagedFile out(path);
      gsd::Writer w(out, "test", "hoomd", 1 << 16 | 4,
                    {"configuration/box", "particles/N", "particles/position", "particles/typeid"});
      const float box[6] = {3, 3, 3, 0, 0, 0}, pos[3] = {0, 0, 0}, type[1] = {std::nanf("")};
      const std::uint32_t one = 1;
      w.chunk("configuration/box", gsd::kFloat, 6, 1, box);
      w.chunk("particles/N", gsd::kUInt32, 1, 1, &one);
      w.chunk("particles/position", gsd::kFloat, 1, 3, pos);
      w.chunk("particles/typeid", gsd::kFloat, 1, 1, type);
      w.end_frame();
      out.commit();
    }
    std::ifstream in(path, std::ios::binary);
    EXPECT_EQ(error_of([&] { read_gsd_frame(in, "t.gsd", 0); }),
              "t.gsd: chunk 'particles/typeid' holds a value that is not a whole number in range");
  }
}

// This program's H5MD frame read back: positions, velocities, species names, ids, images.
TEST(H5mdFrame, OwnFileReadsBackAtTheFrameAskedFor) {
  TempDir dir;
  const std::string path = dir.file("t.h5");
  H5mdOptions o;
  o.fields = H5mdFields{true, true, false, true, true, true};
  o.n_atoms = 3;
  o.type_names = {"A", "B"};
  o.type_mass = {1.0, 2.0};
  o.atom_ids = {11, 12, 13};
  o.box_lo = {-1, -1, -1};
  Frame fr;
  for (int d = 0; d < 3; ++d) fr.box_lo[d] = -1, fr.box_len[d] = 4 + d;
  fr.x = {0, 0, 0, 1, 1, 1, 2, 2, 2};
  fr.v = {1, 1, 1, 2, 2, 2, 3, 3, 3};
  fr.type = {1, 0, 1};
  fr.id = {2, 0, 1};
  fr.image = {1, 0, 0, 0, 2, 0, 0, 0, 3};
  {
    H5mdWriter w(path, o);
    for (int k = 0; k < 3; ++k) {
      fr.step = 10 * k;
      fr.x[0] = k;
      w.write_frame(fr);
    }
    w.close();
  }
  const ParticleFile f = read_particle_file(path, "auto", 1);
  EXPECT_EQ(f.format, "H5MD");
  EXPECT_EQ(f.frames, 3);
  EXPECT_EQ(f.step, 10);
  ASSERT_EQ(f.n(), 3u);
  EXPECT_EQ(f.id, (std::vector<std::int64_t>{11, 12, 13}));
  EXPECT_TRUE(f.named_types);
  EXPECT_EQ(f.types[1].name, "B");
  EXPECT_DOUBLE_EQ(f.types[1].mass, 2.0);
  EXPECT_EQ(f.type, (std::vector<std::int32_t>{0, 1, 1}));
  EXPECT_DOUBLE_EQ(f.x[6], 1.0);  // id 2 (row 2) was slot 0 with x = frame index
  EXPECT_DOUBLE_EQ(f.v[3], 3.0);
  EXPECT_EQ(f.image, (std::vector<std::int32_t>{0, 2, 0, 0, 0, 3, 1, 0, 0}));
  EXPECT_DOUBLE_EQ(f.lo[0], -1);
  EXPECT_DOUBLE_EQ(f.len[2], 6);
  EXPECT_NE(error_of([&] {
              read_particle_file(path, "auto", 3);
            }).find("system.frame 3 is not a frame of this file: it holds 3 position frames"),
            std::string::npos);
  const std::string text = dir.file("text.h5");
  std::ofstream(text) << "not hdf5";
  EXPECT_NE(error_of([&] { read_particle_file(text, "auto", 0); }).find("not an HDF5"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              read_particle_file(dir.file("none.h5"), "auto", 0);
            }).find("system file not found"),
            std::string::npos);
}

// A dataset that declares a billion atoms and holds no values (a few hundred bytes on disk) is
// refused before anything is allocated for it.
TEST(H5mdFrame, DeclaredButUnwrittenDatasetIsRefused) {
  TempDir dir;
  const std::string path = dir.file("u.h5");
  H5mdOptions o;
  o.n_atoms = 1;
  o.type_names = {"A"};
  o.type_mass = {1.0};
  Frame fr;
  for (int d = 0; d < 3; ++d) fr.box_len[d] = 3;
  fr.x = {1, 1, 1};
  fr.type = {0};
  fr.id = {0};
  {
    H5mdWriter w(path, o);
    w.write_frame(fr);
    w.close();
  }
  {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(file, 0);
    ASSERT_GE(H5Ldelete(file, "particles/all/position/value", H5P_DEFAULT), 0);
    const hsize_t dims[3] = {1, 1000000000, 3};
    const hid_t space = H5Screate_simple(3, dims, nullptr);
    const hid_t set = H5Dcreate2(file, "particles/all/position/value", H5T_NATIVE_DOUBLE, space,
                                 H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    ASSERT_GE(set, 0);
    H5Dclose(set);
    H5Sclose(space);
    H5Fclose(file);
  }
  EXPECT_EQ(error_of([&] { read_particle_file(path, "auto", 0); }),
            path + ": particles/all/position/value: its values were never written");
}

}  // namespace
}  // namespace mdremap::io

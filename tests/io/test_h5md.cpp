// H5MD writer: structure and values read back through the HDF5 C API (BRIEF section 8).
#include <gtest/gtest.h>
#include <hdf5.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "h5_test_util.hpp"
#include "io/h5md_writer.hpp"
#include "io/staged_file.hpp"
#include "io_test_util.hpp"
#include "mdremap/error.hpp"

namespace mdremap::io {
namespace {

using test::exists;
using test::H5;
using test::random_frame;
using test::read_all;
using test::read_attr;
using test::read_string_attr;
using test::shape;
using test::TempDir;

H5mdOptions options_for(std::size_t n) {
  H5mdOptions o;
  o.fields = H5mdFields{true, true, true, true, true};
  o.author = "Test Author";
  o.creator_name = "mdremap";
  o.creator_version = "0.1.0";
  o.deck_yaml = "system:\n  lattice: fcc\n  density: 0.8442\nrun:\n  dt: 0.005\n";
  o.dt = 0.005;
  o.box_lo = {-0.5, -0.5, -0.5};
  o.box_len = {5, 6, 7};
  o.n_atoms = n;
  return o;
}

ThermoSample sample_at(std::int64_t step) {
  ThermoSample s;
  s.step = step;
  s.time = step * 0.005;
  s.temp = 1.0 + 0.01 * step;
  s.e_pair = -5.0 + 0.001 * step;
  s.ke = 1.5 * s.temp;
  s.etotal = s.e_pair + s.ke;
  s.press = 0.3 + 1e-4 * step;
  return s;
}

TEST(H5md, StructureAndValuesReadBackWithHdf5) {
  TempDir dir;
  const std::string path = dir.file("traj.h5");
  const std::size_t n = 17;
  std::vector<Frame> frames;
  {
    H5mdWriter w(path, options_for(n));
    for (int k = 0; k < 3; ++k) {
      frames.push_back(random_frame(n, 100 + k, 10 * k));
      w.write_frame(frames.back());
      w.write_observables(sample_at(10 * k));
    }
    EXPECT_EQ(w.frames_written(), 3);
    w.close();
  }

  H5 file{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
  ASSERT_GE(file.id, 0);
  const hid_t f = file.id;

  // h5md group: version {1,1} as integers, author and creator.
  EXPECT_EQ((read_attr<int>(f, "h5md", "version", H5T_NATIVE_INT)), (std::vector<int>{1, 1}));
  EXPECT_EQ(read_string_attr(f, "h5md/author", "name"), std::vector<std::string>{"Test Author"});
  EXPECT_EQ(read_string_attr(f, "h5md/creator", "name"), std::vector<std::string>{"mdremap"});
  EXPECT_EQ(read_string_attr(f, "h5md/creator", "version"), std::vector<std::string>{"0.1.0"});

  // Box: dimension 3, periodic boundaries, edges a time series of diagonal 3x3 matrices.
  EXPECT_EQ((read_attr<int>(f, "particles/all/box", "dimension", H5T_NATIVE_INT)),
            (std::vector<int>{3}));
  EXPECT_EQ(read_string_attr(f, "particles/all/box", "boundary"),
            (std::vector<std::string>{"periodic", "periodic", "periodic"}));
  EXPECT_EQ(shape(f, "particles/all/box/edges/value"), (std::vector<hsize_t>{3, 3, 3}));
  const auto edges = read_all<double>(f, "particles/all/box/edges/value", H5T_NATIVE_DOUBLE);
  for (int k = 0; k < 3; ++k)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c)
        EXPECT_EQ(edges[k * 9 + r * 3 + c], r == c ? frames[k].box_len[r] : 0.0);

  // Every element has step/time/value with the right shapes and types.
  for (const char* name : {"position", "velocity", "force", "species", "id"}) {
    const std::string g = std::string("particles/all/") + name;
    EXPECT_EQ(shape(f, g + "/step"), std::vector<hsize_t>{3}) << g;
    EXPECT_EQ(shape(f, g + "/time"), std::vector<hsize_t>{3}) << g;
    EXPECT_EQ(read_all<std::int64_t>(f, g + "/step", H5T_NATIVE_INT64),
              (std::vector<std::int64_t>{0, 10, 20}));
    EXPECT_EQ(read_all<double>(f, g + "/time", H5T_NATIVE_DOUBLE),
              (std::vector<double>{0.0, 10 * 0.005, 20 * 0.005}));
    H5 set{H5Dopen2(f, (g + "/value").c_str(), H5P_DEFAULT), H5Dclose};
    H5 type{H5Dget_type(set.id), H5Tclose};
    const bool vec = name[0] == 'p' || name[0] == 'v' || name[0] == 'f';
    EXPECT_EQ(H5Tget_class(type.id), vec ? H5T_FLOAT : H5T_INTEGER) << g;
    EXPECT_EQ(H5Tget_size(type.id), std::string(name) == "species" ? 4u : 8u) << g;
    H5 plist{H5Dget_create_plist(set.id), H5Pclose};
    EXPECT_EQ(H5Pget_layout(plist.id), H5D_CHUNKED) << g;
    std::vector<hsize_t> chunk(vec ? 3 : 2);
    H5Pget_chunk(plist.id, static_cast<int>(chunk.size()), chunk.data());
    EXPECT_EQ(chunk[0], 1u) << "one frame per chunk: " << g;
    EXPECT_EQ(chunk[1], n) << g;
  }
  EXPECT_EQ(shape(f, "particles/all/position/value"), (std::vector<hsize_t>{3, n, 3}));
  EXPECT_EQ(shape(f, "particles/all/species/value"), (std::vector<hsize_t>{3, n}));

  // Values are ordered by atom id.
  const auto pos = read_all<double>(f, "particles/all/position/value", H5T_NATIVE_DOUBLE);
  const auto vel = read_all<double>(f, "particles/all/velocity/value", H5T_NATIVE_DOUBLE);
  const auto frc = read_all<double>(f, "particles/all/force/value", H5T_NATIVE_DOUBLE);
  const auto species = read_all<std::int32_t>(f, "particles/all/species/value", H5T_NATIVE_INT32);
  const auto ids = read_all<std::int64_t>(f, "particles/all/id/value", H5T_NATIVE_INT64);
  for (int k = 0; k < 3; ++k) {
    const auto slot = test::slot_of_id(frames[k]);
    for (std::size_t a = 0; a < n; ++a) {
      EXPECT_EQ(ids[k * n + a], static_cast<std::int64_t>(a));
      EXPECT_EQ(species[k * n + a], frames[k].type[slot[a]]);
      for (int d = 0; d < 3; ++d) {
        EXPECT_EQ(pos[(k * n + a) * 3 + d], frames[k].x[slot[a] * 3 + d]);
        EXPECT_EQ(vel[(k * n + a) * 3 + d], frames[k].v[slot[a] * 3 + d]);
        EXPECT_EQ(frc[(k * n + a) * 3 + d], frames[k].f[slot[a] * 3 + d]);
      }
    }
  }

  // Observables: scalar time series with their own step/time.
  const char* names[] = {"temperature", "potential_energy", "kinetic_energy", "total_energy",
                         "pressure"};
  for (int q = 0; q < 5; ++q) {
    const std::string g = std::string("observables/") + names[q];
    EXPECT_EQ(shape(f, g + "/value"), std::vector<hsize_t>{3}) << g;
    EXPECT_EQ(read_all<std::int64_t>(f, g + "/step", H5T_NATIVE_INT64),
              (std::vector<std::int64_t>{0, 10, 20}));
    const auto v = read_all<double>(f, g + "/value", H5T_NATIVE_DOUBLE);
    for (int k = 0; k < 3; ++k) {
      const ThermoSample s = sample_at(10 * k);
      const double want[] = {s.temp, s.e_pair, s.ke, s.etotal, s.press};
      EXPECT_EQ(v[k], want[q]) << g;
    }
  }

  // Parameters: the deck verbatim, units, dt and the completion marker.
  {
    H5 set{H5Dopen2(f, "parameters/mdremap_deck", H5P_DEFAULT), H5Dclose};
    ASSERT_GE(set.id, 0);
    H5 type{H5Dget_type(set.id), H5Tclose};
    std::vector<char> buf(H5Tget_size(type.id));
    H5Dread(set.id, type.id, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data());
    EXPECT_EQ(std::string(buf.data()), options_for(n).deck_yaml);
  }
  EXPECT_EQ(read_string_attr(f, "parameters", "units"), std::vector<std::string>{"lj"});
  EXPECT_EQ((read_attr<double>(f, "parameters", "dt", H5T_NATIVE_DOUBLE)),
            (std::vector<double>{0.005}));
  EXPECT_EQ((read_attr<int>(f, "parameters", "mdremap_complete", H5T_NATIVE_INT)),
            (std::vector<int>{1}));
  // No unit attributes: MDAnalysis would reject reduced-unit strings (see h5md_writer.hpp).
  H5 value{H5Dopen2(f, "particles/all/position/value", H5P_DEFAULT), H5Dclose};
  EXPECT_EQ(H5Aexists(value.id, "unit"), 0);
}

TEST(H5md, OnlySelectedFieldsAreWritten) {
  TempDir dir;
  const std::string path = dir.file("pos_only.h5");
  H5mdOptions o = options_for(5);
  o.fields = H5mdFields::from_names({"position"});
  {
    H5mdWriter w(path, o);
    Frame fr = random_frame(5, 7, 0);
    fr.v.clear();  // not requested, so not needed
    fr.f.clear();
    w.write_frame(fr);
    w.close();
  }
  H5 file{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
  ASSERT_GE(file.id, 0);
  EXPECT_TRUE(exists(file.id, "particles/all/position/value"));
  EXPECT_FALSE(exists(file.id, "particles/all/velocity"));
  EXPECT_FALSE(exists(file.id, "particles/all/force"));
  EXPECT_FALSE(exists(file.id, "particles/all/species"));
  EXPECT_FALSE(exists(file.id, "particles/all/id"));
  EXPECT_EQ(shape(file.id, "particles/all/position/value"), (std::vector<hsize_t>{1, 5, 3}));
  EXPECT_EQ(shape(file.id, "observables/temperature/value"), std::vector<hsize_t>{0});
}

TEST(H5md, KilledRunLeavesReadableFileWithFramesSoFar) {
  TempDir dir;
  const std::string path = dir.file("killed.h5");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // No destructors, no close: the process dies as a SIGKILLed run would.
    H5mdWriter* w = new H5mdWriter(path, options_for(11));
    w->write_frame(random_frame(11, 1, 0));
    w->write_observables(sample_at(0));
    w->write_frame(random_frame(11, 2, 5));
    ::kill(::getpid(), SIGKILL);
    ::_exit(3);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));

  // The frames so far are in the locked staging file; the target name is not taken.
  EXPECT_FALSE(std::filesystem::exists(path));
  const std::string partial = path + ".partial";
  H5 file{H5Fopen(partial.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
  ASSERT_GE(file.id, 0) << "a killed run must leave a readable file";
  EXPECT_EQ(shape(file.id, "particles/all/position/value"), (std::vector<hsize_t>{2, 11, 3}));
  EXPECT_EQ(read_all<std::int64_t>(file.id, "particles/all/position/step", H5T_NATIVE_INT64),
            (std::vector<std::int64_t>{0, 5}));
  EXPECT_EQ(shape(file.id, "observables/pressure/value"), std::vector<hsize_t>{1});
  EXPECT_EQ((read_attr<int>(file.id, "parameters", "mdremap_complete", H5T_NATIVE_INT)),
            (std::vector<int>{0}));
}

TEST(H5md, BadFramesAndPathsAreReportedWithTheFileName) {
  TempDir dir;
  const std::string path = dir.file("bad.h5");
  H5mdWriter w(path, options_for(6));
  Frame wrong_n = random_frame(5, 3, 0);
  try {
    w.write_frame(wrong_n);
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("5 atom ids"), std::string::npos) << e.what();
  }
  Frame dup = random_frame(6, 3, 0);
  dup.id[0] = dup.id[1];
  EXPECT_THROW(w.write_frame(dup), Error);
  Frame short_v = random_frame(6, 3, 0);
  short_v.v.pop_back();
  EXPECT_THROW(w.write_frame(short_v), Error);
  w.close();
  EXPECT_THROW(w.write_frame(random_frame(6, 3, 0)), Error);

  try {
    H5mdWriter missing(dir.file("no/such/dir/x.h5"), options_for(6));
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no/such/dir/x.h5"), std::string::npos) << e.what();
  }
  EXPECT_THROW(H5mdFields::from_names({"position", "velocities"}), Error);
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The lock is taken before anything is truncated, and a finished file is replaced only whole, by a
// writer that completes.
TEST(H5md, SecondWriterIsRefusedAndTheFinishedFileSurvives) {
  TempDir dir;
  const std::string path = dir.file("shared.h5");
  {
    H5mdWriter w(path, options_for(3));
    w.write_frame(random_frame(3, 1, 0));
    w.close();
  }
  const std::string finished = bytes_of(path);
  ASSERT_FALSE(finished.empty());
  {
    H5mdWriter running(path, options_for(3));
    running.write_frame(random_frame(3, 2, 0));
    EXPECT_THROW(H5mdWriter(path, options_for(3)), OutputBusy);
    EXPECT_EQ(bytes_of(path), finished) << "a running writer must not touch the target";
    // Destroyed without close(): a failed run; the finished file stays as it was.
  }
  EXPECT_EQ(bytes_of(path), finished);
  EXPECT_TRUE(std::filesystem::exists(path + ".partial"));
  {
    H5mdWriter next(path, options_for(3));  // replaces the partial file (with a note)
    next.write_frame(random_frame(3, 3, 0));
    next.write_frame(random_frame(3, 4, 10));
    next.close();
  }
  EXPECT_FALSE(std::filesystem::exists(path + ".partial"));
  H5 file{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
  ASSERT_GE(file.id, 0);
  EXPECT_EQ(shape(file.id, "particles/all/position/value"), (std::vector<hsize_t>{2, 3, 3}));
}

TEST(H5md, IdsNeedNotBeDense) {
  // Ids after atoms were deleted (gaps) take the sorting path and still come out ordered.
  TempDir dir;
  const std::string path = dir.file("gaps.h5");
  Frame fr = random_frame(4, 9, 0);
  fr.id = {40, 7, 1000, 3};
  {
    H5mdWriter w(path, options_for(4));
    w.write_frame(fr);
    w.close();
  }
  H5 file{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
  ASSERT_GE(file.id, 0);
  EXPECT_EQ(read_all<std::int64_t>(file.id, "particles/all/id/value", H5T_NATIVE_INT64),
            (std::vector<std::int64_t>{3, 7, 40, 1000}));
  const auto pos = read_all<double>(file.id, "particles/all/position/value", H5T_NATIVE_DOUBLE);
  EXPECT_EQ(pos[0], fr.x[3 * 3]);  // id 3 sits in slot 3
  EXPECT_EQ(pos[3], fr.x[1 * 3]);  // id 7 sits in slot 1
}

}  // namespace
}  // namespace mdremap::io

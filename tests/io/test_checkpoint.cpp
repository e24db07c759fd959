// Checkpoints: bitwise round trip, and truncated / corrupted / foreign / incomplete files
// refused with one InputError line naming the file (and no HDF5 error stack on stderr).
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "io/checkpoint.hpp"
#include "io/staged_file.hpp"
#include "io_test_util.hpp"
#include "mdremap/error.hpp"

namespace mdremap::io {
namespace {

namespace fs = std::filesystem;

template <class T>
bool bitwise_equal(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

Checkpoint sample_checkpoint(std::size_t n) {
  Checkpoint c;
  c.frame = test::random_frame(n, 2024, 1500);
  // Values a float run would hold, plus awkward doubles: all must survive bit for bit.
  for (std::size_t i = 0; i < c.frame.x.size(); i += 2)
    c.frame.x[i] = static_cast<double>(static_cast<float>(c.frame.x[i]));
  c.frame.v[0] = -0.0;
  c.frame.v[1] = std::numeric_limits<double>::denorm_min();
  c.frame.v[2] = std::nextafter(1.0, 2.0);
  c.deck_yaml = "system:\n  lattice: fcc\n  temperature: 1.44 # ünïcode\n";
  c.precision = "float";
  c.backend = "openmp";
  c.thermostat_state = {0.125, -3.5e-7, 42.0};
  c.rng_seed = 0xDEADBEEFCAFEF00DULL;
  c.rng_counter = 987654321012ULL;
  c.step = 1500;
  c.list_x = c.frame.x;  // the list's build: positions, box, steps
  c.list_x[4] = std::nextafter(c.list_x[4], 1e9);
  for (int d = 0; d < 3; ++d)
    c.list_box_lo[d] = c.frame.box_lo[d] - 0.25, c.list_box_len[d] = c.frame.box_len[d] + 0.5;
  c.list_step = 1491;
  c.sort_step = 1200;
  return c;
}

std::vector<char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}
void write_bytes(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), bytes.size());
}

// Reads `path` expecting an InputError; returns its message and checks stderr stayed clean.
std::string refusal(const std::string& path) {
  testing::internal::CaptureStderr();
  std::string message;
  try {
    read_checkpoint(path);
  } catch (const InputError& e) {
    message = e.what();
  } catch (const std::exception& e) {
    message = std::string("WRONG EXCEPTION TYPE: ") + e.what();
  }
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err, "") << "HDF5 must not print error stacks";
  EXPECT_NE(message.find(path), std::string::npos) << "message must name the file: " << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
  return message;
}

TEST(Checkpoint, RoundTripIsBitwiseExact) {
  test::TempDir dir;
  const std::string path = dir.file("restart.h5");
  const Checkpoint c = sample_checkpoint(101);
  write_checkpoint(path, c);
  EXPECT_FALSE(fs::exists(path + ".partial"));
  const Checkpoint r = read_checkpoint(path);

  EXPECT_TRUE(bitwise_equal(r.frame.x, c.frame.x));
  EXPECT_TRUE(bitwise_equal(r.frame.v, c.frame.v));
  EXPECT_TRUE(bitwise_equal(r.frame.f, c.frame.f));
  EXPECT_EQ(r.frame.type, c.frame.type);
  EXPECT_EQ(r.frame.id, c.frame.id);  // slot order kept, not sorted by id
  EXPECT_TRUE(bitwise_equal(r.thermostat_state, c.thermostat_state));
  EXPECT_EQ(r.frame.step, c.frame.step);
  EXPECT_EQ(std::memcmp(&r.frame.time, &c.frame.time, sizeof(double)), 0);
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(r.frame.box_lo[d], c.frame.box_lo[d]);
    EXPECT_EQ(r.frame.box_len[d], c.frame.box_len[d]);
  }
  EXPECT_EQ(r.deck_yaml, c.deck_yaml);
  EXPECT_EQ(r.precision, "float");
  EXPECT_EQ(r.backend, "openmp");
  EXPECT_EQ(r.rng_seed, c.rng_seed);
  EXPECT_EQ(r.rng_counter, c.rng_counter);
  EXPECT_EQ(r.step, 1500);
  EXPECT_TRUE(bitwise_equal(r.list_x, c.list_x));
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(r.list_box_lo[d], c.list_box_lo[d]);
    EXPECT_EQ(r.list_box_len[d], c.list_box_len[d]);
  }
  EXPECT_EQ(r.list_step, 1491);
  EXPECT_EQ(r.sort_step, 1200);
}

TEST(Checkpoint, EmptyOptionalArraysAndOverwrite) {
  test::TempDir dir;
  const std::string path = dir.file("restart.h5");
  Checkpoint c = sample_checkpoint(7);
  c.frame.f.clear();
  c.thermostat_state.clear();
  c.deck_yaml.clear();
  c.list_x.clear();  // a checkpoint written before the list's build was kept
  write_checkpoint(path, sample_checkpoint(9));
  write_checkpoint(path, c);  // replaces the previous checkpoint atomically
  const Checkpoint r = read_checkpoint(path);
  EXPECT_TRUE(r.frame.f.empty());
  EXPECT_TRUE(r.thermostat_state.empty());
  EXPECT_EQ(r.deck_yaml, "");
  EXPECT_TRUE(r.list_x.empty());
  EXPECT_EQ(r.list_step, 0);
  EXPECT_EQ(r.frame.id, c.frame.id);
}

TEST(Checkpoint, TruncatedFileIsRefused) {
  test::TempDir dir;
  const std::string path = dir.file("restart.h5");
  write_checkpoint(path, sample_checkpoint(500));
  auto bytes = read_bytes(path);
  bytes.resize(bytes.size() / 2);
  write_bytes(path, bytes);
  const std::string msg = refusal(path);
  EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;
}

TEST(Checkpoint, CorruptedArrayBytesAreRefused) {
  test::TempDir dir;
  const std::string path = dir.file("restart.h5");
  write_checkpoint(path, sample_checkpoint(500));
  // Find where the raw bytes of "v" lie and flip a few in the middle of the array.
  haddr_t offset = HADDR_UNDEF;
  hsize_t size = 0;
  {
    hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(file, 0);
    hid_t set = H5Dopen2(file, "v", H5P_DEFAULT);
    offset = H5Dget_offset(set);
    size = H5Dget_storage_size(set);
    H5Dclose(set);
    H5Fclose(file);
  }
  ASSERT_NE(offset, HADDR_UNDEF);
  auto bytes = read_bytes(path);
  for (hsize_t k = 0; k < 4; ++k) bytes[offset + size / 2 + k] ^= 0x5A;
  write_bytes(path, bytes);
  // The whole-file seal sees it first, before HDF5 reads a byte.
  EXPECT_NE(refusal(path).find("corrupt (whole-file checksum mismatch)"), std::string::npos);
  // Behind the seal, the dataset's own checksum names the array.
  reseal_checkpoint(path);
  const std::string msg = refusal(path);
  EXPECT_NE(msg.find("checksum mismatch in dataset 'v'"), std::string::npos) << msg;
}

TEST(Checkpoint, ForeignMissingAndIncompleteFilesAreRefused) {
  test::TempDir dir;
  EXPECT_NE(refusal(dir.file("none.h5")).find("not found"), std::string::npos);

  const std::string text = dir.file("deck.yaml");
  std::ofstream(text) << "system: {}\n";
  EXPECT_NE(refusal(text).find("not an mdremap checkpoint"), std::string::npos);

  const std::string other = dir.file("other.h5");
  hid_t file = H5Fcreate(other.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  H5Fclose(file);
  EXPECT_NE(refusal(other).find("not an mdremap checkpoint"), std::string::npos);

  // A writer that stopped before its last step leaves no "complete" marker.
  const std::string partial = dir.file("partial.h5");
  write_checkpoint(partial, sample_checkpoint(5));
  file = H5Fopen(partial.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  H5Adelete(file, "complete");
  H5Fclose(file);
  EXPECT_NE(refusal(partial).find("corrupt"), std::string::npos);
  reseal_checkpoint(partial);
  EXPECT_NE(refusal(partial).find("incomplete"), std::string::npos);

  // A newer format version is refused by name.
  const std::string newer = dir.file("newer.h5");
  write_checkpoint(newer, sample_checkpoint(5));
  file = H5Fopen(newer.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  hid_t attr = H5Aopen(file, "format_version", H5P_DEFAULT);
  const int three = 3;
  H5Awrite(attr, H5T_NATIVE_INT, &three);
  H5Aclose(attr);
  H5Fclose(file);
  reseal_checkpoint(newer);
  EXPECT_NE(refusal(newer).find("version 3"), std::string::npos);
  // Version 1 files (no seal) are refused before HDF5 reads them, with the reason.
  const std::string v1 = dir.file("v1.h5");
  file = H5Fcreate(v1.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  H5Fclose(file);
  EXPECT_NE(refusal(v1).find("no mdremap seal"), std::string::npos);
}

TEST(Checkpoint, WriteFailureNamesThePath) {
  Checkpoint c = sample_checkpoint(3);
  try {
    write_checkpoint("/etc/passwd/restart.h5", c);
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/etc/passwd/restart.h5"), std::string::npos);
  }
  c.frame.v.pop_back();
  test::TempDir dir;
  EXPECT_THROW(write_checkpoint(dir.file("bad.h5"), c), Error);
  EXPECT_FALSE(fs::exists(dir.file("bad.h5")));
}

// The checkpoint's array checksum (64-bit FNV-1a of the bytes), to forge files that pass it.
std::uint64_t fnv1a(const void* data, std::size_t bytes) {
  std::uint64_t h = 14695981039346656037ULL;
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

// A blown-up state is never written, and a checkpoint holding non-finite values (here forged with
// valid checksums) is refused on reading.
TEST(Checkpoint, NonFiniteStateIsNeitherWrittenNorRead) {
  test::TempDir dir;
  const std::string path = dir.file("restart.h5");
  Checkpoint bad = sample_checkpoint(20);
  bad.frame.v[7] = std::nan("");
  try {
    write_checkpoint(path, bad);
    FAIL() << "a NaN velocity was written";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("non-finite velocity"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(path + ".partial"));

  write_checkpoint(path, sample_checkpoint(20));
  std::vector<double> x = read_checkpoint(path).frame.x;
  x[4] = -std::numeric_limits<double>::infinity();
  const std::uint64_t sum = fnv1a(x.data(), x.size() * sizeof(double));
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  hid_t set = H5Dopen2(file, "x", H5P_DEFAULT);
  ASSERT_GE(H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x.data()), 0);
  hid_t attr = H5Aopen(set, "fnv1a64", H5P_DEFAULT);
  ASSERT_GE(H5Awrite(attr, H5T_NATIVE_UINT64, &sum), 0);
  H5Aclose(attr);
  H5Dclose(set);
  H5Fclose(file);
  reseal_checkpoint(path);
  const std::string msg = refusal(path);
  EXPECT_NE(msg.find("non-finite position"), std::string::npos) << msg;
}

// One writer per checkpoint at a time.
TEST(Checkpoint, SecondWriterIsRefusedWhileTheFirstHoldsTheFile) {
  test::TempDir dir;
  const std::string path = dir.file("restart.h5");
  StagedFile held(path);
  EXPECT_THROW(write_checkpoint(path, sample_checkpoint(5)), OutputBusy);
  write_checkpoint(held, sample_checkpoint(5), /*again=*/true);
  write_checkpoint(held, sample_checkpoint(6), /*again=*/false);
  EXPECT_EQ(read_checkpoint(path).frame.n(), 6u);
  EXPECT_FALSE(fs::exists(path + ".partial"));
}

}  // namespace
}  // namespace mdremap::io

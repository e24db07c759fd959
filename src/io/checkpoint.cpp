#include "io/checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "io/checked_write.hpp"
#include "io/hdf5_util.hpp"
#include "io/staged_file.hpp"
#include "mdremap/error.hpp"

namespace mdremap::io {

namespace fs = std::filesystem;

namespace {

// 64-bit FNV-1a: simple, dependency-free, and any flipped byte changes the result.
class Fnv1a {
 public:
  void add(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i) {
      hash_ ^= p[i];
      hash_ *= 1099511628211ULL;
    }
  }
  template <class T>
  void add(const T& value) {
    add(&value, sizeof(T));
  }
  void add(const std::string& s) {
    add(static_cast<std::uint64_t>(s.size()));
    add(s.data(), s.size());
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 14695981039346656037ULL;
};

template <class T>
std::uint64_t checksum(const std::vector<T>& values) {
  Fnv1a h;
  h.add(values.data(), values.size() * sizeof(T));
  return h.value();
}
std::uint64_t checksum(const std::string& s) {
  Fnv1a h;
  h.add(s);
  return h.value();
}

// Scalars and strings stored as attributes, hashed together in one fixed order.
std::uint64_t header_checksum(const Checkpoint& c) {
  Fnv1a h;
  h.add(c.step);
  h.add(c.frame.step);
  h.add(c.frame.time);
  for (double d : c.frame.box_lo) h.add(d);
  for (double d : c.frame.box_len) h.add(d);
  h.add(c.rng_seed);
  h.add(c.rng_counter);
  h.add(static_cast<std::uint64_t>(c.frame.id.size()));
  h.add(c.precision);
  h.add(c.backend);
  if (!c.list_x.empty()) {  // absent from checkpoints written before the list build was kept
    for (double d : c.list_box_lo) h.add(d);
    for (double d : c.list_box_len) h.add(d);
    h.add(c.list_step);
    h.add(c.sort_step);
  }
  return h.value();
}

template <class T>
void write_array(hid_t file, const std::string& name, const std::vector<T>& values) {
  h5::write_dataset(file, name, values);
  h5::Handle set = h5::open_dataset(file, name);
  h5::write_attr(set.get(), "fnv1a64", checksum(values));
}

struct Corrupt : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class T>
std::vector<T> read_array(hid_t file, const std::string& name) {
  std::vector<T> values = h5::read_dataset<T>(file, name);
  h5::Handle set = h5::open_dataset(file, name);
  if (h5::read_attr<std::uint64_t>(set.get(), "fnv1a64") != checksum(values))
    throw Corrupt("checksum mismatch in dataset '" + name + "': the checkpoint is corrupt");
  return values;
}

// The index of the first value that is not finite, or -1.
template <class T>
std::ptrdiff_t first_non_finite(const std::vector<T>& values) {
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!std::isfinite(static_cast<double>(values[i]))) return static_cast<std::ptrdiff_t>(i);
  return -1;
}

// Why a checkpoint cannot be a restart point, or "": non-finite state (a run that blew up) is
// never written, and never read back.
std::string non_finite_problem(const Checkpoint& c) {
  const Frame& fr = c.frame;
  const struct {
    const char* name;
    const std::vector<double>* values;
    int width;
  } arrays[] = {{"position", &fr.x, 3},
                {"velocity", &fr.v, 3},
                {"force", &fr.f, 3},
                {"list-build position", &c.list_x, 3},
                {"thermostat state", &c.thermostat_state, 1}};
  for (const auto& a : arrays) {
    const auto i = first_non_finite(*a.values);
    if (i < 0) continue;
    if (a.width == 3 && static_cast<std::size_t>(i / 3) < fr.id.size())
      return std::string("non-finite ") + a.name + " of atom id " +
             std::to_string(fr.id[static_cast<std::size_t>(i / 3)]);
    return std::string("non-finite ") + a.name;
  }
  for (int d = 0; d < 3; ++d)
    if (!std::isfinite(fr.box_lo[d]) || !std::isfinite(fr.box_len[d]) || !(fr.box_len[d] > 0))
      return "box is not finite and positive";
  if (!c.list_x.empty())
    for (int d = 0; d < 3; ++d)
      if (!std::isfinite(c.list_box_lo[d]) || !std::isfinite(c.list_box_len[d]) ||
          !(c.list_box_len[d] > 0))
        return "list-build box is not finite and positive";
  if (!std::isfinite(fr.time)) return "non-finite time";
  return {};
}

// ---- the whole-file seal ----------------------------------------------------------------
// HDF5 1.10 itself overflows buffers on some corrupted files (found by fuzzing), so a
// damaged checkpoint must be refused before HDF5 parses a byte of it. The file starts with a
// user block (which HDF5 skips) holding the length and a checksum of everything after it,
// written once the HDF5 file is closed; read_checkpoint verifies both first.
constexpr std::size_t kSealBytes = 512;  // HDF5 user block size (a power of two >= 512)
constexpr const char* kSealMagic = "mdremap-checkpoint 2\n";

// 64-bit FNV-1a over little-endian 64-bit words (the tail zero-padded): one multiply per 8
// bytes, so sealing a large checkpoint costs about as much as copying it.
class WordHash {
 public:
  void add(const unsigned char* p, std::size_t bytes) {
    std::size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      mix(w);
    }
    if (i < bytes) {
      std::uint64_t w = 0;
      std::memcpy(&w, p + i, bytes - i);
      mix(w);
    }
  }
  std::uint64_t value() const { return hash_; }

 private:
  void mix(std::uint64_t w) { hash_ = (hash_ ^ w) * 1099511628211ULL; }
  std::uint64_t hash_ = 14695981039346656037ULL;
};

// Hash of bytes [kSealBytes, end) of the open file `fd`, and their count. Reads in chunks that
// are multiples of 8, so the word boundaries do not depend on the chunking.
bool hash_after_seal(int fd, std::uint64_t& hash, std::uint64_t& length) {
  std::vector<unsigned char> buf(1 << 18);
  WordHash h;
  length = 0;
  for (off_t at = kSealBytes;;) {
    const ssize_t got = ::pread(fd, buf.data(), buf.size(), at);
    if (got < 0) return false;
    if (got == 0) break;
    h.add(buf.data(), static_cast<std::size_t>(got));
    at += got;
    length += static_cast<std::uint64_t>(got);
    if (static_cast<std::size_t>(got) < buf.size()) {
      // A short read must be the end: check, so a later chunk never starts off the 8-byte grid.
      const ssize_t more = ::pread(fd, buf.data(), 1, at);
      if (more != 0) return false;
      break;
    }
  }
  hash = h.value();
  return true;
}

std::string seal_text(std::uint64_t length, std::uint64_t hash) {
  char text[128];
  std::snprintf(text, sizeof text, "%sbytes %llu\nfnv1a64 %016llx\n", kSealMagic,
                static_cast<unsigned long long>(length), static_cast<unsigned long long>(hash));
  return text;
}

// Writes the seal into the user block of the closed HDF5 file `path`.
void write_seal(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) throw h5::Failure("cannot reopen '" + path + "' to seal it");
  std::uint64_t hash = 0, length = 0;
  bool ok = hash_after_seal(fd, hash, length);
  std::string block = seal_text(length, hash);
  block.resize(kSealBytes, '\0');
  ok = ok && ::pwrite(fd, block.data(), block.size(), 0) == static_cast<ssize_t>(block.size());
  ::close(fd);
  if (!ok) throw h5::Failure("cannot seal '" + path + "' (disk full?)");
}

// Empty if the seal of `path` matches its bytes; else the reason to refuse the file.
std::string check_seal(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "cannot open checkpoint (" + std::string(std::strerror(errno)) + ")";
  char block[kSealBytes + 1] = {};
  const ssize_t got = ::pread(fd, block, kSealBytes, 0);
  std::string why;
  unsigned long long want_length = 0, want_hash = 0;
  const std::size_t magic_len = std::strlen(kSealMagic);
  if (got < static_cast<ssize_t>(magic_len) || std::memcmp(block, kSealMagic, magic_len) != 0) {
    why = std::strncmp(block, "mdremap-checkpoint", 18) == 0
              ? "checkpoint format is not supported by this build (it reads '" +
                    std::string(kSealMagic, magic_len - 1) + "')"
              : "not an mdremap checkpoint (no mdremap seal at its start; checkpoints written "
                "before this format had none: write a new one)";
  } else if (std::sscanf(block + magic_len, "bytes %llu\nfnv1a64 %16llx\n", &want_length,
                         &want_hash) != 2) {
    why = "the checkpoint is corrupt (unreadable seal)";
  } else {
    std::uint64_t hash = 0, length = 0;
    if (!hash_after_seal(fd, hash, length))
      why = "cannot read checkpoint";
    else if (length < want_length)
      why = "the checkpoint is truncated (" + std::to_string(length + kSealBytes) + " of " +
            std::to_string(want_length + kSealBytes) + " bytes)";
    else if (length != want_length || hash != want_hash)
      why = "the checkpoint is corrupt (whole-file checksum mismatch)";
  }
  ::close(fd);
  return why;
}

}  // namespace

void reseal_checkpoint(const std::string& path) {
  try {
    write_seal(path);
  } catch (const h5::Failure& e) {
    throw Error(e.what());
  }
}

void write_checkpoint(StagedFile& out, const Checkpoint& c, bool again) {
  const std::string& path = out.target();
  const Frame& fr = c.frame;
  const std::size_t n = fr.id.size();
  auto require = [&](bool ok, const std::string& what) {
    if (!ok) throw Error("checkpoint '" + path + "': " + what);
  };
  require(fr.x.size() == 3 * n, "position array must hold 3 values per atom id");
  require(fr.v.size() == 3 * n, "velocity array must hold 3 values per atom id");
  require(fr.f.empty() || fr.f.size() == 3 * n, "force array has the wrong size");
  require(fr.type.size() == n, "type array must hold one value per atom id");
  require(fr.image.empty() || fr.image.size() == 3 * n, "image array has the wrong size");
  require(c.list_x.empty() || c.list_x.size() == 3 * n, "list-build positions have the wrong size");
  const std::string bad = non_finite_problem(c);
  require(bad.empty(), "refusing to write a checkpoint with " + bad);

  // The HDF5 file is built in memory (the core driver, no backing store) and written to the
  // staging file by io::write_all, which checks every byte: HDF5's own writes to a full disk
  // were not all reported, and a short file was sealed and renamed over the good checkpoint.
  std::vector<unsigned char> image;
  h5::QuietErrors quiet;
  try {
    h5::Handle fapl(h5::check(H5Pcreate(H5P_FILE_ACCESS), "cannot create file-access properties"),
                    H5Pclose);
    const std::size_t estimate = n * (13 * sizeof(double) + 16) + c.deck_yaml.size() + (1 << 16);
    h5::check_status(H5Pset_fapl_core(fapl.get(), estimate, false),
                     "cannot set up the in-memory file");
    h5::Handle fcpl(h5::check(H5Pcreate(H5P_FILE_CREATE), "cannot create file properties"),
                    H5Pclose);
    h5::check_status(H5Pset_userblock(fcpl.get(), kSealBytes), "cannot reserve the seal block");
    h5::Handle file(H5Fcreate(out.staging().c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get()),
                    H5Fclose);
    if (!file.valid()) throw h5::Failure("cannot create the checkpoint in memory");
    const hid_t root = file.get();
    h5::write_attr_string(root, "format", kCheckpointFormat);
    h5::write_attr(root, "format_version", std::int32_t{kCheckpointVersion});
    h5::write_attr(root, "step", c.step);
    h5::write_attr(root, "frame_step", fr.step);
    h5::write_attr(root, "time", fr.time);
    h5::write_attr(root, "box_lo", fr.box_lo, {3});
    h5::write_attr(root, "box_len", fr.box_len, {3});
    h5::write_attr(root, "rng_seed", c.rng_seed);
    h5::write_attr(root, "rng_counter", c.rng_counter);
    h5::write_attr(root, "n_atoms", static_cast<std::uint64_t>(n));
    h5::write_attr_string(root, "precision", c.precision);
    h5::write_attr_string(root, "backend", c.backend);
    if (!c.list_x.empty()) {
      h5::write_attr(root, "list_box_lo", c.list_box_lo, {3});
      h5::write_attr(root, "list_box_len", c.list_box_len, {3});
      h5::write_attr(root, "list_step", c.list_step);
      h5::write_attr(root, "sort_step", c.sort_step);
    }
    h5::write_attr(root, "header_fnv1a64", header_checksum(c));

    write_array(root, "x", fr.x);
    write_array(root, "v", fr.v);
    write_array(root, "f", fr.f);
    write_array(root, "type", fr.type);
    write_array(root, "id", fr.id);
    if (!fr.image.empty()) write_array(root, "image", fr.image);  // periodic image counts
    write_array(root, "thermostat_state", c.thermostat_state);
    if (!c.list_x.empty()) write_array(root, "list_x", c.list_x);  // the list's build
    h5::write_string_dataset(root, "deck", c.deck_yaml);
    h5::Handle deck = h5::open_dataset(root, "deck");
    h5::write_attr(deck.get(), "fnv1a64", checksum(c.deck_yaml));
    deck.reset();
    h5::write_attr(root, "complete", std::int32_t{1});

    h5::check_status(H5Fflush(root, H5F_SCOPE_GLOBAL), "cannot flush the in-memory file");
    // The image is the file after its user block (HDF5 addresses it from there).
    const ssize_t size = H5Fget_file_image(root, nullptr, 0);
    if (size <= 0) throw h5::Failure("cannot take the in-memory file's image");
    image.resize(static_cast<std::size_t>(size));
    if (H5Fget_file_image(root, image.data(), image.size()) != size)
      throw h5::Failure("cannot take the in-memory file's image");
    if (file.close() < 0) throw h5::Failure("cannot close the in-memory file");
  } catch (const h5::Failure& e) {
    throw Error("cannot write checkpoint '" + path + "': " + e.what());
  }

  WordHash h;
  h.add(image.data(), image.size());
  std::string seal = seal_text(image.size(), h.value());
  seal.resize(kSealBytes, '\0');
  const std::string what = "checkpoint '" + path + "'";
  int fd = out.fd();
  const bool direct = fd < 0;  // a device or pipe: written in place
  if (direct) fd = ::open(out.staging().c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw Error("cannot write " + what + ": " + std::strerror(errno));
  try {
    write_all(fd, seal.data(), seal.size(), what);
    write_all(fd, image.data(), image.size(), what);
  } catch (...) {
    if (direct) ::close(fd);
    throw;
  }
  if (direct) ::close(fd);
  // fsync, then the rename over the previous checkpoint (which survives any failure before it).
  out.commit(again);
}

void write_checkpoint(const std::string& path, const Checkpoint& c) {
  StagedFile out(path);
  try {
    write_checkpoint(out, c, false);
  } catch (...) {
    out.discard();
    throw;
  }
}

Checkpoint read_checkpoint(const std::string& path) {
  auto bad = [&](const std::string& problem) { return InputError(path, 0, problem); };
  std::error_code ec;
  if (!fs::exists(path, ec)) throw bad("checkpoint file not found");
  if (!fs::is_regular_file(path, ec)) throw bad("checkpoint path is not a regular file");

  // Nothing reaches HDF5 unless the seal matches every byte (see check_seal).
  const std::string unsealed = check_seal(path);
  if (!unsealed.empty()) throw bad(unsealed);
  h5::QuietErrors quiet;
  if (H5Fis_hdf5(path.c_str()) <= 0)
    throw bad("not an mdremap checkpoint (not an HDF5 file, or its header is damaged)");
  h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.valid()) throw bad("cannot open checkpoint: HDF5 file is truncated or corrupt");
  const hid_t root = file.get();

  Checkpoint c;
  try {
    if (!h5::has_attr(root, "format") || h5::read_attr_string(root, "format") != kCheckpointFormat)
      throw bad(std::string("not an mdremap checkpoint (no format attribute '") +
                kCheckpointFormat + "')");
    const auto version = h5::read_attr<std::int32_t>(root, "format_version");
    if (version != kCheckpointVersion)
      throw bad("checkpoint format version " + std::to_string(version) +
                " is not supported (this build reads version " +
                std::to_string(kCheckpointVersion) + ")");
    if (!h5::has_attr(root, "complete") || h5::read_attr<std::int32_t>(root, "complete") != 1)
      throw bad("incomplete checkpoint (the run stopped while writing it)");

    c.step = h5::read_attr<std::int64_t>(root, "step");
    c.frame.step = h5::read_attr<std::int64_t>(root, "frame_step");
    c.frame.time = h5::read_attr<double>(root, "time");
    const auto lo = h5::read_attr_array<double>(root, "box_lo", 3);
    const auto len = h5::read_attr_array<double>(root, "box_len", 3);
    std::copy(lo.begin(), lo.end(), c.frame.box_lo);
    std::copy(len.begin(), len.end(), c.frame.box_len);
    c.rng_seed = h5::read_attr<std::uint64_t>(root, "rng_seed");
    c.rng_counter = h5::read_attr<std::uint64_t>(root, "rng_counter");
    const auto n = h5::read_attr<std::uint64_t>(root, "n_atoms");
    c.precision = h5::read_attr_string(root, "precision");
    c.backend = h5::read_attr_string(root, "backend");

    c.frame.x = read_array<double>(root, "x");
    c.frame.v = read_array<double>(root, "v");
    c.frame.f = read_array<double>(root, "f");
    c.frame.type = read_array<std::int32_t>(root, "type");
    c.frame.id = read_array<std::int64_t>(root, "id");
    if (h5::has_link(root, "image")) c.frame.image = read_array<std::int32_t>(root, "image");
    c.thermostat_state = read_array<double>(root, "thermostat_state");
    if (h5::has_link(root, "list_x")) {  // checkpoints before the list build was kept lack it
      c.list_x = read_array<double>(root, "list_x");
      if (c.list_x.empty()) throw Corrupt("empty dataset 'list_x': the checkpoint is corrupt");
      const auto llo = h5::read_attr_array<double>(root, "list_box_lo", 3);
      const auto llen = h5::read_attr_array<double>(root, "list_box_len", 3);
      std::copy(llo.begin(), llo.end(), c.list_box_lo);
      std::copy(llen.begin(), llen.end(), c.list_box_len);
      c.list_step = h5::read_attr<std::int64_t>(root, "list_step");
      c.sort_step = h5::read_attr<std::int64_t>(root, "sort_step");
    }
    c.deck_yaml = h5::read_string_dataset(root, "deck");
    h5::Handle deck = h5::open_dataset(root, "deck");
    if (h5::read_attr<std::uint64_t>(deck.get(), "fnv1a64") != checksum(c.deck_yaml))
      throw Corrupt("checksum mismatch in dataset 'deck': the checkpoint is corrupt");

    if (c.frame.id.size() != n || c.frame.type.size() != n || c.frame.x.size() != 3 * n ||
        c.frame.v.size() != 3 * n || (!c.frame.f.empty() && c.frame.f.size() != 3 * n) ||
        (!c.frame.image.empty() && c.frame.image.size() != 3 * n) ||
        (!c.list_x.empty() && c.list_x.size() != 3 * n))
      throw Corrupt("array sizes disagree with n_atoms = " + std::to_string(n) +
                    ": the checkpoint is corrupt");
    if (h5::read_attr<std::uint64_t>(root, "header_fnv1a64") != header_checksum(c))
      throw Corrupt("checksum mismatch in the header attributes: the checkpoint is corrupt");
    const std::string nonfinite = non_finite_problem(c);
    if (!nonfinite.empty())
      throw bad("checkpoint holds " + nonfinite +
                ": it was written by a run that blew up, and cannot be continued");
  } catch (const Corrupt& e) {
    throw bad(e.what());
  } catch (const h5::Failure& e) {
    throw bad(std::string(e.what()) + " (truncated or corrupt checkpoint?)");
  }
  return c;
}

}  // namespace mdremap::io

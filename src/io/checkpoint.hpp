#pragma once
// Restart checkpoints (BRIEF section 8): an HDF5 file holding everything a run needs to
// continue bit-identically on the same backend and precision. Arrays keep the engine's slot
// order (not id order), so a restart reproduces the same memory layout and summation order.
//
// Format 2 starts with a 512-byte HDF5 user block holding a seal (magic, length and a 64-bit
// checksum of every byte after it), verified before HDF5 parses the file.
// Writing goes to `path.partial` (locked, io/staged_file.hpp), which is flushed to disk and
// renamed over `path`: a crash never leaves a half-written file under the real name, and the
// previous checkpoint survives until the new one is complete. Inside, a "complete" attribute is
// written last and every array carries a 64-bit FNV-1a checksum of its bytes, so truncated or
// corrupted files are refused. Non-finite state (a run that blew up) is neither written nor read.
#include <cstdint>
#include <string>
#include <vector>

#include "mdremap/frame.hpp"

namespace mdremap::io {

struct Checkpoint {
  Frame frame;            // x, v (f, image if not empty), type, id, box, step, time
  std::string deck_yaml;  // the full resolved deck
  std::string precision;  // "float" or "double"
  std::string backend;    // e.g. "openmp", "cuda"
  std::vector<double> thermostat_state;
  std::uint64_t rng_seed = 0;
  std::uint64_t rng_counter = 0;
  std::int64_t step = 0;
  // The neighbour list's last build, for a restart that builds the same list: the positions it
  // was built from (3 per atom, ordered as frame.x, in the run's storage precision), the box
  // then, the build's step and the last spatial sort's. Empty list_x: a checkpoint written
  // before these were kept (the restart builds its list from frame.x).
  std::vector<double> list_x;
  double list_box_lo[3] = {0, 0, 0};
  double list_box_len[3] = {0, 0, 0};
  std::int64_t list_step = 0;
  std::int64_t sort_step = 0;
};

// Name and version stored in the file; read_checkpoint refuses anything else.
inline constexpr const char* kCheckpointFormat = "mdremap-checkpoint";
inline constexpr int kCheckpointVersion = 2;  // 2: the whole-file seal in the HDF5 user block

class StagedFile;

// Throws mdremap::Error naming `path` on failure (the old file at `path` is then untouched).
void write_checkpoint(const std::string& path, const Checkpoint& checkpoint);
// The same through a staging file the caller holds locked for the whole run; with `again` it
// stays locked (a fresh one) for the next checkpoint.
void write_checkpoint(StagedFile& out, const Checkpoint& checkpoint, bool again);

// Throws mdremap::InputError naming `path` for a missing, foreign, truncated, incomplete or
// corrupt file; never prints HDF5 error stacks. The whole-file seal is verified before HDF5
// reads anything (HDF5 1.10 overflows buffers on some corrupted files).
Checkpoint read_checkpoint(const std::string& path);

// Recomputes the seal of a checkpoint file after its HDF5 content was changed on purpose (tests
// that reach the checks behind the seal; tools that edit checkpoints). Throws mdremap::Error.
void reseal_checkpoint(const std::string& path);

}  // namespace mdremap::io

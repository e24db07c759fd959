#pragma once
// The one low-level writer of every output file mdremap writes itself (checkpoints, summaries,
// CSV, matrices, CNF files): each write is checked to its last byte, so a full disk is an
// error, never a short file sealed as complete. For tests, MDREMAP_FAIL_WRITE_AFTER=N makes
// every write after the first N fail as a full disk would (ENOSPC).
#include <cstddef>
#include <string>

namespace mdremap::io {

// Writes all `bytes` of `data` to `fd` (at the file offset, or at `offset` when it is not
// negative), retrying short writes and interrupts. Throws mdremap::Error naming `what` and the
// system's reason on failure.
void write_all(int fd, const void* data, std::size_t bytes, const std::string& what,
               long long offset = -1);

// Flushes `fd` to the disk (fsync); a device or pipe, which cannot be synced, passes. Throws
// mdremap::Error naming `what` on failure (delayed allocation reports a full disk here).
void sync_file(int fd, const std::string& what);

}  // namespace mdremap::io

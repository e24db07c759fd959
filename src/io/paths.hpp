#pragma once
// Output-path checks done before a run starts, so a long run does not fail at its first write.
#include <string>
#include <vector>

namespace mdremap::io {

// Throws mdremap::Error naming `path` when a file there could not be created: its directory
// is missing, is not a directory or is not writable, or `path` itself is a directory or a
// read-only file. Creates nothing (a typo in a deck should not leave directories behind).
void check_writable(const std::string& path);

}  // namespace mdremap::io

namespace mdremap::io {

// One path a command reads or writes, named as the user gave it (a deck key or a flag).
struct PathUse {
  std::string role;  // "output.h5md.file", "--summary", "the deck", ...
  std::string path;
  bool output = true;
  // An output directory holding files named by a pattern (VTK: basename.pvd and
  // basename_<step>.vtp): `path` is the directory and `basename` the pattern's stem.
  std::string basename;
};

// Refuses (InputError naming the later role, exit 2) two uses of one file where at least one is
// an output: an output over an input, or two outputs of one run over each other. Paths are
// compared after resolving symbolic links, `.` and `..` (weakly_canonical), and as the same
// inode where both exist (hard links). An output's staging file `PATH.partial` counts as its
// own. Creates nothing.
void check_distinct(const std::vector<PathUse>& uses);

// `a` and `b` name one file (after links, `.` and `..`; the same inode where both exist).
bool same_path(const std::string& a, const std::string& b);

// The output guard every command calls before any work, with every path it reads and writes:
// each output can be created (check_writable), none is a staging file `PATH.partial` (another
// run's, being written, or an interrupted run's, kept for continuing it), and none overwrites an
// input or another output (check_distinct). Throws InputError naming the role (exit 2).
void check_outputs(const std::vector<PathUse>& uses);

}  // namespace mdremap::io

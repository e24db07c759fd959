#pragma once
// Whole output files written in one go (JSON summaries, matrices, CNF files, assignments, CSV
// tables): the contents go through io::write_all into the locked staging file of a StagedFile
// and appear under their name only complete. A device or pipe is written in place; a symbolic
// link is followed to its target (io/staged_file.hpp).
#include <functional>
#include <iosfwd>
#include <string>

namespace mdremap::io {

class StagedFile;

// `fill` writes the contents to the stream. Throws mdremap::Error naming `path` when a write
// fails (the earlier file at `path` is then untouched), OutputBusy when another run writes it.
void write_staged(const std::string& path, const std::function<void(std::ostream&)>& fill);
// The same into an output locked earlier (before the run), committed at the end.
void write_staged(StagedFile& out, const std::function<void(std::ostream&)>& fill);

}  // namespace mdremap::io

#pragma once
// Output-path checks done before a run starts, so a long run does not fail at its first write.
#include <string>

namespace mdremap::io {

// Throws mdremap::Error naming `path` when a file there could not be created: its directory
// is missing, is not a directory or is not writable, or `path` itself is a directory or a
// read-only file. Creates nothing (a typo in a deck should not leave directories behind).
void check_writable(const std::string& path);

}  // namespace mdremap::io

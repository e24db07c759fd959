#pragma once
// Output files written under a temporary name beside their target and renamed over it once
// complete. The policy for an existing output file: it is replaced whole when the new
// one is complete (the rename is atomic), never truncated or half-overwritten first. The
// temporary file `TARGET.partial` is locked (flock) before it is emptied and stays locked until
// the rename, so a second run given the same output is refused instead of destroying the first
// run's file; the lock dies with the process, so a killed run leaves an unlocked `.partial`
// (its output so far), which the next run writing the same target removes with a note.
// A target that is a device or a pipe (/dev/null, /dev/stdout) is written directly.
#include <functional>
#include <string>

#include "mdremap/error.hpp"

namespace mdremap::io {

// Another process holds the lock of an output: bad input (exit 2), found before any work.
class OutputBusy : public InputError {
 public:
  using InputError::InputError;
};

// An existing output a continued run cannot append to (another layout): bad input (exit 2).
class CannotContinue : public InputError {
 public:
  using InputError::InputError;
};

class StagedFile {
 public:
  static constexpr const char* kSuffix = ".partial";
  static std::string staging_name(const std::string& target) { return target + kSuffix; }

  // Creates, locks and empties `target.partial`. Throws OutputBusy naming `target` when another
  // process writes it, mdremap::Error when it cannot be created.
  explicit StagedFile(std::string target);
  // What a continued run's output starts from (Continue): the staging file an interrupted run
  // left is kept as it is, else the complete file at `target` is copied into it; either is
  // then appended to and renamed over `target` at the end, as a new one would be.
  enum class Start { Empty, Continue };
  enum class Held { Nothing, Interrupted, Copy };  // what the staging file held when locked
  StagedFile(std::string target, Start start);
  // Not committed: the staging file stays as the partial output (the lock is released).
  ~StagedFile();
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;

  const std::string& target() const { return target_; }
  const std::string& staging() const { return staging_; }
  int fd() const { return fd_; }
  Held held() const { return held_; }

  // Flushes the staging file to disk and renames it over the target (then syncs the
  // directory). With `again`, a fresh staging file is locked for the next version (a checkpoint
  // is committed many times); otherwise the lock is released. Throws mdremap::Error.
  void commit(bool again = false);
  // Removes the staging file and releases the lock (a multi-version output at the end, or an
  // output given up on).
  void discard();

  // Where notes go (one line each; default: stderr as "note: ..."). Tests may redirect them.
  static void set_note_handler(std::function<void(const std::string&)> handler);
  static void note(const std::string& line);

 private:
  void acquire();
  void release();
  void copy_target();  // Start::Continue without an interrupted file: the target's bytes
  std::string target_, real_, staging_;  // real_: target_ through a symbolic link
  bool direct_ = false;                  // a device or pipe: written in place, not staged
  bool keep_ = false;                    // Start::Continue, until the first staging file is locked
  Held held_ = Held::Nothing;
  int fd_ = -1;
};

// Removes `target.partial` if it is left by a process that is gone (not locked), with a note.
// For inputs (a checkpoint restarted from): a killed checkpoint write leaves one beside it.
void remove_stale_partial(const std::string& target);

}  // namespace mdremap::io

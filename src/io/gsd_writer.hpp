#pragma once
// A GSD trajectory in HOOMD-blue's schema ("hoomd" 1.4; gsd.readthedocs.io), through the file
// layer of io/gsd_file.hpp. Every frame holds configuration/step and box, particles/N, types,
// typeid, position (and velocity, image as the fields ask); frame 0 also particles/mass.
// Positions are single precision relative to the box centre, wrapped into [-L/2, L/2) with
// the image counts moved to match (HOOMD's convention: the unwrapped position is
// position + image * L). Particles are in the engine's id order (HOOMD's tags).
//
// Written as `path.partial` (io/staged_file.hpp) and renamed over `path` by close(); a killed
// run leaves a `.partial` whose complete frames read back.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mdremap/frame.hpp"

namespace mdremap::io {

class StagedFile;
namespace gsd {
class Writer;
}

struct GsdFields {
  bool position = true;
  bool velocity = true;
  bool image = true;
  // From deck names ("position", "velocity", "image"); position is required. Throws
  // mdremap::Error naming an unknown field.
  static GsdFields from_names(const std::vector<std::string>& names);
};

struct GsdOptions {
  GsdFields fields;
  std::vector<std::string> type_names;  // particles/types
  std::vector<double> type_mass;        // particles/mass from each particle's type
  std::size_t n_atoms = 0;
  std::string application;  // the header's application, e.g. "mdremap 0.1.0"
};

class GsdTrajectoryWriter {
 public:
  // Locks and creates `path.partial`; throws mdremap::Error naming the file (io::OutputBusy when
  // another process writes `path`).
  GsdTrajectoryWriter(const std::string& path, const GsdOptions& options);
  ~GsdTrajectoryWriter();  // not closed: path.partial stays with the frames so far
  GsdTrajectoryWriter(const GsdTrajectoryWriter&) = delete;
  GsdTrajectoryWriter& operator=(const GsdTrajectoryWriter&) = delete;

  // Appends one frame (atoms reordered by Frame::id, which must be 0..n-1).
  void write_frame(const Frame& frame);
  // Renames the file into place; later writes throw.
  void close();
  const std::string& path() const { return path_; }
  std::uint64_t frames_written() const;

 private:
  std::string path_;
  GsdOptions options_;
  std::unique_ptr<StagedFile> staged_;
  std::unique_ptr<gsd::Writer> file_;
  std::vector<std::size_t> slot_;  // reused per frame: the slot of each id
};

}  // namespace mdremap::io

#pragma once
// VTK trajectory for ParaView (BRIEF section 8): one XML PolyData file per frame,
// dir/basename_<step>.vtp (points, one vertex cell per atom, point data "id" int64, "type"
// int32, and "velocity"/"force" 3-vectors when the frame carries them), plus
// dir/basename.pvd, a collection listing every frame with its time. Reduced LJ units.
//
// Frames are written as `<frame>.vtp.partial` and the collection as `basename.pvd.partial`
// (locked: io/staged_file.hpp); finish() renames every frame into place, then the collection.
// An earlier run's files in the directory stay whole until this run completes, and a killed or
// failed run leaves a `.pvd.partial` that lists its `.vtp.partial` frames (still openable).
// Compiled only when MDREMAP_WITH_VTK is on.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "io/staged_file.hpp"
#include "mdremap/frame.hpp"

namespace mdremap::io {

class VtkTrajectoryWriter {
 public:
  // `dir` must exist and be writable (checked here); throws mdremap::Error naming it
  // (io::OutputBusy when another process writes the same collection). Frames left as
  // `.vtp.partial` by a killed run are removed (with a note).
  VtkTrajectoryWriter(std::string dir, std::string basename);
  // Destroyed without finish(): the partial files stay.

  // Writes dir/basename_<step>.vtp.partial and rewrites dir/basename.pvd.partial.
  void write_frame(const Frame& frame);
  // Renames the frames into place, then the collection (which then names them).
  void finish();

  std::string frame_path(std::int64_t step) const;
  std::string collection_path() const;
  std::size_t frames_written() const { return entries_.size(); }

 private:
  void write_collection(const std::string& path, const std::string& frame_suffix) const;
  void remove_stale_frames() const;

  std::string dir_;
  std::string basename_;
  std::unique_ptr<StagedFile> collection_;
  std::vector<std::pair<double, std::string>> entries_;  // (time, file name relative to dir)
};

}  // namespace mdremap::io

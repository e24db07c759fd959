#pragma once
// VTK trajectory for ParaView (BRIEF section 8): one XML PolyData file per frame,
// dir/basename_<step>.vtp (points, one vertex cell per atom, point data "id" int64, "type"
// int32, and "velocity"/"force" 3-vectors when the frame carries them), plus
// dir/basename.pvd, a collection listing every frame with its time. Reduced LJ units.
//
// Each file is written to a temporary name and renamed into place, so a killed run never
// leaves a half-written .vtp or a .pvd naming a frame that is not there.
// Compiled only when MDREMAP_WITH_VTK is on.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "mdremap/frame.hpp"

namespace mdremap::io {

class VtkTrajectoryWriter {
 public:
  // `dir` must exist and be writable (checked here); throws mdremap::Error naming it.
  VtkTrajectoryWriter(std::string dir, std::string basename);

  // Writes dir/basename_<step>.vtp and rewrites dir/basename.pvd to include it.
  void write_frame(const Frame& frame);

  std::string frame_path(std::int64_t step) const;
  std::string collection_path() const;
  std::size_t frames_written() const { return entries_.size(); }

 private:
  void write_collection() const;

  std::string dir_;
  std::string basename_;
  std::vector<std::pair<double, std::string>> entries_;  // (time, file name relative to dir)
};

}  // namespace mdremap::io

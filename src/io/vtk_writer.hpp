#pragma once
// VTK trajectory for ParaView (BRIEF section 8): one XML PolyData file per frame,
// dir/basename_<step>.vtp (points, one vertex cell per atom, point data "id" int64, "type"
// int32, and "velocity"/"force" 3-vectors when the frame carries them; field data "step"
// int64, "TimeValue", "box_lo" and "box_len" 3-vectors), plus dir/basename.pvd, a collection
// listing every frame with its time (timestep) and step. Reduced LJ units.
//
// Frames are written as `<frame>.vtp.partial` and the collection as `basename.pvd.partial`
// (locked: io/staged_file.hpp); finish() renames every frame into place, then the collection.
// An earlier run's files in the directory stay whole until this run completes, and a killed or
// failed run leaves a `.pvd.partial` that lists its `.vtp.partial` frames (still openable).
// A run decomposed over MPI ranks writes one piece per rank: each rank's writer (piece k of n)
// writes its own atoms as dir/basename_<step>_<k>.vtp, and piece 0 also the frame's summary
// dir/basename_<step>.pvtp (VTK's parallel PolyData: the pieces and their arrays), which the
// collection lists; ParaView opens the .pvd and joins the pieces. Piece 0 alone holds the
// collection's lock and removes what a stopped run left; finish_pieces() on every rank, then
// finish() on piece 0 once every rank's pieces are in place.
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
  // `pieces` > 1: this writer is piece `piece` of a frame split over that many writers.
  VtkTrajectoryWriter(std::string dir, std::string basename, int piece = 0, int pieces = 1);
  // Destroyed without finish(): the partial files stay.

  // Writes dir/basename_<step>.vtp.partial (or this piece, and on piece 0 the .pvtp summary)
  // and, on piece 0, rewrites dir/basename.pvd.partial.
  void write_frame(const Frame& frame);
  // Renames this writer's piece files into place (pieces > 1; nothing otherwise).
  void finish_pieces();
  // Renames the frames (pieces: piece 0's summaries) into place, then the collection (which then
  // names them). Of a split frame: after every writer's finish_pieces(); a no-op past piece 0.
  void finish();

  std::string frame_path(std::int64_t step) const;  // what the collection lists (.vtp or .pvtp)
  std::string piece_path(std::int64_t step, int piece) const;
  std::string collection_path() const;
  std::size_t frames_written() const { return entries_.size(); }

 private:
  void write_collection(const std::string& path, const std::string& frame_suffix) const;
  void write_summary(const std::string& tmp, std::int64_t step, bool velocity, bool force,
                     const std::string& piece_suffix) const;
  void remove_stale_frames() const;
  bool split() const { return pieces_ > 1; }

  std::string dir_;
  std::string basename_;
  int piece_ = 0, pieces_ = 1;
  std::unique_ptr<StagedFile> collection_;  // piece 0 only
  struct Entry {
    std::int64_t step;
    double time;
    std::string file;  // relative to dir
  };
  std::vector<Entry> entries_;
  std::vector<std::string> piece_files_;  // this writer's pieces (split)
  struct Summary {
    std::int64_t step;
    bool velocity, force;
  };
  std::vector<Summary> summaries_;  // piece 0: the frames written
  bool finished_ = false;
};

}  // namespace mdremap::io

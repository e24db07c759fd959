#pragma once
// Trajectories (H5MD, VTK) and restart checkpoints written during an MD run (BRIEF section 8),
// as a run observer: it tells the step loop which steps it needs (a frame: thermo computed at
// that step; a checkpoint: a neighbour rebuild as well) and writes them off the loop thread.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "md/params.hpp"
#include "md/simulation.hpp"

#include "io/gsd_writer.hpp"
#include "io/h5md_writer.hpp"
#include "io/paths.hpp"

namespace mdremap::io {
class BackgroundWriter;
class GsdTrajectoryWriter;
class H5mdWriter;
class StagedFile;
class VtkTrajectoryWriter;
}  // namespace mdremap::io

namespace mdremap::md {

// Throws an InputError naming the deck key of the first output path that cannot be written
// (output.thermo_csv, output.h5md.file, output.h5md.topology, output.gsd.file, output.vtk.dir,
// restart.file, compute.rdf.file, compute.msd.file). Call before any work.
void check_output_paths(const MdParams& p);
// The run's output paths by deck key, for io::check_distinct (empty paths are skipped there).
std::vector<io::PathUse> output_path_uses(const MdParams& p);

struct OutputInfo {
  std::string deck_yaml;        // resolved deck: H5MD parameters/ and checkpoints
  std::string creator_version;  // h5md/creator version
  std::string backend;          // stored in checkpoints ("openmp", "cuda")
  std::string author;           // h5md/author; empty: $USER, else "unknown"
  // A run continued from a checkpoint at this step (-1: none): the H5MD trajectory it
  // continues keeps its frames before the step and is appended to (io/h5md_writer.hpp).
  std::int64_t continue_at = -1;
};

class RunOutput : public RunObserver {
 public:
  // Opens the trajectory files and locks every output (io/staged_file.hpp: each is written as
  // PATH.partial and renamed over PATH when complete; io::OutputBusy, as an InputError naming the
  // deck key, when another run writes one). `engine` must outlive this; `last_step` is the step
  // the run ends at (it always gets a checkpoint when restart.file is set).
  RunOutput(const MdParams& p, const MdEngine& engine, const OutputInfo& info,
            std::int64_t last_step);
  ~RunOutput() override;
  RunOutput(const RunOutput&) = delete;
  RunOutput& operator=(const RunOutput&) = delete;

  // The first frame, after engine.setup() (step 0, or the step a restart starts from).
  void start(const ThermoSample& t0);
  OutputRequest output_at(std::int64_t step) const override;
  void output(const ThermoSample& t) override;
  // Waits for the queued writes, closes the files (the H5MD file is marked complete) and
  // renames them into place; rethrows a write error. Without it (a failed run) the trajectory
  // files stay PATH.partial and the last checkpoint written stays the checkpoint.
  void finish();

  bool any() const {
    return !p_.h5md_file.empty() || !p_.gsd_file.empty() || !p_.vtk_dir.empty() ||
           !p_.restart_file.empty() || p_.computes.rdf.enabled || !p_.computes.msd.file.empty();
  }
  std::string describe() const;  // what is written where, one line
  std::int64_t frames() const { return frames_; }
  std::int64_t checkpoints() const { return checkpoints_; }

 private:
  void open_files(const MdParams& p, const MdEngine& engine, const OutputInfo& info);
  bool h5md_due(std::int64_t step) const;
  bool gsd_due(std::int64_t step) const;
  bool vtk_due(std::int64_t step) const;
  bool checkpoint_due(std::int64_t step) const;
  void write(const ThermoSample& t, bool h5md, bool gsd, bool vtk, bool checkpoint);
  std::shared_ptr<Frame> take_frame();
  void given_ids(Frame& fr) const;  // the engine's ids to the ids as given (VTK's point ids)

  MdParams p_;
  const MdEngine& engine_;
  OutputInfo info_;
  std::int64_t last_step_;
  bool h5md_velocity_ = false, h5md_force_ = false, gsd_velocity_ = false;
  bool h5md_energy_ = false;      // the field potential_energy
  bool h5md_collective_ = false;  // every rank writes its rows (parallel HDF5)
  static io::H5mdOptions h5md_options(const MdParams& p, const MdEngine& engine,
                                      const OutputInfo& info);
  static io::GsdOptions gsd_options(const MdParams& p, const MdEngine& engine,
                                    const OutputInfo& info);
  std::unique_ptr<io::H5mdWriter> h5md_;
  std::unique_ptr<io::GsdTrajectoryWriter> gsd_, topology_;  // output.gsd, output.h5md.topology
  std::unique_ptr<io::VtkTrajectoryWriter> vtk_;
  std::unique_ptr<io::StagedFile> checkpoint_file_;  // restart.file, locked for the whole run
  Frame vtk_frame_;                                  // id-ordered copy for VTK (writer thread only)
  std::vector<std::int64_t> atom_ids_;               // the ids as given, by engine id (VTK)
  bool vtk_pieces_ = false;  // decomposed: each rank writes its atoms as a piece of every frame
  std::mutex pool_mutex_;
  std::vector<std::shared_ptr<Frame>> pool_;  // frame buffers reused between writes
  std::int64_t frames_ = 0, checkpoints_ = 0;
  std::unique_ptr<io::BackgroundWriter> writer_;  // last: joined before the files close
};

}  // namespace mdremap::md

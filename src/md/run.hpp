#pragma once
// One MD run from a deck, as `mdremap md` makes it: the deck read and checked on every rank,
// every output checked and locked before any work, the engine made (or continued from a
// checkpoint), then the steps with their outputs (thermo CSV, H5MD, VTK, checkpoints, the
// computes' files). The front end prints around it and writes its own summary.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "io/deck.hpp"
#include "md/output.hpp"
#include "md/params.hpp"
#include "md/simulation.hpp"

namespace mdremap::io {
struct Checkpoint;
class CsvRows;
class StagedFile;
class ThermoCsv;
}  // namespace mdremap::io

namespace mdremap::md {

struct RunRequest {
  std::string deck;     // the deck's path: no output may overwrite it
  io::PathUse restart;  // a checkpoint to continue from (role: its name in errors), or no path
  // The caller's own outputs (a JSON summary): `role` names one in errors. Checked with the run's
  // outputs and locked before them (rank 0); written by the caller into extra_output(i).
  std::vector<io::PathUse> extra_outputs;
  OutputInfo info;  // creator and backend for H5MD and checkpoints (the deck's text is added)
};

// What the front end sees of the steps: the minimiser's progress and result (a `minimize:`
// section), the thermo samples (the first one too), progress, and their end (before the
// outputs are closed).
class RunConsole : public RunObserver, public MinimizeObserver {
 public:
  virtual void minimized(const MinimizeResult&) {}
  virtual void steps_done() {}
};

struct RunResult {
  ThermoSample initial;     // at setup (step 0, or the step a restart starts from), minimised
  bool minimized = false;   // the deck's `minimize:` section ran (not on a restart)
  MinimizeResult minimize;  // what it did
  RunStats stats;
  RemapStats remap;  // the force kernel's remap report (no transactions)
};

class Run {
 public:
  // Everything before the first step. `make_deck` runs on every rank, as do the deck's checks
  // (their errors are every rank's, reported once: comm::on_every_rank); rank 0 alone owns the
  // output files (comm::on_root).
  Run(const std::function<io::Deck()>& make_deck, const RunRequest& request);
  ~Run();
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  const io::Deck& deck() const { return deck_; }
  const MdParams& params() const { return p_; }
  const MdEngine& engine() const { return *engine_; }
  const RunOutput& output() const { return *output_; }
  // The checkpoint continued from (null without --restart); released by execute().
  const io::Checkpoint* checkpoint() const { return checkpoint_.get(); }
  // The caller's extra output i, locked (null on the other ranks).
  io::StagedFile* extra_output(std::size_t i) { return extra_[i].get(); }

  // Setup, the steps, and the outputs closed.
  RunResult execute(RunConsole& console);

 private:
  void check_paths(const RunRequest& request) const;
  void open_restart(const std::string& path);
  void lock_outputs(const RunRequest& request);

  io::Deck deck_;
  MdParams p_;
  std::unique_ptr<io::Checkpoint> checkpoint_;
  std::vector<std::unique_ptr<io::StagedFile>> extra_;
  std::unique_ptr<io::ThermoCsv> csv_;
  std::unique_ptr<io::StagedFile> rdf_file_;  // compute.rdf.file, written at the end
  std::unique_ptr<io::CsvRows> msd_file_;     // compute.msd.file, a row every compute.msd.every
  std::unique_ptr<MdEngine> engine_;
  std::unique_ptr<RunOutput> output_;
  bool restarted_ = false;
};

}  // namespace mdremap::md

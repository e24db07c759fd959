#pragma once
// An MD run: state on the device, the step loop, thermo, timings. Templated on the storage
// precision S and the force-kernel precision C; `make_engine` erases the types so the CLI and
// tests pick the precision at run time.
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "md/compute/rdf_table.hpp"
#include "md/force.hpp"
#include "md/minimize/settings.hpp"
#include "md/minimize/surface.hpp"
#include "md/params.hpp"
#include "md/system.hpp"
#include "mdremap/frame.hpp"

namespace mdremap::io {
struct Checkpoint;
}

namespace mdremap::md {

struct TimeSplit {
  double force = 0;         // pair-force kernel
  double neighbor = 0;      // displacement checks, wrap, binning, list builds, spatial sorts
  double integrate = 0;     // integrator kernels (incl. thermostat)
  double other = 0;         // precision packing, thermo reductions, output
  double rebuild = 0;       // part of `neighbor`: wrap, ghosts, binning and list builds (and sorts)
  double exchange = 0;      // part of `neighbor`: the ranks' ghost updates, migrations and borders
  double exchange_mpi = 0;  // part of `exchange`: in MPI for ghost positions (waits included)
  double exchange_rebuild = 0;  // part of `exchange`: migrations and new ghost shells (builds)
  double exchange_migrate = 0;  // part of `exchange_rebuild`: the migrations
  // parallel.overlap: the ghost updates' time on their own stream, beside the forces (not part
  // of any phase above; a wait for late ghosts shows in `force`)
  double exchange_overlapped = 0;
};

struct RunStats {
  std::int64_t atoms = 0;
  std::int64_t steps = 0;   // steps taken by this run() call
  double loop_seconds = 0;  // wall time of the step loop
  double atom_steps_per_s = 0;
  TimeSplit split;
  int list_builds = 0;
  int dangerous_builds = 0;  // forced rebuilds where an atom had moved more than skin/2
  int list_regrows = 0;
  // builds done again because a cell had more candidates than the last build's count allowed
  // (the GPU list build sizes its shared memory from it; neighbor/verlet_builder.cpp)
  int candidate_rebuilds = 0;
  int sorts = 0;
  double mean_neighbors = 0;  // cluster list: the masks' atom pairs per atom
  int max_neighbors = 0;      // cluster list: the longest row's j-clusters times their size
  // neighbor.list cluster: atoms per cluster, j-clusters per i-cluster (mean), the share of the
  // listed cluster pairs' M x M atom pairs that their masks select, the i-clusters' padding
  // share (the inputs of the force kernel's bytes per atom-step, docs/benchmarks.md).
  int cluster_size = 0;
  double cluster_pairs_per_icluster = 0;
  double cluster_mask_fill = 0;
  double cluster_padding = 0;
  double cluster_slots_per_atom = 0;  // all clusters' slots (ghosts' included) per local atom
  double cluster_rows_per_atom = 0;   // non-empty mask rows (j-clusters with pairs) per atom
  std::int64_t migrations = 0;        // atoms moved to another MPI rank so far (decomposed runs)
  std::int64_t migrations_through_mpi = 0;  // of them, not written into the new owner's GPU memory
  std::string transfer;                     // how ghosts travel between ranks (decomposed runs)
  // parallel.overlap: the atoms near a sub-box face at the last build, over all ranks (their
  // forces wait for the ghosts); -1 without it
  std::int64_t near_face_atoms = -1;
  std::int64_t near_face_reorders = 0;  // builds (summed over ranks) whose migration left the
                                        // near atoms out of place: a copy more
  ThermoSample last;
};

// What an observer wants at a step; asked before the step's neighbour update and forces.
struct OutputRequest {
  bool write = false;  // call output() after the step, with thermo (energy) computed at it
  // The state after this step is checkpointed: its atoms are checked (finite, none lost) before
  // its forces, so a blown-up state never becomes a checkpoint. The lists stay as they are: the
  // checkpoint keeps their build (MdEngine::list_build), from which a restart builds them again.
  bool checkpoint = false;
  // The state after this step is a start a run may take without the list's build (an H5MD frame
  // with velocities, system.file): the neighbour lists are rebuilt before its forces (re-sorted
  // first if sorts are periodic), as the setup() of a run started from it builds them.
  bool restart_point = false;
};

// A neighbour-list build as a checkpoint keeps it: what a restart needs to build the same list
// (the same pairs in the same order, the same ghosts) and to decide the next builds as the
// checkpointed run decides them.
struct ListBuild {
  std::vector<double> x;  // the positions it was built from, 3 per atom (storage precision)
  double box_lo[3] = {0, 0, 0}, box_len[3] = {0, 0, 0};  // the box then
  std::int64_t step = 0;                                 // the build's step
  std::int64_t sort_step = 0;  // the last spatial sort's (periodic sorts: neighbor.sort_every)
};

// Called on thermo steps (after the sample is computed), on the output steps it asks for, and
// for progress.
struct RunObserver {
  virtual ~RunObserver() = default;
  virtual void thermo(const ThermoSample&) {}
  virtual void progress(std::int64_t /*done*/, std::int64_t /*total*/, double /*seconds*/) {}
  virtual OutputRequest output_at(std::int64_t /*step*/) const { return {}; }
  virtual void output(const ThermoSample&) {}
  // compute.msd: a row of its file, every compute.msd.every steps.
  virtual void msd(const MsdSample&) {}
};

// Several observers as one (the console and the trajectory/restart output).
class ObserverList : public RunObserver {
 public:
  ObserverList(std::initializer_list<RunObserver*> list) : list_(list) {}
  void thermo(const ThermoSample& t) override {
    for (auto* o : list_) o->thermo(t);
  }
  void progress(std::int64_t done, std::int64_t total, double seconds) override {
    for (auto* o : list_) o->progress(done, total, seconds);
  }
  OutputRequest output_at(std::int64_t step) const override {
    OutputRequest r;
    for (auto* o : list_) {
      const OutputRequest q = o->output_at(step);
      r.write |= q.write;
      r.checkpoint |= q.checkpoint;
      r.restart_point |= q.restart_point;
    }
    return r;
  }
  void output(const ThermoSample& t) override {
    for (auto* o : list_) o->output(t);
  }
  void msd(const MsdSample& m) override {
    for (auto* o : list_) o->msd(m);
  }

 private:
  std::vector<RunObserver*> list_;
};

class MdEngine {
 public:
  virtual ~MdEngine() = default;
  // Builds neighbour lists and forces at the current step (with energy): the step-0 thermo.
  virtual ThermoSample setup() = 0;
  // Advances `nsteps` steps; thermo every params.thermo steps and at the last step.
  virtual RunStats run(std::int64_t nsteps, RunObserver* obs = nullptr) = 0;
  virtual ThermoSample thermo_now() = 0;  // from the current state (forces recomputed)
  // After setup(), before run(): minimises the potential energy at fixed box (the deck's
  // `minimize:` section; md/minimize/minimizer.hpp). The atoms' velocities are kept; the lists
  // and forces are then those of the minimised state, whose thermo goes into `after`.
  virtual MinimizeResult minimize(const MinimizeSettings& settings, MinimizeObserver* obs,
                                  ThermoSample& after) = 0;
  // Host snapshot ordered by atom id; forces are those of the last force evaluation. In a run
  // decomposed over several MPI ranks snapshots are collective: every rank's atoms are gathered
  // onto rank 0 in atom-id order (md/gather_frame.hpp), the other ranks get none.
  virtual Frame snapshot(bool with_forces = true) const = 0;
  // Host snapshot in slot (memory) order into `into`, reusing its buffers: positions, types,
  // ids, and velocities/forces when asked. Packed on the device, one copy per array, no sort:
  // what trajectory writers (which order by id themselves) and checkpoints take.
  // Collective like snapshot() in a decomposed run unless `gather` is false: then every rank
  // keeps its own atoms (a VTK piece per rank), and gather_frame() may gather them later.
  // `energies`: each atom's potential energy too (Frame::pe; a pass over the list, at the
  // positions of the last force evaluation, md/compute/pe_atom.hpp).
  virtual void snapshot_slots(Frame& into, bool velocities, bool forces, bool gather = true,
                              bool energies = false) const = 0;
  // Gathers a snapshot_slots(..., false) frame as snapshot_slots would have (collective).
  virtual void gather_frame(Frame& fr) const = 0;
  // Decomposed over several MPI ranks: snapshots are gathered onto rank 0.
  virtual bool gathers() const = 0;
  // What a checkpoint keeps of the integrator (integrators/settings.hpp).
  virtual integrators::IntegratorState integrator_state() const = 0;
  // Before setup(), on an engine made from a checkpoint's atoms (slot order) at its step: the
  // forces the checkpointed run integrates with (pair forces plus thermostat terms; in a run
  // with exchanged ghosts, MdParams::exchange_ghosts, indexed by atom id) and the integrator's
  // state. setup() then keeps the atom order (no sort), rebuilds the lists as the
  // checkpointed run did at that step, and ends with these forces.
  virtual void restore(const std::vector<double>& forces,
                       const integrators::IntegratorState& integrator) = 0;
  // compute.rdf: g(r) averaged over the samples so far (none: an empty table).
  virtual RdfTable rdf_average() const = 0;
  // The last neighbour-list build, its positions ordered as snapshot_slots' (collective and
  // gathered onto rank 0 like it unless `gather` is false).
  virtual void list_build(ListBuild& into, bool gather = true) const = 0;
  // After restore(), on an engine made from a checkpoint's list-build positions (ListBuild::x,
  // in the checkpoint's slot order) instead of its positions: setup() builds the lists from
  // them in `build`'s box, without a wrap or a sort, exactly as the checkpointed run built
  // them, and then puts the checkpoint's positions (`positions_by_id`, 3 per atom id) and box
  // (the engine's) back. Without it setup() builds the lists from the engine's positions.
  virtual void restore_list(const ListBuild& build, std::vector<double> positions_by_id) = 0;
  virtual void total_momentum(double p[3]) const = 0;
  virtual double thermostat_energy() const = 0;
  virtual std::int64_t step() const = 0;
  virtual std::int64_t natoms() const = 0;
  virtual std::string describe() const = 0;  // list type, precision, integrator
  // The remap layer serving the force kernel's gathers (remap.mode): its report, optionally the
  // modelled transactions (host copy of the list: slow for millions of atoms).
  virtual RemapStats remap_stats(bool with_transactions) = 0;
  // The force strategy's phases and pattern, for measurements made outside the engine (compare).
  virtual ForceProbe& force_probe() = 0;
};

std::unique_ptr<MdEngine> make_engine(const MdParams& p, const HostSystem& s,
                                      std::int64_t first_step = 0);

}  // namespace mdremap::md

namespace mdremap::md {
// The whole initial state from a deck: system, velocities, optional shuffle, then the engine.
std::unique_ptr<MdEngine> create_engine(const MdParams& p);
// An engine continuing from the checkpoint read from `path`: its step, box, atoms in its slot
// order, forces, thermostat and RNG state. The checkpoint's atom count and precision must be
// the deck's (else an InputError naming `path`).
std::unique_ptr<MdEngine> restart_engine(const MdParams& p, const io::Checkpoint& c,
                                         const std::string& path);
// The checks restart_engine makes first (atom count, precision, types, box, thermostat state),
// for callers that want them before any work.
void check_restart(const MdParams& p, const io::Checkpoint& c, const std::string& path);
}  // namespace mdremap::md

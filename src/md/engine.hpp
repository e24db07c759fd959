#pragma once
// The engine behind make_engine (md/simulation.hpp): one class templated on the storage precision
// S and the force-kernel precision C. Declared here so that its jobs live in files of their own,
// each defining one group of its members and instantiating them for the three precisions (those
// of md/simulation.cpp by make_engine there): md/simulation.cpp (set-up, the step loop, thermo),
// md/engine_lists.cpp (the neighbour-list rebuilds), md/engine_forces.cpp (forces and blow-up
// checks), md/engine_atoms.cpp (atoms onto the device and snapshots off it),
// md/engine_restart.cpp (a checkpoint's state and list build), md/engine_computes.cpp
// (compute.rdf, compute.msd). Not for use outside src/md.
#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "comm/domain_exchange.hpp"
#include "comm/runtime.hpp"
#include "integrators/integrator.hpp"
#include "md/compute/msd.hpp"
#include "md/compute/rdf.hpp"
#include "md/force.hpp"
#include "md/gather_frame.hpp"
#include "md/phase_clock.hpp"
#include "md/reorder.hpp"
#include "md/simulation.hpp"
#include "mdremap/fenced_ms.hpp"
#include "neighbor/cluster_builder.hpp"
#include "neighbor/neighbor_list.hpp"
#include "neighbor/verlet_builder.hpp"

namespace mdremap::md::detail {

template <class S, class C>
class Simulation final : public MdEngine, public EnergySurface<S>, public integrators::Cell {
 public:
  // md/simulation.cpp: construction, set-up, the step loop, minimisation, thermo, the box.
  Simulation(const MdParams& p, const HostSystem& s, std::int64_t first_step);
  ThermoSample setup() override;
  RunStats run(std::int64_t nsteps, RunObserver* obs) override;
  ThermoSample thermo_now() override;
  MinimizeResult minimize(const MinimizeSettings& settings, MinimizeObserver* obs,
                          ThermoSample& after) override;
  void total_momentum(double p[3]) const override;
  std::string describe() const override;
  RemapStats remap_stats(bool with_transactions) override;
  ForceProbe& force_probe() override { return *force_; }
  // The potential for the run header: style, cut-off, shift, tail.
  std::string potential_note() const;
  double thermostat_energy() const override { return integrator_->thermostat_energy(); }
  std::int64_t step() const override { return step_; }
  std::int64_t natoms() const override { return natoms_; }

  // The minimisers' view of the engine (md/minimize/surface.hpp).
  AtomArrays<S>& atoms() override { return atoms_; }
  const TypeTable<S>& masses() const override { return mass_; }
  Box<double> box() const override { return box_d_; }
  bool wrapped() const override { return wrapped_; }
  double energy_forces() override;

  // The box as a barostat sees it (integrators::Cell).
  std::array<double, 3> lengths() const override {
    return {box_d_.len[0], box_d_.len[1], box_d_.len[2]};
  }
  std::array<double, 6> virial() const override;
  void dilate(const std::array<double, 3>& f) override;
  void dilate_drift(const std::array<double, 3>& f1, double dt,
                    const std::array<double, 3>& f2) override;

  // md/engine_atoms.cpp: snapshots and frames of the atoms on the host.
  Frame snapshot(bool with_forces) const override;
  void snapshot_slots(Frame& fr, bool velocities, bool forces, bool gather,
                      bool energies) const override;
  void gather_frame(Frame& fr) const override {
    if (gathers()) gather_frame_by_id(fr);
  }
  // Snapshots of a run over several ranks are gathered onto rank 0.
  bool gathers() const override { return domain_ && comm::size() > 1; }

  // md/engine_restart.cpp: a checkpoint's state in, the list's build out.
  integrators::IntegratorState integrator_state() const override {
    return integrator_->checkpoint_state();
  }
  void restore(const std::vector<double>& forces,
               const integrators::IntegratorState& state) override;
  void list_build(ListBuild& b, bool gather) const override;
  void restore_list(const ListBuild& build, std::vector<double> positions_by_id) override;

  // md/engine_computes.cpp
  RdfTable rdf_average() const override { return rdf_ ? rdf_->average(natoms_) : RdfTable{}; }

  // md/engine_forces.cpp (public: a CUDA extended lambda's enclosing function must be).
  // Forces that move an atom at rest by more than kOverlapMove in one step come from atoms
  // sitting on each other: the hint names the worst pair (md/overlap_hint.hpp).
  void find_overlaps();

 private:
  // The step's phases fence the default instance only (the engine's kernels, and dup's pipeline,
  // which joins it): a plan running on an instance of its own (sharing, remap.plan_overlap) is
  // not waited for.
  template <class F>
  static double fenced_ms(F&& f) {
    return mdremap::fenced_ms(ExecSpace(), "mdremap::phase", std::forward<F>(f));
  }
  // A step phase's time into acc (seconds): on a GPU by events, without waiting (phase_clock.hpp).
  template <class F>
  void timed(double& acc, F&& f) {
    clock_.time(&acc, nullptr, std::forward<F>(f));
  }

  // md/simulation.cpp
  // The integrator, masses and degrees of freedom, and the pair potential's tail correction.
  void make_integrator(const HostSystem& s);
  ThermoSample sample();
  // P_ab = (sum m v_a v_b + W_ab) / V, W the pair virial tensor of the last forces, summed over
  // the ranks; the tail correction is isotropic (LAMMPS' compute pressure vector).
  void pressure_tensor(double p[6]) const;
  std::string domain_note() const;
  std::string reorder_note() const {
    return p_.remap.reorder == Reorder::None ? "" : ", reorder " + to_string(p_.remap.reorder);
  }

  // md/engine_atoms.cpp
  // A decomposed run: the exchange, and the atoms of this rank's sub-box (every rank
  // built the same whole system, so nothing is sent to start).
  std::vector<std::int64_t> decompose(const HostSystem& s, double rlist);
  // The atoms onto the device: all of them, or those of this rank (`mine`, decomposed).
  void load_atoms(const HostSystem& s, const std::vector<std::int64_t>& mine);
  // Each local atom's potential energy in slot order: its pairs' halves, and with
  // potential.tail its type's share of the tail correction (md/compute/pe_atom.hpp).
  void atom_energies(std::vector<double>& out) const;
  // The image counts of the frame's slots (by their ids): on one process packed on the device;
  // decomposed (each rank counted its own wraps) summed over the ranks, where outputs want them.
  void slot_images(Frame& fr) const;
  // Atoms counted over the ranks and their ids summed: a migration that lost or doubled an
  // atom fails here (every rank reaches it with the same sums).
  void check_conserved() const;

  // md/engine_restart.cpp
  // The checkpoint's forces replace the freshly computed pair forces: they include the
  // thermostat terms (Langevin) that the next step's first half kick uses.
  void load_forces();
  // setup() of a restart from a checkpoint that kept its list's build (restore_list): the atoms
  // hold the build's positions (wrapped then, in the slot order of the checkpoint, which no
  // build changed since), so the build here in the box of then, without a wrap or a sort, is
  // the checkpointed run's: the same ghosts, pairs and order, the same xhold. Then the
  // checkpoint's positions (by id: a decomposed run's atoms came to their ranks by the build's
  // positions, as that run's last migration had moved them) and box come back.
  void rebuild_as_checkpointed();

  // md/engine_lists.cpp: when and how the neighbour lists are rebuilt.
  // Force-kernel positions: local atoms (converted to C) followed by their periodic ghosts.
  void pack_gather_positions();
  void sort_atoms();
  // The box whose cells order the atoms: the one the list build bins. A decomposed run bins its
  // sub-box, and the cells of the whole box (another count per axis, so other faces) spread the
  // atoms of one list cell over up to eight runs of the atom order: the list build's column-major
  // stores of a cell's rows no longer coalesced (the per-rank build measured slower for it;
  // docs/benchmarks.md).
  // Made from the builder's box in force precision, so that both count the same cells.
  Box<S> sort_box() const;
  // remap.reorder (orthogonal to the strategy): spatial = space-filling-curve sort; labelprop and
  // partition permute the atoms from the current neighbour-list pattern.
  void reorder_atoms();
  void rebuild();
  void set_box(const double lo[3], const double len[3]);
  void rebuild_now();
  // A decomposed run's rebuild: atoms wrapped into the box and moved to their sub-box's rank,
  // sorted if due, the ghost shell exchanged, the list built over the sub-box.
  void rebuild_decomposed();
  // The build's positions into xhold_ (the displacement check's), sized to the atoms here over
  // a kept allocation: a decomposed run's count changes at every migration, and a fresh
  // allocation is a device-wide wait. Storage and force precision differing (mixed), also in
  // storage precision (xhold_s_): what a checkpoint keeps of the build (list_build).
  void hold_positions();
  // What the displacement check reads: the local atoms only. A decomposed run refreshes its
  // ghosts after it, and only if the list stays (a build replaces them).
  void refresh_for_check();
  // A step's list decision: a rebuild at a restart point or when the atoms moved too far (on
  // schedule without neighbor.check), else the force positions refreshed.
  void maybe_rebuild(const OutputRequest& out);
  // The rebuild decision's one reduction, which also finds blow-ups (see
  // max_displacement_sq_or_inf). Call after pack_gather_positions().
  double displacement_check() const;
  int list_regrows() const { return cluster_ ? cluster_builder_->regrows() : builder_->regrows(); }
  int candidate_rebuilds() const { return cluster_ ? 0 : builder_->candidate_rebuilds(); }
  Kokkos::View<const Vec4<C>*> local_positions() const {
    return Kokkos::subview(xg_, std::make_pair(std::int64_t(0), atoms_.n));
  }

  // md/engine_forces.cpp: the forces, and the checks that stop a run that blew up.
  // ev: energy and virial; sampled: the step's thermo is taken (its tensor columns).
  ForceResult compute_forces(bool ev, bool sampled = true);
  // parallel.overlap: the atoms away from the sub-domain faces (their rows hold no ghosts: the
  // first nfar_, near_faces_last) on the default instance, while the ghost update runs on its
  // own stream and then the atoms near the faces there, as soon as the ghosts are in: the two
  // force kernels share the GPU (one kernel's tail, as unsplit; a second kernel after the first
  // measured slower). The default instance then waits
  // for the side stream. Each atom's force is summed as compute() sums it.
  ForceResult forces_beside_exchange(bool ev);
  // LAMMPS stops on "Lost atoms"; here an atom is lost when its position or velocity is not
  // finite, or when it moved farther than the list cutoff (the ghost shell) since the list was
  // built: its list and ghost images then no longer describe its surroundings at all.
  void check_atoms(double d2) const;
  void check_thermo(const ThermoSample& t) const;
  // What a blow-up message blames: the overlapping atoms the first forces showed, else the
  // usual suspects.
  std::string blowup_cause() const;
  // Atoms of a random gas at least this far apart (sigma) start with forces a step of the usual
  // dt survives (LJ at 0.8 sigma: |f| about 950).
  static constexpr double kSafeMinDistance = 0.8;

  // md/engine_computes.cpp: compute.rdf and compute.msd during a run.
  // compute: the run's start (the MSD's reference, the RDF's first sample).
  void start_computes();
  bool compute_due(std::int64_t step) const;
  void run_computes(RunObserver* obs);

  MdParams p_;
  std::int64_t step_;
  std::int64_t natoms_;      // the whole system's (this rank's: atoms_.n)
  std::int64_t id_sum_ = 0;  // sum of the atom ids, for check_conserved
  // The ranks' domain decomposition (p_.exchange_ghosts), else null: one process, periodic images.
  std::unique_ptr<comm::DomainExchange<S, C>> domain_;
  bool overlap_ = false;           // parallel.overlap in effect
  bool ghosts_in_flight_ = false;  // a forward_begin() that the next forces join
  std::int64_t nfar_ = 0;          // atoms before those near a face (near_faces_last)
  AtomArrays<S> atoms_;
  Kokkos::View<Vec4<C>*> xg_, xhold_, xhold_store_;
  Kokkos::View<Vec4<S>*> xhold_s_, xhold_s_store_;  // mixed precision: the build's in storage
  Box<S> box_s_;
  Box<C> box_c_;
  Box<double> box_d_;
  bool half_ = false;
  bool column_major_ = true;
  std::unique_ptr<neighbor::VerletListBuilder<C>> builder_;
  neighbor::NeighborList list_;
  bool cluster_ = false;  // neighbor.list cluster: clist_ from cluster_builder_ instead of list_
  std::unique_ptr<neighbor::ClusterListBuilder<C>> cluster_builder_;
  neighbor::ClusterList clist_;
  neighbor::GhostAtoms ghosts_;
  std::unique_ptr<PairForce<C, S>> force_;
  double remap_ms_ = 0;  // time in the strategy's plans (ms)
  double force_s_ = 0;   // and in its force evaluations (s, all runs)
  PhaseClock clock_;     // the step phases' timers
  std::int64_t force_evals_ = 0;
  std::unique_ptr<integrators::Integrator<S>> integrator_;
  TypeTable<S> mass_;
  double dof_ = 0, etail_ = 0, ptail_ = 0;
  std::vector<double> tail_per_type_;  // tail energy per atom of each type, times the volume
  double total_mass_ = 0;              // for the density
  bool tensor_on_thermo_ = false;      // run.thermo_columns name a pressure-tensor column
  bool tensor_now_ = false;            // wtensor_ is of the last forces
  bool virial_every_ = false;          // the integrator reads the virial every step (a barostat)
  bool tensor_every_ = false;          // and the tensor (per-axis coupling)
  Box<double> box_hold_;               // the box at the last list build
  VirialTensor wtensor_{};
  ForceResult last_;
  bool have_ev_ = false;
  TimeSplit split_;
  int builds_ = 0, dangerous_ = 0, sorts_ = 0;
  std::int64_t last_sort_step_ = 0;
  std::int64_t last_build_step_ = 0;
  bool restored_ = false;               // made from a checkpoint (restore())
  bool list_restored_ = false;          // and from its list's build (restore_list())
  bool rebuilding_restored_ = false;    // setup() builds the checkpoint's list: no wrap, no sort
  ListBuild restore_build_;             // restore_list()'s box and steps
  std::vector<double> restore_x_;       // the checkpoint's positions by id, back after that build
  bool minimizing_ = false;             // minimize() runs: atoms keep their order
  bool wrapped_ = false;                // the last energy_forces() rebuilt the lists
  std::string overlap_hint_;            // the first forces' overlapping atoms, or ""
  std::vector<double> restore_f_;       // its forces, loaded at the end of setup()
  mutable Kokkos::View<double*> pack_;  // snapshot staging on the device
  Kokkos::View<int* [3]> image_;        // periodic image counts by atom id (see load_atoms)
  mutable Kokkos::View<int*> image_pack_;
  mutable Kokkos::View<double*> pe_;    // per-atom energies of a snapshot
  std::unique_ptr<RdfCompute> rdf_;     // compute.rdf, else null
  std::unique_ptr<MsdCompute<S>> msd_;  // compute.msd or the msd column, else null
};

// Explicit instantiation of a part's members, one line per member: X(S, C) for each precision.
#define MDREMAP_ENGINE_PRECISIONS(X) \
  X(double, double)                  \
  X(double, float)                   \
  X(float, float)

}  // namespace mdremap::md::detail

#pragma once
// The pair force of an MD run as the engine sees it: PairForce, one force engine whose pair loops
// run through the remap strategy of remap.mode (include/mdremap/remap/registry.hpp), the plain
// gather included, for the potential of potential.style. The loops and the potentials are in
// src/md/pair/ (evaluator.hpp says what a potential is; driver.hpp runs them). C: arithmetic and
// gather precision; A: force accumulation and storage.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "md/params.hpp"
#include "mdremap/error.hpp"
#include "mdremap/remap/chunk_pipeline.hpp"
#include "mdremap/remap/options.hpp"
#include "mdremap/remap/report.hpp"
#include "mdremap/remap/strategy.hpp"
#include "mdremap/types.hpp"
#include "neighbor/cluster_list.hpp"
#include "neighbor/neighbor_list.hpp"

namespace mdremap::md {

// The pair virial per axis pair, sum over pairs of r_a F_b: xx yy zz xy xz yz
// (md/pair/virial_tensor.hpp).
using VirialTensor = std::array<double, 6>;

struct ForceResult {
  double e_pair = 0;  // total pair energy (not per atom)
  double virial = 0;  // sum over pairs r_ij . f_ij
};

// The force kernel's reference patterns: the gather pos[P[j][i]], its own pos[i] and the write
// f[i] (padding refuses it, seed 001 §3.3).
inline constexpr int kForceReferencePatterns = 3;

// The force kernel's irregular reference, for measurements outside the engine (compare): the
// neighbour pattern and the gathered positions in the force precision.
struct ForcePattern {
  remap::PatternView pattern;
  Kokkos::View<const Vec4<float>*> xf;   // single / mixed precision
  Kokkos::View<const Vec4<double>*> xd;  // double precision
};

// What `compare` times through: the force strategy's phases on the current state, each fenced by
// the caller, and the stream pipeline's device timestamps.
class ForceProbe {
 public:
  virtual ~ForceProbe() = default;
  virtual void probe_remap() = 0;    // the remap alone (data marked changed)
  virtual void probe_compute() = 0;  // the compute alone on remapped data
  virtual void probe_execute() = 0;  // remap + compute as the strategy runs them
  // dup's pipeline: device timestamps of each chunk's remap and compute (CUDA).
  virtual void set_pipeline_timing(bool on) = 0;
  virtual remap::PipelineTimeline pipeline_timeline() const = 0;
  virtual bool pipeline_streams_distinct() const = 0;
  virtual ForcePattern force_pattern() const = 0;
};

struct RemapStats {
  remap::RemapReport report;
  remap::TransactionCount tx;       // modelled, one force evaluation: the data loads
  remap::TransactionBreakdown all;  // every load of the reference (index, lengths included)
  bool have_tx = false;
  // Fenced time the engine spent in the strategy so far (plans and force evaluations, setup
  // included): what auto's whole-run prediction is compared with.
  double realised_ms = 0;
  std::int64_t executions = 0;
  std::string memory_selection;  // gather_path auto: seed 003 Algorithm 3's classes and choice
};

// The one force engine of an MD run (md/pair/driver.hpp implements it for each potential).
template <class C, class A>
class PairForce : public ForceProbe {
 public:
  using T = Vec4<C>;
  // After every neighbour-list build: the new pattern (plans the strategy).
  virtual void plan(const neighbor::NeighborList& list, const neighbor::GhostAtoms& ghosts) = 0;
  // After every cluster-list build (neighbor.list: cluster; an engine made with
  // PairSetup::cluster), instead of plan(); `ghosts` says whose image each ghost is.
  virtual void plan_clusters(const neighbor::ClusterList& list,
                             const neighbor::GhostAtoms& ghosts) = 0;
  // Before the list arrays given to plan() are overwritten (the next build): a strategy still
  // planning from them in the background finishes.
  virtual void release_pattern() = 0;
  // Forces on the local atoms into f (overwritten); xall holds local atoms then ghosts. Energy
  // and virial only when `ev` (thermo steps).
  virtual ForceResult compute(Kokkos::View<const T*> xall, Kokkos::View<A* [3]> f, bool ev) = 0;
  // Whether compute_part() serves this engine: a full list through a strategy that reads the
  // positions in place (gather), so some atoms' forces can run before the rest of xall (the
  // ghosts) is written.
  virtual bool runs_parts() { return false; }
  // The forces of the atoms `sel` selects (remap::ThreadSelection: atom i is thread i) into f.
  // The parts of an evaluation give compute()'s forces bit for bit (each atom's sum is the
  // same) and their energies and virials add up to its; `last`: the part that completes it.
  virtual ForceResult compute_part(Kokkos::View<const T*> xall, Kokkos::View<A* [3]> f, bool ev,
                                   const remap::ThreadSelection& sel, bool last) {
    (void)xall, (void)f, (void)ev, (void)sel, (void)last;
    throw Error("this force engine runs all of its atoms at once");
  }
  // The pair virial tensor at the positions of the last compute() (a pass of its own over the
  // list: called only where a run asks for the tensor).
  virtual VirialTensor virial_tensor() = 0;
  // Each local atom's pair energy, half of each of its pairs' (LAMMPS' compute pe/atom), into
  // e[0, local atoms) at the positions of the last compute() (a pass of its own over the list:
  // called only for the frames that write it; md/compute/pe_atom.hpp).
  virtual void atom_energies(Kokkos::View<double*> e) = 0;
  virtual std::string name() const = 0;  // the remap strategy's
  virtual RemapStats stats(bool with_transactions) const = 0;
};

// remap.lanes = auto: at most this many lanes an atom. Two lanes shorten the force kernel of the
// small systems (their positions stay in the L2), more lanes add more shuffles and partial loads
// than the occupancy is worth, and the large systems lose with any split (docs/benchmarks.md).
constexpr int kAutoMaxLanes = 2;

// What a force engine is made from: the deck's potential and list, and the remap settings.
// auto_path: remap.gather_path = auto, decided from the first neighbour list (seed 003).
struct PairSetup {
  std::string style = "lj";  // potential.style (pair_styles())
  PairCoeffs coeffs;
  bool shift = false;
  bool half = false;
  bool cluster = false;         // neighbor.list: cluster (md/pair/cluster_driver.hpp)
  bool cluster_newton = false;  // neighbor.cluster_newton: each pair once, atomics on both atoms
  remap::RemapOptions remap;
  remap::StrategyChoice mode{"gather"};
  bool auto_path = false;
  // remap.lanes = auto: the gather's lanes an atom chosen from the first list (remap::lanes_for).
  bool auto_lanes = false;
};

// The force engine of setup.style (the registry in force.cpp).
template <class C, class A>
std::unique_ptr<PairForce<C, A>> make_pair_force(const PairSetup& setup);
// The force engine for evaluator P (md/pair/driver.hpp).
template <class P, class C, class A>
std::unique_ptr<PairForce<C, A>> make_pair_driver(const PairSetup& setup);
// The cluster-pair force engine for evaluator P (md/pair/cluster_driver.hpp).
template <class P, class C, class A>
std::unique_ptr<PairForce<C, A>> make_cluster_driver(const PairSetup& setup);

}  // namespace mdremap::md

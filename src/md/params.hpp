#pragma once
// Everything an MD run reads from its deck, validated (BRIEF section 4).
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "comm/rank_grid.hpp"
#include "comm/transfer.hpp"
#include "integrators/settings.hpp"
#include "io/deck.hpp"
#include "io/particle_file.hpp"
#include "md/choices.hpp"
#include "md/compute/settings.hpp"
#include "md/minimize/settings.hpp"
#include "md/pair/styles.hpp"
#include "mdremap/remap/remap_deck.hpp"
#include "mdremap/types.hpp"
#include "neighbor/options.hpp"

namespace mdremap::md {

// What MD serves of the remap layer: its defaults (the gather; on CUDA the split path, both of
// the L1's data pipes; lanes auto; sharing's overlapped plans on a GPU), its reorders (atoms by
// position, or planned from the neighbour list) and its flags' help.
const remap::RemapApp& remap_app();

// Limits checked when a deck is read: beyond them a run would overflow 32-bit
// indices, run out of memory or never end, so the deck is refused with a clear line instead.
inline constexpr std::int64_t kMaxAtoms = 2147483647;        // atom indices are 32-bit in kernels
inline constexpr std::int64_t kMaxSteps = 1000000000000000;  // 1e15: step + steps stays exact
inline constexpr std::int64_t kMaxListCells = 1 << 27;       // cell indices and their memory
// A lower bound of the host memory an atom takes while the system is built (positions,
// velocities, type, id and their staging copies): more atoms than fit are refused up front.
inline constexpr int kMinHostBytesPerAtom = 128;

struct TypeSpec {
  std::string name;
  double mass = 1.0;
  double epsilon = 1.0;
  double sigma = 1.0;
  double cutoff = 0.0;      // 0: the potential's global cutoff
  double fraction = 1.0;    // share of atoms given this type
  bool mass_given = false;  // the deck sets the mass (a system file's mass must then agree)
};

// Resolved per-pair LJ coefficients (after mixing and explicit pair entries).
struct PairCoeffs {
  int ntypes = 1;
  std::vector<double> epsilon, sigma, cutoff;  // ntypes*ntypes, symmetric
  double at(const std::vector<double>& m, int a, int b) const { return m[a * ntypes + b]; }
  double max_cutoff() const;
};

// Weeks-Chandler-Andersen's cut-off of a type pair: the minimum of LJ, where its force changes
// sign (md/pair/wca.hpp).
inline double wca_cutoff(double sigma) {
  return std::pow(2.0, 1.0 / 6.0) * sigma;
}

struct MdParams {
  // system
  Lattice lattice = Lattice::Fcc;
  double density = 0.8442;
  std::array<int, 3> cells{20, 20, 20};
  std::int64_t random_atoms = 0;
  double min_distance = 0.0;
  std::uint64_t system_seed = 4928459;
  std::vector<TypeSpec> types;
  std::uint64_t type_seed = 1;
  bool shuffle = false;
  std::uint64_t shuffle_seed = 12345;
  // system.file: the configuration read from a file (io/particle_file.hpp), else null; its
  // types mapped onto system.types (file_type[k]: the deck type of the file's type k), and
  // whether the run starts with its velocities (system.velocities).
  std::string system_file;
  std::shared_ptr<const io::ParticleFile> file;
  std::vector<int> file_type;
  bool file_velocities = false;
  // potential
  std::string potential = "lj";  // potential.style: lj | wca (pair_styles())
  double cutoff = 2.5;
  bool shift = false;
  bool tail = false;
  MixingRule mixing = MixingRule::Geometric;
  PairCoeffs pairs;
  // velocity
  double temperature = 1.44;
  std::uint64_t velocity_seed = 87287;
  // integrator: the time step, the style (a registry entry) and the keys it declares
  double dt = 0.005;
  integrators::IntegratorChoice integrator;
  // minimize: the potential energy minimised before the dynamics (md/minimize/settings.hpp)
  MinimizeSettings minimize;
  // neighbour list
  double skin = 0.3;
  // LAMMPS' defaults (neigh_modify every 1 delay 0 check yes): the displacement test at every
  // step, a rebuild only when an atom has moved more than skin/2. check: false rebuilds every
  // `every` steps whatever moved (the benchmark decks set LAMMPS bench's every 20 check no).
  int every = 1;
  bool check = true;
  // auto: full; half on CPUs without AVX-512
  neighbor::ListKind list = neighbor::ListKind::Auto;
  // list cluster: atoms per cluster, 4, 8 or 16 (0: 8 on a GPU, the SIMD width on a CPU)
  int cluster_size = 0;
  // list cluster: each atom pair once, the force on both atoms (Newton's third law, atomics);
  // false: both directions, each atom's force summed by its own thread (no atomics)
  bool cluster_newton = false;
  // auto: row on CPU, column on GPU
  neighbor::ListLayout layout = neighbor::ListLayout::Auto;
  double bin_size = 0;  // cell edge; 0: the list cutoff (cutoff + skin)
  // auto: hilbert on CPU, cells on GPU
  neighbor::AtomSort sort = neighbor::AtomSort::Auto;
  int sort_every = 0;  // steps between re-sorts (0: at setup only)
  // cells: neighbours as built; id: by atom id (reproducible across atom orders and rank counts)
  neighbor::RowOrder row_order = neighbor::RowOrder::Cells;
  // run
  std::int64_t steps = 100;
  int thermo = 50;
  // run.thermo_columns: columns after the fixed ones (include/mdremap/thermo_columns.hpp)
  std::vector<std::string> thermo_columns;
  Precision precision = Precision::Double;
  // output (BRIEF section 8): "" = not written; frames at the first step and every `every`
  std::string thermo_csv;
  std::string h5md_file;
  int h5md_every = 100;
  std::vector<std::string> h5md_fields{"position", "species", "id"};
  std::string h5md_topology;  // a one-frame GSD file MDAnalysis reads as the H5MD's topology
  std::string gsd_file;       // HOOMD-blue's format (io/gsd_writer.hpp)
  int gsd_every = 100;
  std::vector<std::string> gsd_fields{"position", "velocity", "image"};
  bool output_images = false;  // an output holds image counts (outputs and checkpoints)
  std::string vtk_dir;         // must exist; holds traj_<step>.vtp and traj.pvd
  int vtk_every = 100;
  // compute: analyses on the device (md/compute/settings.hpp)
  ComputeSettings computes;
  // restart checkpoints: every `every` steps (0: none but the last) and at the end of the run
  std::string restart_file;
  std::int64_t restart_every = 0;
  // parallel: MPI domain decomposition
  int ranks = 1;                           // MPI ranks running the deck (comm::size())
  std::array<int, 3> processors{0, 0, 0};  // parallel.processors; 0: chosen along that axis
  comm::RankGrid grid;                     // the rank grid the run uses
  // Ghosts through the ranks' exchange (comm/domain_exchange.hpp): with more than one rank, or
  // on one with parallel.ghosts=exchange (the MPI code path, testable without mpirun).
  bool exchange_ghosts = false;
  comm::Transfer transfer = comm::Transfer::Auto;  // parallel.transfer (comm/transfer.hpp)
  // parallel.overlap: the ghosts' positions travel while the forces of the atoms away from the
  // sub-domain faces run (on, off; auto = on for a GPU backend where remap.mode is gather).
  std::string overlap = "auto";
  // The remap layer's section (remap/remap_deck.hpp, defaults remap_app()): the strategy, the
  // atom reorder and the strategies' keys. gather_path and lanes auto (path_auto, lanes_auto)
  // are decided by the force engine from the first neighbour list.
  remap::RemapSettings remap = remap_app().defaults;

  double box_len(int d) const;  // derived from lattice/random settings, or the system file's
  double box_lo(int d) const;   // the box's lower corner (0 unless a system file says)
  std::int64_t natoms() const;
};

// The potential styles the force engine knows (its registry, md/force.cpp).
// potential.style values: pair_styles() (md/pair/styles.hpp).

// Reads and validates the deck; unknown keys and impossible values are InputErrors.
MdParams read_md_params(io::Deck& deck);
// The integrator's settings for a system of `natoms` atoms of the deck's types.
integrators::IntegratorSettings integrator_settings(const MdParams& p, std::int64_t natoms);
// Mixing rule applied to two types' epsilon/sigma/cutoff (LAMMPS pair_modify mix semantics).
void mix(MixingRule rule, double ei, double si, double ci, double ej, double sj, double cj,
         double& eps, double& sig, double& cut);

}  // namespace mdremap::md

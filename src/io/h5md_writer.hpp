#pragma once
// H5MD 1.1 trajectory writer (https://nongnu.org/h5md/h5md.html), BRIEF section 8.
//
// Layout written (T = frames so far, N = atoms, K = thermo samples so far):
//   h5md/                 version = int32[2] {1,1}
//     author/             name
//     creator/            name, version
//     modules/units/      version = int32[2] {1,0}, system = "lj"
//   particles/all/
//     box/                dimension = 3, boundary = ["periodic" x3] (fixed-length strings),
//                         mdremap_origin = double[3] (box lower corner; not in the spec)
//       edges/            step[T] int64, time[T] double, value[T][3][3] double (diagonal;
//                         a box that changes is written as it is at each frame)
//     position|velocity|force/  step[T], time[T], value[T][N][3] double
//     image/              step[T], time[T], value[T][N][3] int32 (periodic images: the
//                         unwrapped position is position + image * edges)
//     potential_energy/   step[T], time[T], value[T][N] double (per atom: half of each of
//                         its pairs' energy, LAMMPS' compute pe/atom; the field
//                         `potential_energy`)
//     species/            step[T], time[T], value[T][N] int32 (0-based type);
//                         names = the types' names (string[types]; species k is names[k])
//     id/                 step[T], time[T], value[T][N] int64 (the ids as given: a system
//                         file's, 1..N for a generated system)
//     mass                value[N] double, time-independent (each atom's type's mass)
//   observables/temperature|potential_energy|kinetic_energy|total_energy|pressure/
//                         step[K] int64, time[K] double, value[K] double (energies per atom)
//   observables/<thermo column>/  the same for each of run.thermo_columns (msd among them)
//   observables/rdf/      step[K], time[K], value[K][B] double (compute.rdf: g(r) averaged over
//                         the samples so far), attribute r = double[B] (the bins' centres)
//   parameters/           units = "lj", dt, mdremap_complete (0 while running, 1 after close),
//     mdremap_deck        the full resolved deck, scalar fixed-length UTF-8 string
//
// Atoms are written ordered by the engine's ids, so row i of every value is the same atom in
// every frame. Within particles/all (and within observables/) the step and time datasets are
// one dataset hard-linked into each element, as the spec allows for data sampled together.
//
// Units: everything is in reduced LJ units (sigma, epsilon, m, tau; LAMMPS `units lj`), the
// H5MD units module's system "lj". Unit attributes (H5MD units module) name them on the box
// edges (sigma), the masses (m), the observables and their times (epsilon per atom, epsilon
// over k_B, epsilon sigma^-3, tau); the position, velocity and force values and the particle
// times carry none, because MDAnalysis 2.4 raises on a unit string it does not know there,
// even with convert_units=False. MDAnalysis opens the file with a topology (a GSD file:
// output.h5md.topology or output.gsd):
//   mda.Universe("top.gsd", "traj.h5md", convert_units=False)
//
// The box edges are a time-dependent 3x3 matrix (rows = edge vectors) rather than a fixed
// 3-vector: MDAnalysis 2.4 reads only box/edges/value[frame] and treats it as three vectors.
//
// MDAnalysis 2.4 reads observables/<name>/value[frame] with the trajectory frame index (and
// raises IndexError when there are fewer samples than frames), so call write_observables at
// the same steps as write_frame if the file is for MDAnalysis.
//
// Collective (several MPI ranks, parallel HDF5): rank 0 locks and stages the file, every rank
// opens it through MPI-IO and writes the rows of its block of atom ids (collective transfers);
// the clocks, box and observables are written by rank 0. The layout is the same.
//
// The file is written as `path.partial` (io/staged_file.hpp: locked before it is emptied) and
// renamed over `path` by close(): an existing file at `path` stays whole until the new one is
// complete. It is flushed after every frame and sample: a killed or failed run leaves a readable
// `path.partial` with everything written so far and parameters/mdremap_complete = 0.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mdremap/frame.hpp"

namespace mdremap::io {

// Per-atom fields a trajectory carries.
struct H5mdFields {
  bool position = true;
  bool velocity = false;
  bool force = false;
  bool species = true;
  bool id = true;
  bool image = false;
  bool potential_energy = false;  // per atom, half of each pair's (md/compute/pe_atom.hpp)

  // From deck names ("position", "velocity", "force", "species", "id", "image",
  // "potential_energy"); throws
  // mdremap::Error naming an unknown field and listing the valid ones.
  static H5mdFields from_names(const std::vector<std::string>& names);
};

struct H5mdOptions {
  H5mdFields fields;
  std::string author;           // h5md/author name
  std::string creator_name;     // h5md/creator name, e.g. "mdremap"
  std::string creator_version;  // h5md/creator version
  std::string deck_yaml;        // the full resolved deck
  double dt = 0.0;
  std::array<double, 3> box_lo{0, 0, 0};   // stored as particles/all/box attribute mdremap_origin
  std::array<double, 3> box_len{0, 0, 0};  // used for a frame whose box_len is all zero
  std::size_t n_atoms = 0;
  std::vector<std::string> type_names;  // species/names (empty: none written)
  std::vector<double> type_mass;        // particles/all/mass from each atom's type (empty: none)
  // observables/ beyond the fixed ones: run.thermo_columns (include/mdremap/thermo_columns.hpp)
  std::vector<std::string> thermo_columns;
  // observables/rdf (compute.rdf): the bins' centres (empty: no such series). Written with the
  // other observables, one g(r) a sample, so the series keep one clock.
  std::vector<double> rdf_r;
  // The ids written as particles/all/id, by the engine's id (empty: the engine's ids).
  std::vector<std::int64_t> atom_ids;
  // Every rank of an MPI run opens the file and writes it together (parallel HDF5): each
  // frame holds one block of consecutive ids per rank (md::distribute_frame_by_id), and
  // write_frame names where it starts. Only where collective_available().
  bool collective = false;
  // A run continued from a checkpoint at this step (-1: a new file). An existing trajectory
  // (the interrupted run's path.partial, else path) is continued: its frames and samples before
  // the step are kept, later ones dropped, and the run's frames appended; one with other atoms
  // or fields is refused (InputError naming the file).
  std::int64_t continue_at = -1;
};

class H5mdWriter {
 public:
  // Built against HDF5's MPI flavour (MDREMAP_PARALLEL_HDF5): H5mdOptions::collective works.
  static bool collective_available();

  // Locks and creates `path.partial`; throws mdremap::Error naming the file on failure
  // (io::OutputBusy when another process is writing `path`).
  H5mdWriter(const std::string& path, const H5mdOptions& options);
  ~H5mdWriter();  // close(false): leaves path.partial incomplete; errors are swallowed
  H5mdWriter(const H5mdWriter&) = delete;
  H5mdWriter& operator=(const H5mdWriter&) = delete;

  // Appends one frame (atoms reordered by Frame::id) and flushes the file. Collective: every
  // rank calls it with its block of atoms, ids first_row, first_row + 1, ... in order.
  void write_frame(const Frame& frame, std::int64_t first_row = 0);
  // Appends one sample to each observables/ series and flushes the file; `rdf`: g(r) of the
  // rdf_r bins (empty where the file has no rdf series).
  void write_observables(const ThermoSample& sample, const std::vector<double>& rdf = {});
  // Marks the file complete, closes it and renames it over `path`; with `complete` false (a run
  // that failed) it stays `path.partial` with mdremap_complete = 0. Later writes throw.
  void close(bool complete = true);

  const std::string& path() const;
  std::int64_t frames_written() const;
  std::int64_t samples_written() const;

 private:
  [[noreturn]] void fail(const std::string& what) const;

  struct Impl;  // keeps HDF5 out of this header
  std::unique_ptr<Impl> impl_;
};

}  // namespace mdremap::io

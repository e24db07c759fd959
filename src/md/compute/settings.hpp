#pragma once
// The deck's `compute:` section: analyses computed on the device during a run, as LAMMPS'
// `compute rdf` and `compute msd` (and freud's RDF and MSD) give them. Kokkos-free: the deck
// reader and the fuzz harnesses validate through it.
#include <cstdint>
#include <string>

#include "io/deck.hpp"

namespace mdremap::md {

// compute.rdf: g(r) over all atom pairs closer than r_max, sampled every `every` steps and
// averaged over the run (md/compute/rdf.hpp).
struct RdfSettings {
  bool enabled = false;
  int bins = 100;
  double r_max = 0;  // resolved: the potential's cut-off where the deck leaves it unset
  std::int64_t every = 100;
  std::string file;  // CSV of the run's average (r, g, coord); "" = none
};

// compute.msd (or the thermo column `msd`): the mean squared displacement of the unwrapped
// positions from those at the run's start (md/compute/msd.hpp).
struct MsdSettings {
  bool enabled = false;
  std::int64_t every = 100;  // rows of `file`
  std::string file;          // CSV rows step,time,msd,msd_x,msd_y,msd_z; "" = none
};

struct ComputeSettings {
  RdfSettings rdf;
  MsdSettings msd;
};

// What the section is checked against: the run's system and how it runs.
struct ComputeLimits {
  double cutoff = 2.5;      // the potential's largest cut-off (r_max's default)
  double min_box = 0;       // the shortest box edge
  double volume = 0;        // the box volume
  std::int64_t atoms = 0;   // atoms in the system
  bool one_process = true;  // no ranks' ghost exchange (parallel.ghosts, mpirun)
  bool msd_column = false;  // run.thermo_columns names msd
  std::int64_t max_steps = 0;
};

// Reads `compute:` (the root's section; absent: nothing computed but the msd column's MSD).
// Bad keys and values are InputErrors naming the deck line (exit 2).
ComputeSettings read_computes(io::DeckSection& root, const ComputeLimits& limits);

}  // namespace mdremap::md

#pragma once
// One snapshot of the system on the host, in reduced LJ units: what trajectory writers and
// checkpoints consume. Arrays are indexed by local atom slot; `id` gives the persistent atom id
// (0-based), so writers can order by id.
#include <cstdint>
#include <string>
#include <vector>

namespace mdremap {

struct Frame {
  std::int64_t step = 0;
  double time = 0.0;  // step * dt
  double box_lo[3] = {0, 0, 0};
  double box_len[3] = {0, 0, 0};
  std::vector<double> x, v, f;      // 3*n each, xyz interleaved; may be empty if not requested
  std::vector<std::int32_t> type;   // n, 0-based type index
  std::vector<std::int64_t> id;     // n, 0-based atom id
  std::vector<std::int32_t> image;  // 3*n periodic image counts, or empty (not tracked)
  std::vector<double> pe;           // n per-atom potential energies, or empty (not asked for)
  std::size_t n() const { return type.size(); }
};

// Thermo observables at one step (per-atom energies, as LAMMPS prints with `units lj`).
struct ThermoSample {
  std::int64_t step = 0;
  double time = 0.0;
  double temp = 0.0;
  double e_pair = 0.0;  // potential energy per atom
  double ke = 0.0;      // kinetic energy per atom
  double etotal = 0.0;  // e_pair + ke
  double press = 0.0;
  double volume = 0.0;
  double density = 0.0;   // mass per volume (LAMMPS' `density` in LJ units)
  double enthalpy = 0.0;  // etotal + press * volume / atoms (per atom, as LAMMPS' `enthalpy`)
  // The pressure tensor xx yy zz xy xz yz (kinetic plus virial part), where the run asked for it
  // (run.thermo_columns pxx..pyz, per-axis pressure coupling); else zeros.
  double ptensor[6] = {0, 0, 0, 0, 0, 0};
  bool has_ptensor = false;
  // The mean squared displacement x y z and total since the run's start, where the run computes
  // it (compute.msd, the thermo column msd); else zeros.
  double msd[4] = {0, 0, 0, 0};
  bool has_msd = false;
};

// One row of compute.msd.file: the mean squared displacement x y z and total at a step.
struct MsdSample {
  std::int64_t step = 0;
  double time = 0.0;
  double msd[4] = {0, 0, 0, 0};
};

}  // namespace mdremap

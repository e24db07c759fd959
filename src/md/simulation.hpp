#pragma once
// An MD run: state on the device, the step loop, thermo, timings. Templated on the storage
// precision S and the force-kernel precision C; `make_engine` erases the types so the CLI and
// tests pick the precision at run time.
#include <memory>
#include <string>
#include <vector>

#include "md/params.hpp"
#include "md/system.hpp"
#include "mdremap/frame.hpp"

namespace mdremap::md {

struct TimeSplit {
  double force = 0;      // pair-force kernel
  double neighbor = 0;   // displacement checks, wrap, binning, list builds, spatial sorts
  double integrate = 0;  // integrator kernels (incl. thermostat)
  double other = 0;      // precision packing, thermo reductions, output
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
  int sorts = 0;
  double mean_neighbors = 0;
  int max_neighbors = 0;
  ThermoSample last;
};

// Called on thermo steps (after the sample is computed) and for progress.
struct RunObserver {
  virtual ~RunObserver() = default;
  virtual void thermo(const ThermoSample&) {}
  virtual void progress(std::int64_t /*done*/, std::int64_t /*total*/, double /*seconds*/) {}
};

class MdEngine {
 public:
  virtual ~MdEngine() = default;
  // Builds neighbour lists and forces at the current step (with energy): the step-0 thermo.
  virtual ThermoSample setup() = 0;
  // Advances `nsteps` steps; thermo every params.thermo steps and at the last step.
  virtual RunStats run(std::int64_t nsteps, RunObserver* obs = nullptr) = 0;
  virtual ThermoSample thermo_now() = 0;  // from the current state (forces recomputed)
  // Host snapshot ordered by atom id; forces are those of the last force evaluation.
  virtual Frame snapshot(bool with_forces = true) const = 0;
  virtual void total_momentum(double p[3]) const = 0;
  virtual double thermostat_energy() const = 0;
  virtual std::int64_t step() const = 0;
  virtual std::int64_t natoms() const = 0;
  virtual std::string describe() const = 0;  // list type, precision, integrator
};

std::unique_ptr<MdEngine> make_engine(const MdParams& p, const HostSystem& s,
                                      std::int64_t first_step = 0);

}  // namespace mdremap::md

namespace mdremap::md {
// The whole initial state from a deck: system, velocities, optional shuffle, then the engine.
std::unique_ptr<MdEngine> create_engine(const MdParams& p);
}  // namespace mdremap::md

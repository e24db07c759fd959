#pragma once
// Time integrators (BRIEF section 4): a small interface, implementations chosen by name. Each
// one declares its deck keys and reads its settings from them (integrators/settings.hpp), and
// writes and restores its own checkpoint state.
// Order within a step: initial_integrate -> (neighbour update, forces) -> post_force ->
// final_integrate.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "integrators/settings.hpp"
#include "mdremap/atoms.hpp"

namespace mdremap::integrators {

// What a constant-pressure integrator reads and changes of the engine's box (the engine gives
// it once, Integrator::attach_cell).
class Cell {
 public:
  virtual ~Cell() = default;
  virtual std::array<double, 3> lengths() const = 0;
  // The pair virial of the last force evaluation (sum over pairs of r_a F_b, the tail correction
  // included): xx yy zz xy xz yz. Where the integrator asked only for the scalar (Virial::Scalar)
  // each diagonal entry is a third of the trace and the off-diagonals are zero.
  virtual std::array<double, 6> virial() const = 0;
  // Scales the box about its centre by f[a] along axis a, and every atom's position with it
  // (LAMMPS' fix npt `dilate all`).
  virtual void dilate(const std::array<double, 3>& f) = 0;
  // dilate(f1), a drift of every atom by dt v, dilate(f2): the same arithmetic in one pass over
  // the atoms (the MTK step's middle).
  virtual void dilate_drift(const std::array<double, 3>& f1, double dt,
                            const std::array<double, 3>& f2) = 0;
};

// What an integrator needs of the forces at every step: nothing beyond them, the scalar virial
// (isotropic pressure coupling), or the virial tensor (per-axis coupling).
enum class Virial { None, Scalar, Tensor };

template <class S>
class Integrator {
 public:
  virtual ~Integrator() = default;
  virtual Virial virial_needed() const { return Virial::None; }
  // A constant-pressure integrator keeps the engine's box (refuses nothing else).
  virtual void attach_cell(Cell*) {}
  // Before each run of steps first + 1 .. last (ramps of targets span the first run).
  virtual void begin_run(std::int64_t /*first*/, std::int64_t /*last*/) {}
  virtual void initial_integrate(AtomArrays<S>& a, std::int64_t step) = 0;
  virtual void post_force(AtomArrays<S>&, std::int64_t) {}
  virtual void final_integrate(AtomArrays<S>& a, std::int64_t step) = 0;
  // The last step's final_integrate followed by this step's initial_integrate, for steps where
  // nothing reads the state in between. Integrators whose kicks are plain velocity Verlet fuse
  // the two into one pass over the atoms (same arithmetic, one read and write of v instead of
  // three).
  virtual void final_and_initial(AtomArrays<S>& a, std::int64_t step) {
    final_integrate(a, step - 1);
    initial_integrate(a, step);
  }
  // What a checkpoint keeps of this integrator (nothing for NVE). restore_state() takes it back
  // from a checkpoint whose thermostat values have the size checkpoint_state() gives (the engine
  // checks); `s.style` names the integrator that wrote it.
  virtual IntegratorState checkpoint_state() const { return {}; }
  virtual void restore_state(const IntegratorState&) {}
  // Energy held by the thermostat (Nose-Hoover's extended-system terms), for conservation checks.
  virtual double thermostat_energy() const { return 0.0; }
  virtual std::string describe() const = 0;
};

// The registry (registry.cpp) makes one entry per catalogue Spec: a new integrator is what
// catalogue.hpp lists.
// Throws Error for an unknown style or settings its declarations refuse.
template <class S>
std::unique_ptr<Integrator<S>> make_integrator(const IntegratorSettings& s);

// sum_i m_i |v_i|^2 (twice the kinetic energy), reduced on the device in double.
template <class S>
double twice_kinetic_energy(const AtomArrays<S>& a, const TypeTable<S>& mass);

// sum_i m_i v_a v_b (the kinetic part of the pressure tensor times the volume), xx yy zz xy xz
// yz, reduced on the device in double.
template <class S>
std::array<double, 6> kinetic_tensor(const AtomArrays<S>& a, const TypeTable<S>& mass);

template <class S>
TypeTable<S> mass_table(const std::vector<double>& type_mass) {
  TypeTable<S> t;
  t.ntypes = static_cast<int>(type_mass.size());
  for (int i = 0; i < t.ntypes; ++i) t.value[i] = static_cast<S>(type_mass[i]);
  return t;
}

}  // namespace mdremap::integrators

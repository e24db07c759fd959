// The engine's forces (md/engine.hpp): the pair forces of a step, split around the ghost update
// with parallel.overlap, and the checks that stop a run which blew up (lost atoms, non-finite
// thermo, overlapping atoms at the start) with a message that names the likely cause.
#include "md/engine.hpp"

#include <fmt/format.h>

#include <cmath>

#include "md/overlap_hint.hpp"
#include "md/system_file.hpp"

namespace mdremap::md::detail {

template <class S, class C>
void Simulation<S, C>::check_atoms(double d2) const {
  // d2 and the thermo are reduced over the ranks: every rank stops here at once.
  if (!(d2 < Kokkos::Experimental::infinity_v<double>))
    throw comm::CollectiveError(
        fmt::format("step {}: atoms with non-finite positions or velocities: the run blew up ({})",
                    step_, blowup_cause()),
        1);
  const double rlist = p_.pairs.max_cutoff() + p_.skin;
  if (d2 > rlist * rlist)
    throw comm::CollectiveError(
        fmt::format("step {}: lost atoms: an atom moved {:.4g} since the "
                    "neighbour list was built at step "
                    "{}, more than the list cutoff {:.4g} (cutoff + "
                    "skin): the run blew up ({})",
                    step_, std::sqrt(d2), last_build_step_, rlist, blowup_cause()),
        1);
}

template <class S, class C>
std::string Simulation<S, C>::blowup_cause() const {
  // A random gas placed without a minimum distance starts with atoms on top of each other.
  if (p_.lattice == Lattice::Random && p_.system_file.empty() && p_.min_distance < kSafeMinDistance)
    return fmt::format(
        "overlapping atoms: the random gas was placed with system.random.min_distance {}; set "
        "min_distance: {} or minimise first (a `minimize:` section in the deck){}",
        p_.min_distance, kSafeMinDistance, overlap_hint_.empty() ? "" : "; " + overlap_hint_);
  return overlap_hint_.empty() ? "time step too large, overlapping atoms, or an absurd "
                                 "temperature"
                               : overlap_hint_;
}

template <class S, class C>
void Simulation<S, C>::find_overlaps() {
  overlap_hint_.clear();
  if (domain_) return;
  auto f = atoms_.f;
  auto type = atoms_.type;
  const auto mass = mass_;
  double amax = 0;
  Kokkos::parallel_reduce(
      "Thermo::max_acceleration", Kokkos::RangePolicy<ExecSpace>(0, atoms_.n),
      KOKKOS_LAMBDA(const int i, double& m) {
        const double a2 =
            (double(f(i, 0)) * f(i, 0) + double(f(i, 1)) * f(i, 1) + double(f(i, 2)) * f(i, 2)) /
            (double(mass[type(i)]) * mass[type(i)]);
        if (!(a2 <= m)) m = a2;  // NaN wins
      },
      Kokkos::Max<double>(amax));
  if (std::sqrt(amax) * p_.dt * p_.dt <= kOverlapMove) return;
  overlap_hint_ = overlap_hint(snapshot(true), box_d_, given_atom_ids(p_), p_.dt);
}

template <class S, class C>
void Simulation<S, C>::check_thermo(const ThermoSample& t) const {
  for (double v : {t.temp, t.e_pair, t.ke, t.press})
    if (!std::isfinite(v))
      throw comm::CollectiveError(
          fmt::format(
              "step {}: non-finite thermo (temperature {}, pair energy {}, pressure {}): the run "
              "blew up ({})",
              step_, t.temp, t.e_pair, t.press, blowup_cause()),
          1);
}

template <class S, class C>
ForceResult Simulation<S, C>::compute_forces(bool ev, bool sampled) {
  ForceResult r;
  clock_.time(&split_.force, &force_s_, [&] {
    r = ghosts_in_flight_ ? forces_beside_exchange(ev) : force_->compute(xg_, atoms_.f, ev);
  });
  ++force_evals_;
  if (ev) have_ev_ = true;
  // The pressure tensor where the thermo columns ask for it (a pass of its own).
  tensor_now_ = ev && !minimizing_ && (tensor_every_ || (tensor_on_thermo_ && sampled));
  if (tensor_now_) timed(split_.other, [&] { wtensor_ = force_->virial_tensor(); });
  return r;
}

template <class S, class C>
ForceResult Simulation<S, C>::forces_beside_exchange(bool ev) {
  // A thermo step's part waits for its sums on the host: the update is queued before it.
  if (ev) domain_->forward_run();
  // The split on a multiple of 32 atoms (the last few away from the faces go with the near
  // ones): a warp of the second part then reads whole 128-byte lines of the column-major list
  // and force array, not two part lines per load.
  const std::int64_t split = nfar_ / 32 * 32;
  remap::ThreadSelection far;
  far.count = split;
  const ForceResult a = force_->compute_part(xg_, atoms_.f, ev, far, false);
  domain_->forward_run();  // after that launch: a host-staged exchange runs beside it
  remap::ThreadSelection near;
  near.first = split;
  near.count = atoms_.n - split;
  near.space = domain_->side_space();
  const ForceResult b = force_->compute_part(xg_, atoms_.f, ev, near, true);
  domain_->forward_join();
  ghosts_in_flight_ = false;
  return ForceResult{a.e_pair + b.e_pair, a.virial + b.virial};
}

// The members above, instantiated for the three precisions.
#define MDREMAP_ENGINE_FORCES(S, C)                                             \
  template void Simulation<S, C>::check_atoms(double d2) const;                 \
  template std::string Simulation<S, C>::blowup_cause() const;                  \
  template void Simulation<S, C>::find_overlaps();                              \
  template void Simulation<S, C>::check_thermo(const ThermoSample& t) const;    \
  template ForceResult Simulation<S, C>::compute_forces(bool ev, bool sampled); \
  template ForceResult Simulation<S, C>::forces_beside_exchange(bool ev);
MDREMAP_ENGINE_PRECISIONS(MDREMAP_ENGINE_FORCES)
#undef MDREMAP_ENGINE_FORCES

}  // namespace mdremap::md::detail

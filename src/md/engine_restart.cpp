// The engine's side of a restart (md/engine.hpp): a checkpoint's forces and integrator state
// taken in, the list's build kept for a checkpoint and rebuilt from one, so that a continued run
// follows the lists of the run it continues.
#include "md/engine.hpp"

#include <fmt/format.h>

#include "mdremap/error.hpp"

namespace mdremap::md::detail {

template <class S, class C>
void Simulation<S, C>::restore(const std::vector<double>& forces,
                               const integrators::IntegratorState& state) {
  if (forces.size() != static_cast<size_t>(3 * natoms_))
    throw Error(fmt::format("restart: {} force values for {} atoms", forces.size(), natoms_));
  const std::size_t keeps = integrator_->checkpoint_state().thermostat.size();
  if (state.thermostat.size() != keeps)
    throw Error(fmt::format("{} thermostat values, {} keeps {}", state.thermostat.size(),
                            integrator_->describe(), keeps));
  integrator_->restore_state(state);
  restore_f_ = forces;
  restored_ = true;
}

template <class S, class C>
void Simulation<S, C>::list_build(ListBuild& b, bool gather) const {
  const std::int64_t n = atoms_.n;
  Frame fr;  // the build's positions by slot, gathered like a snapshot
  fr.x.resize(3 * n);
  auto put = [&](const auto& hold) {
    auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hold);
    for (std::int64_t i = 0; i < n; ++i) {
      fr.x[3 * i] = static_cast<double>(hx(i).x);
      fr.x[3 * i + 1] = static_cast<double>(hx(i).y);
      fr.x[3 * i + 2] = static_cast<double>(hx(i).z);
    }
  };
  // In storage precision: xhold_ where it is that (force and storage precision agree),
  // else the storage-precision copy the build keeps.
  if constexpr (std::is_same_v<S, C>)
    put(xhold_);
  else
    put(xhold_s_);
  fr.id.resize(n);
  Kokkos::deep_copy(
      Kokkos::View<std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(fr.id.data(), n),
      atoms_.id);
  if (gather) gather_frame(fr);
  b.x = std::move(fr.x);
  for (int d = 0; d < 3; ++d) b.box_lo[d] = box_hold_.lo[d], b.box_len[d] = box_hold_.len[d];
  b.step = last_build_step_;
  b.sort_step = last_sort_step_;
}

template <class S, class C>
void Simulation<S, C>::restore_list(const ListBuild& build, std::vector<double> positions_by_id) {
  if (positions_by_id.size() != static_cast<size_t>(3 * natoms_))
    throw Error(
        fmt::format("restart: {} position values for {} atoms", positions_by_id.size(), natoms_));
  restore_build_ = build;
  restore_build_.x.clear();  // the engine was made from them
  restore_x_ = std::move(positions_by_id);
  list_restored_ = true;
}

template <class S, class C>
void Simulation<S, C>::load_forces() {
  auto hf = vectors_host<S>("forces_host", atoms_.n);
  // Decomposed: the atoms moved to their ranks since; the checkpoint's forces come by id.
  auto hid = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.id);
  for (std::int64_t i = 0; i < atoms_.n; ++i) {
    const std::int64_t row = domain_ ? hid(i) : i;
    for (int d = 0; d < 3; ++d) hf(i, d) = static_cast<S>(restore_f_[3 * row + d]);
  }
  vectors_from_host<S>(atoms_.f, hf);  // padded components (vectors_layout)
  restore_f_.clear();
}

template <class S, class C>
void Simulation<S, C>::rebuild_as_checkpointed() {
  const Box<double> now = box_d_;
  set_box(restore_build_.box_lo, restore_build_.box_len);
  rebuilding_restored_ = true;
  rebuild();
  rebuilding_restored_ = false;
  last_build_step_ = restore_build_.step;
  set_box(now.lo, now.len);
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.x);
  auto hid = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.id);
  for (std::int64_t i = 0; i < atoms_.n; ++i) {
    const std::int64_t k = hid(i);
    hx(i).x = static_cast<S>(restore_x_[3 * k]);
    hx(i).y = static_cast<S>(restore_x_[3 * k + 1]);
    hx(i).z = static_cast<S>(restore_x_[3 * k + 2]);
  }
  Kokkos::deep_copy(atoms_.x, hx);
  restore_x_ = {};
  pack_gather_positions();
}

// The members above, instantiated for the three precisions.
#define MDREMAP_ENGINE_RESTART(S, C)                                                  \
  template void Simulation<S, C>::restore(const std::vector<double>& forces,          \
                                          const integrators::IntegratorState& state); \
  template void Simulation<S, C>::list_build(ListBuild& b, bool gather) const;        \
  template void Simulation<S, C>::restore_list(const ListBuild& build,                \
                                               std::vector<double> positions_by_id);  \
  template void Simulation<S, C>::load_forces();                                      \
  template void Simulation<S, C>::rebuild_as_checkpointed();
MDREMAP_ENGINE_PRECISIONS(MDREMAP_ENGINE_RESTART)
#undef MDREMAP_ENGINE_RESTART

}  // namespace mdremap::md::detail

// The engine's neighbour lists (md/engine.hpp): when a step rebuilds them (the displacement
// check against the skin, a box that moved, a restart point), and the rebuild itself on one
// process (wrap, sort, periodic ghosts, build) or over the ranks (migration, borders), with the
// positions the force kernels and the next check read.
#include "md/engine.hpp"

#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <algorithm>
#include <cmath>

#include "md/engine_kernels.hpp"
#include "neighbor/periodic.hpp"
#include "neighbor/row_order.hpp"
#include "neighbor/spatial_order.hpp"

namespace mdremap::md::detail {

template <class S, class C>
void Simulation<S, C>::pack_gather_positions() {
  if (domain_) {  // ghosts from the ranks' exchange: their positions through the send lists
    timed(split_.exchange, [&] {
      Kokkos::Profiling::ScopedRegion r("mdremap::ghost_forward");
      if (overlap_) {  // joined in compute_forces, after the forces of the atoms away from faces
        domain_->forward_begin(atoms_.x, atoms_.n, xg_);
        ghosts_in_flight_ = true;
      } else {
        domain_->forward(atoms_.x, atoms_.n, xg_);
      }
    });
    return;
  }
  const size_t need = atoms_.n + ghosts_.nghost;
  if constexpr (std::is_same_v<S, C>) {
    // Storage and force precision agree (double, single): the local positions are the head
    // of the force kernel's array itself, so a step rewrites only the ghost images (a 4M-atom
    // single-precision step copied 64 MB for nothing). A sort replaces atoms_.x; the next
    // call then moves it back into a fresh array.
    if (atoms_.x.data() != xg_.data() || xg_.extent(0) < need) {
      Kokkos::View<Vec4<C>*> all(Kokkos::view_alloc("x_all", Kokkos::WithoutInitializing),
                                 need + need / 8);
      const auto local = std::make_pair(std::int64_t(0), atoms_.n);
      Kokkos::deep_copy(Kokkos::subview(all, local), atoms_.x);
      xg_ = all;
      atoms_.x = Kokkos::subview(all, local);
    }
    neighbor::update_positions<S, C>(atoms_.x, ghosts_, box_c_, xg_, atoms_.n);
    return;
  }
  if (xg_.extent(0) < need)
    xg_ = Kokkos::View<Vec4<C>*>(Kokkos::view_alloc("x_all", Kokkos::WithoutInitializing),
                                 need + need / 8);
  neighbor::update_positions<S, C>(atoms_.x, ghosts_, box_c_, xg_);
}

template <class S, class C>
void Simulation<S, C>::sort_atoms() {
  auto perm = neighbor::spatial_order<S>(atoms_.x, sort_box(), p_.sort, builder_->bin_size());
  permute_atoms(atoms_, perm);
  ++sorts_;
  last_sort_step_ = step_;
}

template <class S, class C>
Box<S> Simulation<S, C>::sort_box() const {
  if (!domain_) return box_s_;
  const Box<C> sub = domain_->sub_box();
  double lo[3], len[3];
  for (int d = 0; d < 3; ++d) lo[d] = sub.lo[d], len[d] = sub.len[d];
  return Box<S>::make(lo, len);
}

template <class S, class C>
void Simulation<S, C>::rebuild() {
  timed(split_.rebuild, [&] { rebuild_now(); });
}

template <class S, class C>
void Simulation<S, C>::set_box(const double lo[3], const double len[3]) {
  box_d_ = Box<double>::make(lo, len);
  box_s_ = Box<S>::make(lo, len);
  box_c_ = Box<C>::make(lo, len);
}

template <class S, class C>
void Simulation<S, C>::rebuild_now() {
  force_->release_pattern();  // the sort and the build below overwrite the list it reads
  if (domain_) {
    rebuild_decomposed();
    return;
  }
  // A minimiser holds per-atom vectors in the atoms' order: no sort meanwhile. A restart's
  // build of the checkpoint's list starts from positions wrapped and sorted then.
  if (p_.sort != neighbor::AtomSort::None && p_.sort_every > 0 && !minimizing_ &&
      !rebuilding_restored_ && step_ - last_sort_step_ >= p_.sort_every)
    sort_atoms();
  if (!rebuilding_restored_) neighbor::wrap_positions<S>(atoms_.x, box_s_, atoms_.id, image_);
  neighbor::build_ghosts<S>(atoms_.x, atoms_.n, box_s_, builder_->list_cutoff(), ghosts_);
  pack_gather_positions();
  if (cluster_) {
    cluster_builder_->build(xg_, ghosts_, box_c_, clist_);
  } else {
    builder_->build(xg_, ghosts_, box_c_, list_);
    if (p_.row_order == neighbor::RowOrder::Id)
      neighbor::order_rows_by_key(list_, image_ids(atoms_.id, ghosts_));
  }
  hold_positions();
  // Last: a strategy that plans in the background (sharing, remap.plan_overlap) runs its plan
  // while the next steps run, so nothing after it may wait for the whole device.
  remap_ms_ += fenced_ms([&] {
    if (cluster_)
      force_->plan_clusters(clist_, ghosts_);
    else
      force_->plan(list_, ghosts_);
  });
  ++builds_;
  last_build_step_ = step_;
  box_hold_ = box_d_;
}

template <class S, class C>
void Simulation<S, C>::rebuild_decomposed() {
  if (!rebuilding_restored_) neighbor::wrap_positions<S>(atoms_.x, box_s_, atoms_.id, image_);
  Kokkos::Profiling::ScopedRegion region("mdremap::rebuild_decomposed");
  clock_.time(&split_.exchange_rebuild, &split_.exchange_migrate, [&] {
    Kokkos::Profiling::ScopedRegion r("mdremap::migrate");
    domain_->migrate(atoms_);
  });
  if (p_.sort != neighbor::AtomSort::None && p_.sort_every > 0 && !rebuilding_restored_ &&
      step_ - last_sort_step_ >= p_.sort_every)
    sort_atoms();
  // parallel.overlap: the atoms near a face last, the forces of the others run beside the
  // ghost update.
  if (overlap_) nfar_ = domain_->near_faces_last(atoms_);
  ghosts_.nlocal = atoms_.n;
  timed(split_.exchange_rebuild, [&] {
    Kokkos::Profiling::ScopedRegion r("mdremap::borders");
    ghosts_.nghost = domain_->borders(atoms_.x, atoms_.id, atoms_.n, xg_);
  });
  ghosts_.images = false;
  ghosts_in_flight_ = false;  // borders() wrote them (and joined any update still travelling)
  // Storage and force precision agree: the local positions are the head of the force
  // kernel's array (as pack_gather_positions keeps them on one process).
  if constexpr (std::is_same_v<S, C>)
    atoms_.x = Kokkos::subview(xg_, std::make_pair(std::int64_t(0), atoms_.n));
  {
    Kokkos::Profiling::ScopedRegion r("mdremap::list_build");
    builder_->build(xg_, ghosts_, domain_->sub_box(), list_);
    if (p_.row_order == neighbor::RowOrder::Id) neighbor::order_rows_by_key(list_, domain_->ids());
  }
  hold_positions();
  remap_ms_ += fenced_ms([&] {
    Kokkos::Profiling::ScopedRegion r("mdremap::remap_plan");
    force_->plan(list_, ghosts_);
  });
  ++builds_;
  last_build_step_ = step_;
  box_hold_ = box_d_;
}

template <class S, class C>
void Simulation<S, C>::hold_positions() {
  const auto local = std::make_pair(std::int64_t(0), atoms_.n);
  if (xhold_store_.extent(0) < static_cast<size_t>(atoms_.n))
    xhold_store_ = Kokkos::View<Vec4<C>*>(Kokkos::view_alloc("xhold", Kokkos::WithoutInitializing),
                                          atoms_.n + atoms_.n / 16 + 64);
  xhold_ = Kokkos::subview(xhold_store_, local);
  Kokkos::deep_copy(ExecSpace(), xhold_, Kokkos::subview(xg_, local));
  if constexpr (!std::is_same_v<S, C>) {
    if (xhold_s_store_.extent(0) < static_cast<size_t>(atoms_.n))
      xhold_s_store_ =
          Kokkos::View<Vec4<S>*>(Kokkos::view_alloc("xhold_s", Kokkos::WithoutInitializing),
                                 atoms_.n + atoms_.n / 16 + 64);
    xhold_s_ = Kokkos::subview(xhold_s_store_, local);
    Kokkos::deep_copy(ExecSpace(), xhold_s_, atoms_.x);
  }
}

template <class S, class C>
void Simulation<S, C>::refresh_for_check() {
  if (domain_)
    domain_->locals(atoms_.x, atoms_.n, xg_);
  else
    pack_gather_positions();
}

template <class S, class C>
void Simulation<S, C>::maybe_rebuild(const OutputRequest& out) {
  // An H5MD frame with velocities: the state the setup() of a run from it sees (sorted if
  // sorts are periodic, the lists built from it).
  if (out.restart_point) {
    refresh_for_check();
    check_atoms(displacement_check());  // a blown-up state is never written
    if (p_.sort != neighbor::AtomSort::None && p_.sort_every > 0) sort_atoms();
    rebuild();
    return;
  }
  // A box that changed since the build moves the periodic images as well: the atoms may move
  // only what the skin leaves after the box faces' movement (LAMMPS' check with a changing
  // box).
  double trigger = 0.5 * p_.skin;
  if (virial_every_) {
    double dlo = 0, dhi = 0;
    for (int d = 0; d < 3; ++d) {
      const double a = box_d_.lo[d] - box_hold_.lo[d];
      const double b = a + box_d_.len[d] - box_hold_.len[d];
      dlo += a * a;
      dhi += b * b;
    }
    trigger = std::max(0.0, 0.5 * (p_.skin - (std::sqrt(dlo) + std::sqrt(dhi))));
  }
  const double half_skin_sq = trigger * trigger;
  bool need = false;
  const bool scheduled = step_ % p_.every == 0;
  if (scheduled || out.checkpoint) {
    refresh_for_check();
    const double d2 = displacement_check();
    check_atoms(d2);  // a checkpoint's too: a blown-up state never becomes a checkpoint
    if (scheduled && p_.check) {
      need = d2 > half_skin_sq;
    } else if (scheduled) {
      need = true;
      if (d2 > half_skin_sq) ++dangerous_;
    }
  }
  if (need)
    rebuild();
  else
    pack_gather_positions();
}

template <class S, class C>
double Simulation<S, C>::displacement_check() const {
  const double d2 =
      max_displacement_sq_or_inf<C, S>(local_positions(), xhold_, atoms_.v, box_c_, atoms_.n);
  return domain_ ? comm::max(d2) : d2;  // every rank rebuilds, or none
}

template <class S, class C>
void Simulation<S, C>::reorder_atoms() {
  if (p_.remap.reorder == Reorder::Spatial) {
    permute_atoms(atoms_,
                  neighbor::spatial_order<S>(
                      atoms_.x, sort_box(),
                      p_.sort == neighbor::AtomSort::None ? neighbor::AtomSort::Hilbert : p_.sort,
                      builder_->bin_size()));
  } else {
    permute_atoms(atoms_,
                  reorder_permutation<C>(p_, list_, atoms_.n + ghosts_.nghost, local_positions()));
  }
  ++sorts_;
}

// The members above, instantiated for the three precisions.
#define MDREMAP_ENGINE_LISTS(S, C)                                                  \
  template void Simulation<S, C>::pack_gather_positions();                          \
  template void Simulation<S, C>::sort_atoms();                                     \
  template Box<S> Simulation<S, C>::sort_box() const;                               \
  template void Simulation<S, C>::rebuild();                                        \
  template void Simulation<S, C>::set_box(const double lo[3], const double len[3]); \
  template void Simulation<S, C>::rebuild_now();                                    \
  template void Simulation<S, C>::rebuild_decomposed();                             \
  template void Simulation<S, C>::hold_positions();                                 \
  template void Simulation<S, C>::refresh_for_check();                              \
  template void Simulation<S, C>::maybe_rebuild(const OutputRequest& out);          \
  template double Simulation<S, C>::displacement_check() const;                     \
  template void Simulation<S, C>::reorder_atoms();
MDREMAP_ENGINE_PRECISIONS(MDREMAP_ENGINE_LISTS)
#undef MDREMAP_ENGINE_LISTS

}  // namespace mdremap::md::detail

// The engine's atoms between host and device (md/engine.hpp): the system loaded (this rank's
// share of it when decomposed), snapshots and frames taken off the device, per-atom energies and
// image counts, and the check that migration kept every atom.
#include "md/engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "md/engine_kernels.hpp"

namespace mdremap::md::detail {

template <class S, class C>
Frame Simulation<S, C>::snapshot(bool with_forces) const {
  if (gathers()) {  // every rank's atoms onto rank 0, in id order
    Frame fr;
    snapshot_slots(fr, true, with_forces, true, false);
    return fr;
  }
  Frame fr;
  fr.step = step_;
  fr.time = step_ * p_.dt;
  for (int d = 0; d < 3; ++d) fr.box_lo[d] = box_d_.lo[d], fr.box_len[d] = box_d_.len[d];
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.x);
  auto hv = vectors_to_host<S>(atoms_.v);  // padded components (vectors_layout)
  auto hf = vectors_to_host<S>(atoms_.f);
  auto ht = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.type);
  auto hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.id);
  auto him = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), image_);
  const std::int64_t n = atoms_.n;
  fr.image.resize(3 * n);
  std::vector<std::int64_t> order(n);
  std::iota(order.begin(), order.end(), std::int64_t{0});
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return hi(a) < hi(b); });
  fr.x.resize(3 * n);
  fr.v.resize(3 * n);
  if (with_forces) fr.f.resize(3 * n);
  fr.type.resize(n);
  fr.id.resize(n);
  for (std::int64_t k = 0; k < n; ++k) {
    const auto i = order[k];
    fr.x[3 * k] = hx(i).x;
    fr.x[3 * k + 1] = hx(i).y;
    fr.x[3 * k + 2] = hx(i).z;
    for (int d = 0; d < 3; ++d) {
      fr.v[3 * k + d] = hv(i, d);
      if (with_forces) fr.f[3 * k + d] = hf(i, d);
      fr.image[3 * k + d] = him(hi(i), d);
    }
    fr.type[k] = ht(i);
    fr.id[k] = hi(i);
  }
  return fr;
}

template <class S, class C>
void Simulation<S, C>::snapshot_slots(Frame& fr, bool velocities, bool forces, bool gather,
                                      bool energies) const {
  const std::int64_t n = atoms_.n;
  fr.step = step_;
  fr.time = step_ * p_.dt;
  for (int d = 0; d < 3; ++d) fr.box_lo[d] = box_d_.lo[d], fr.box_len[d] = box_d_.len[d];
  fr.x.resize(3 * n);
  fr.v.resize(velocities ? 3 * n : 0);
  fr.f.resize(forces ? 3 * n : 0);
  fr.type.resize(n);
  fr.id.resize(n);
  if (pack_.extent(0) < static_cast<size_t>(3 * n))
    pack_ = Kokkos::View<double*>(Kokkos::view_alloc("snapshot_pack", Kokkos::WithoutInitializing),
                                  3 * n);
  auto pack = pack_;
  using HostDoubles = Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  auto copy_out = [&](std::vector<double>& dst) {
    Kokkos::deep_copy(HostDoubles(dst.data(), 3 * n),
                      Kokkos::subview(pack, std::make_pair(std::int64_t(0), 3 * n)));
  };
  pack_positions<S>(pack, atoms_.x);
  copy_out(fr.x);
  if (velocities) {
    pack_vectors<S>(pack, atoms_.v);
    copy_out(fr.v);
  }
  if (forces) {
    pack_vectors<S>(pack, atoms_.f);
    copy_out(fr.f);
  }
  Kokkos::deep_copy(Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        reinterpret_cast<int*>(fr.type.data()), n),
                    atoms_.type);
  Kokkos::deep_copy(
      Kokkos::View<std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(fr.id.data(), n),
      atoms_.id);
  slot_images(fr);
  fr.pe.clear();
  if (energies) atom_energies(fr.pe);
  if (gather) gather_frame(fr);
}

template <class S, class C>
void Simulation<S, C>::atom_energies(std::vector<double>& out) const {
  const std::int64_t n = atoms_.n;
  if (pe_.extent(0) < static_cast<size_t>(n))
    pe_ = Kokkos::View<double*>(Kokkos::view_alloc("pe_atom", Kokkos::WithoutInitializing), n);
  const auto e = Kokkos::subview(pe_, std::make_pair(std::int64_t(0), n));
  force_->atom_energies(e);
  if (p_.tail) {
    TypeTable<double> tail;
    tail.ntypes = static_cast<int>(tail_per_type_.size());
    for (int t = 0; t < tail.ntypes; ++t) tail.value[t] = tail_per_type_[t] / box_d_.volume();
    add_type_values(e, atoms_.type, tail);
  }
  out.resize(n);
  Kokkos::deep_copy(
      Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(out.data(), n), e);
}

template <class S, class C>
void Simulation<S, C>::slot_images(Frame& fr) const {
  const std::int64_t n = atoms_.n;
  if (domain_ && comm::size() > 1) {
    fr.image.clear();
    if (!p_.output_images) return;
    auto him = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), image_);
    std::vector<double> total(3 * natoms_);
    for (std::int64_t i = 0; i < natoms_; ++i)
      for (int d = 0; d < 3; ++d) total[3 * i + d] = him(i, d);
    comm::sum_in_place(total.data(), static_cast<int>(total.size()));
    fr.image.resize(3 * n);
    for (std::int64_t k = 0; k < n; ++k)
      for (int d = 0; d < 3; ++d)
        fr.image[3 * k + d] = static_cast<std::int32_t>(total[3 * fr.id[k] + d]);
    return;
  }
  if (image_pack_.extent(0) < static_cast<size_t>(3 * n))
    image_pack_ =
        Kokkos::View<int*>(Kokkos::view_alloc("image_pack", Kokkos::WithoutInitializing), 3 * n);
  pack_images(image_pack_, image_, atoms_.id, n);
  fr.image.resize(3 * n);
  Kokkos::deep_copy(Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        reinterpret_cast<int*>(fr.image.data()), 3 * n),
                    Kokkos::subview(image_pack_, std::make_pair(std::int64_t(0), 3 * n)));
}

template <class S, class C>
std::vector<std::int64_t> Simulation<S, C>::decompose(const HostSystem& s, double rlist) {
  domain_ = std::make_unique<comm::DomainExchange<S, C>>(p_.grid, comm::rank(), box_d_, rlist,
                                                         p_.transfer);
  domain_->keep_ids(p_.row_order == neighbor::RowOrder::Id);
  std::vector<std::int64_t> mine;
  for (std::int64_t i = 0; i < natoms_; ++i) {
    double w[3];
    for (int d = 0; d < 3; ++d) {
      const double r = s.x[3 * i + d] - s.lo[d];
      w[d] = s.lo[d] + (r - s.len[d] * std::floor(r / s.len[d]));
    }
    if (domain_->owns(w[0], w[1], w[2])) mine.push_back(i);
  }
  return mine;
}

template <class S, class C>
void Simulation<S, C>::load_atoms(const HostSystem& s, const std::vector<std::int64_t>& mine) {
  const std::int64_t n = domain_ ? static_cast<std::int64_t>(mine.size()) : natoms_;
  for (const std::int64_t id : s.id) id_sum_ += id;
  atoms_.allocate(n);
  auto hx = Kokkos::create_mirror_view(atoms_.x);
  auto hv = vectors_host<S>("velocities_host", n);
  auto ht = Kokkos::create_mirror_view(atoms_.type);
  auto hi = Kokkos::create_mirror_view(atoms_.id);
  for (std::int64_t k = 0; k < n; ++k) {
    const std::int64_t i = domain_ ? mine[k] : k;
    hx(k) = Vec4<S>{S(s.x[3 * i]), S(s.x[3 * i + 1]), S(s.x[3 * i + 2]), S(s.type[i])};
    for (int d = 0; d < 3; ++d) hv(k, d) = S(s.v[3 * i + d]);
    ht(k) = s.type[i];
    hi(k) = s.id[i];
  }
  Kokkos::deep_copy(atoms_.x, hx);
  vectors_from_host<S>(atoms_.v, hv);  // padded components (vectors_layout)
  Kokkos::deep_copy(atoms_.type, ht);
  Kokkos::deep_copy(atoms_.id, hi);
  // Image counts by atom id, moved as the wraps move the atoms. Decomposed: each rank counts
  // its own wraps (rank 0 starts with the system's), a snapshot sums them.
  image_ = Kokkos::View<int* [3]>("image", natoms_);
  if (!s.image.empty() && comm::rank() == 0) {
    auto him = Kokkos::create_mirror_view(image_);
    for (std::int64_t i = 0; i < natoms_; ++i)
      for (int d = 0; d < 3; ++d) him(s.id[i], d) = s.image[3 * i + d];
    Kokkos::deep_copy(image_, him);
  }
}

template <class S, class C>
void Simulation<S, C>::check_conserved() const {
  const std::int64_t count = comm::sum(atoms_.n);
  const std::int64_t ids = comm::sum(id_sum(atoms_.id, atoms_.n));
  if (count != natoms_ || ids != id_sum_)
    throw comm::CollectiveError(
        fmt::format("step {}: the ranks hold {} atoms (id sum {}), the system has {} (id sum "
                    "{}): atoms were lost or doubled in migration",
                    step_, count, ids, natoms_, id_sum_),
        1);
}

// The members above, instantiated for the three precisions.
#define MDREMAP_ENGINE_ATOMS(S, C)                                                        \
  template std::vector<std::int64_t> Simulation<S, C>::decompose(const HostSystem& s,     \
                                                                 double rlist);           \
  template void Simulation<S, C>::load_atoms(const HostSystem& s,                         \
                                             const std::vector<std::int64_t>& mine);      \
  template Frame Simulation<S, C>::snapshot(bool with_forces) const;                      \
  template void Simulation<S, C>::snapshot_slots(Frame& fr, bool velocities, bool forces, \
                                                 bool gather, bool energies) const;       \
  template void Simulation<S, C>::atom_energies(std::vector<double>& out) const;          \
  template void Simulation<S, C>::slot_images(Frame& fr) const;                           \
  template void Simulation<S, C>::check_conserved() const;
MDREMAP_ENGINE_PRECISIONS(MDREMAP_ENGINE_ATOMS)
#undef MDREMAP_ENGINE_ATOMS

}  // namespace mdremap::md::detail

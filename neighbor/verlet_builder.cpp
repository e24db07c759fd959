#include "neighbor/verlet_builder.hpp"

#include <string>

#include "mdremap/error.hpp"

namespace mdremap::neighbor {

template <class T, class Space>
VerletListBuilder<T, Space>::VerletListBuilder(double list_cutoff, bool half, bool column_major,
                                               double bin_size, BuildKernel kernel)
    : rlist_(list_cutoff),
      half_(half),
      column_major_(column_major),
      bin_size_(bin_size > 0 ? bin_size : 0.5 * list_cutoff),
      kernel_(pick_list_kernel<T, Space>(kernel, half, column_major)) {}

// `store` with room for `need` entries: kept while it has, else replaced with 1/16 to spare
// (the count breathes from one build to the next). Contents are not kept. `held`, the view of
// it handed out last, is dropped first, so that the old storage is freed before the new one is
// made where nobody else holds it (a 4M-atom list is 1.7 GB).
template <class T, class Space>
Kokkos::View<int*, Space> VerletListBuilder<T, Space>::grown(Kokkos::View<int*, Space>& store,
                                                             Kokkos::View<int*, Space>& held,
                                                             const char* label, std::int64_t need) {
  if (store.extent(0) < static_cast<size_t>(need)) {
    held = Kokkos::View<int*, Space>();
    store = Kokkos::View<int*, Space>();
    store = Kokkos::View<int*, Space>(
        Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing), need + need / 16 + 64);
  }
  return store;
}

template <class T, class Space>
void VerletListBuilder<T, Space>::build(nondeduced_t<Kokkos::View<const Vec4<T>*, Space>> xall,
                                        const BasicGhostAtoms<Space>& g, const Box<T>& box,
                                        BasicNeighborList<Space>& list) {
  const std::int64_t n = g.nlocal;
  const std::int64_t ntotal = n + g.nghost;
  if (ntotal > (std::int64_t(1) << 31) - 1)
    throw Error("neighbor list: more than 2^31 atoms and ghosts");
  // Images of the periodic box need a box twice the list cutoff; ghosts from other ranks need a
  // sub-box (`box`) the list cutoff thick (comm/rank_grid.hpp checks it) and full lists.
  for (int d = 0; d < 3; ++d)
    if (double(box.len[d]) < (g.images ? 2.0 : 1.0) * rlist_)
      throw Error(g.images ? "neighbor list: box shorter than twice the list cutoff (cutoff + skin)"
                           : "neighbor list: sub-box thinner than the list cutoff (cutoff + skin)");
  if (!g.images && half_)
    throw Error("neighbor list: a half list needs ghosts that are periodic images");
  bins_.bin(Kokkos::subview(xall, std::make_pair(std::int64_t(0), ntotal)), g, box, bin_size_,
            rlist_, kernel_.soa_positions);
  list.n = n;
  list.half = half_;
  list.column_major = column_major_;
  // The list over kept storage: a decomposed run's atom count changes at every migration, and
  // a fresh list at each build cost an allocation and a free, each a device-wide wait.
  list.counts = Kokkos::subview(grown(count_store_, list.counts, "counts", n),
                                std::make_pair(std::int64_t(0), n));
  if (list.maxneigh == 0) {
    const double rho = n / box.volume();
    const double expect = 4.18879020479 * rlist_ * rlist_ * rlist_ * rho * (half_ ? 0.5 : 1.0);
    list.maxneigh = static_cast<int>(expect * 1.25) + 8;
  }
  ListBuildArgs<T, Space> a;
  a.n = n;
  a.ntotal = ntotal;
  for (int d = 0; d < 3; ++d) a.nbin[d] = bins_.nbin[d], a.ext[d] = bins_.ext[d];
  a.ncells = bins_.ncells();
  a.offset = bins_.bin_offset;
  a.perm = bins_.permute;
  a.bin_of = bins_.bin_of;
  a.bin_count = bins_.bin_count;
  a.owner = g.owner;
  a.xs = bins_.xs;
  a.xsoa = bins_.xsoa;
  a.stencil = make_stencil(rlist_, bins_.size, half_);
  a.rsq = static_cast<T>(rlist_ * rlist_);
  a.counts = list.counts;
  // Column-major rows start at multiples of 32 entries (128 bytes), whatever n is: with
  // stride_j = n a decomposed rank's count (changed by every migration) put most rows of the list
  // across one more 32-byte sector per warp load (the force kernel measured slower per atom on
  // several ranks than on one).
  const std::int64_t row_stride = column_major_ ? warp_multiple(n) : 1;
  if (stats_.extent(0) == 0) stats_ = Kokkos::View<int*, Space>("list_stats", 3);
  a.stats = stats_;
  for (;;) {
    const int maxneigh = list.maxneigh;
    const std::int64_t entries = std::int64_t(maxneigh) * (column_major_ ? row_stride : n);
    a.nbrs = decltype(a.nbrs)();  // a regrow's last list: held only by the list and the store
    list.neighbors = Kokkos::subview(grown(neighbor_store_, list.neighbors, "neighbors", entries),
                                     std::make_pair(std::int64_t(0), entries));
    list.stride_j = row_stride;
    list.stride_i = column_major_ ? 1 : maxneigh;
    a.nbrs = list.neighbors;
    a.maxneigh = maxneigh;
    a.sj = list.stride_j;
    a.si = list.stride_i;
    a.candidates = candidates_;
    Kokkos::deep_copy(Space(), stats_, 0);  // on the stream: no device-wide fence
    last_kernel_ = kernel_.run(a);
    // One wait after the kernel: the largest row and, from the GPU kernel, the most candidates of
    // a cell (it sizes the next build's shared memory without a reduction and a wait of its own).
    int s[3];
    Kokkos::deep_copy(Space(), Kokkos::View<int[3], Kokkos::HostSpace>(s), stats_);
    Space().fence("Neighbor::list_stats");
    if (s[0] > 0) candidates_ = s[0];
    if (s[2] != 0) {  // a cell had more candidates than the guess: build again with the count
      ++candidate_rebuilds_;
      continue;
    }
    const int maxc = s[1];
    list.max_count = maxc;
    if (maxc <= maxneigh) break;
    list.maxneigh = maxc + maxc / 8 + 4;  // grow and rebuild: never drop a pair
    ++regrows_;
  }
}

#define MDREMAP_INSTANTIATE(Space)                \
  template class VerletListBuilder<float, Space>; \
  template class VerletListBuilder<double, Space>;
MDREMAP_NEIGHBOR_FOR_SPACES(MDREMAP_INSTANTIATE)
#undef MDREMAP_INSTANTIATE

}  // namespace mdremap::neighbor

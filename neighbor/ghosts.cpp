#include "neighbor/ghosts.hpp"

#include "neighbor/spaces.hpp"

namespace mdremap::neighbor {

template <class T, class Space>
void build_ghosts(nondeduced_t<Kokkos::View<const Vec4<T>*, Space>> x, std::int64_t nlocal,
                  const Box<T>& box, double rlist, BasicGhostAtoms<Space>& g) {
  g.nlocal = nlocal;
  if (g.count.extent(0) != static_cast<size_t>(nlocal)) {
    g.count = Kokkos::View<int*, Space>("ghost_count", nlocal);
    g.offset = Kokkos::View<int*, Space>("ghost_offset", nlocal + 1);
  }
  auto count = g.count;
  auto offset = g.offset;
  const T rc = static_cast<T>(rlist);
  // Shifts per axis: +1 (image at x + L) if near lo, -1 if near hi.
  auto shifts = KOKKOS_LAMBDA(const Vec4<T>& p, int d, int* out) {
    const T c = d == 0 ? p.x : (d == 1 ? p.y : p.z);
    int m = 0;
    out[m++] = 0;
    if (c - box.lo[d] < rc) out[m++] = 1;
    if (box.lo[d] + box.len[d] - c <= rc) out[m++] = -1;
    return m;
  };
  Kokkos::parallel_for(
      "Ghost::count", Kokkos::RangePolicy<Space>(0, nlocal), KOKKOS_LAMBDA(const int i) {
        int s[3][3];
        const Vec4<T> p = x(i);
        count(i) = shifts(p, 0, s[0]) * shifts(p, 1, s[1]) * shifts(p, 2, s[2]) - 1;
      });
  using Scan = TileScan<1, Space>;
  const std::int64_t total =
      g.offsets_scan
          .run(
              "Ghost::scan", nlocal + 1,
              KOKKOS_LAMBDA(const std::int64_t i) {
                return i < nlocal ? static_cast<std::uint64_t>(count(i)) : std::uint64_t(0);
              },
              KOKKOS_LAMBDA(const std::int64_t i, const typename Scan::Counts& before,
                            const typename Scan::Counts&) { offset(i) = int(before.n[0]); })
          .n[0];
  g.nghost = total;
  if (g.owner.extent(0) < static_cast<size_t>(total)) {
    const size_t cap = total + total / 8 + 16;
    g.owner = Kokkos::View<int*, Space>(
        Kokkos::view_alloc("ghost_owner", Kokkos::WithoutInitializing), cap);
    g.shift = Kokkos::View<int*, Space>(
        Kokkos::view_alloc("ghost_shift", Kokkos::WithoutInitializing), cap);
  }
  auto owner = g.owner;
  auto shift = g.shift;
  Kokkos::parallel_for(
      "Ghost::fill", Kokkos::RangePolicy<Space>(0, nlocal), KOKKOS_LAMBDA(const int i) {
        int s[3][3];
        const Vec4<T> p = x(i);
        const int mx = shifts(p, 0, s[0]), my = shifts(p, 1, s[1]), mz = shifts(p, 2, s[2]);
        int k = offset(i);
        for (int c = 0; c < mz; ++c)
          for (int b = 0; b < my; ++b)
            for (int a = 0; a < mx; ++a) {
              if (a == 0 && b == 0 && c == 0) continue;
              owner(k) = i;
              shift(k) = (s[0][a] + 1) + 3 * (s[1][b] + 1) + 9 * (s[2][c] + 1);
              ++k;
            }
      });
}

template <class S, class C, class Space>
void update_positions(nondeduced_t<Kokkos::View<const Vec4<S>*, Space>> x,
                      const BasicGhostAtoms<Space>& g, const Box<C>& box,
                      nondeduced_t<Kokkos::View<Vec4<C>*, Space>> xall, std::int64_t first) {
  const std::int64_t nlocal = g.nlocal;
  auto owner = g.owner;
  auto shift = g.shift;
  Kokkos::parallel_for(
      "Ghost::update", Kokkos::RangePolicy<Space>(first, nlocal + g.nghost),
      KOKKOS_LAMBDA(const std::int64_t k) {
        if (k < nlocal) {
          const Vec4<S> p = x(k);
          xall(k) = Vec4<C>{C(p.x), C(p.y), C(p.z), C(p.w)};
        } else {
          const int gi = static_cast<int>(k - nlocal);
          const Vec4<S> p = x(owner(gi));
          const int s = shift(gi);
          xall(k) =
              Vec4<C>{C(p.x) + C(s % 3 - 1) * box.len[0], C(p.y) + C(s / 3 % 3 - 1) * box.len[1],
                      C(p.z) + C(s / 9 - 1) * box.len[2], C(p.w)};
        }
      });
}

#define MDREMAP_INSTANTIATE(Space)                                                                 \
  template void build_ghosts<float, Space>(Kokkos::View<const Vec4<float>*, Space>, std::int64_t,  \
                                           const Box<float>&, double, BasicGhostAtoms<Space>&);    \
  template void build_ghosts<double, Space>(Kokkos::View<const Vec4<double>*, Space>,              \
                                            std::int64_t, const Box<double>&, double,              \
                                            BasicGhostAtoms<Space>&);                              \
  template void update_positions<double, double, Space>(                                           \
      Kokkos::View<const Vec4<double>*, Space>, const BasicGhostAtoms<Space>&, const Box<double>&, \
      Kokkos::View<Vec4<double>*, Space>, std::int64_t);                                           \
  template void update_positions<double, float, Space>(                                            \
      Kokkos::View<const Vec4<double>*, Space>, const BasicGhostAtoms<Space>&, const Box<float>&,  \
      Kokkos::View<Vec4<float>*, Space>, std::int64_t);                                            \
  template void update_positions<float, float, Space>(                                             \
      Kokkos::View<const Vec4<float>*, Space>, const BasicGhostAtoms<Space>&, const Box<float>&,   \
      Kokkos::View<Vec4<float>*, Space>, std::int64_t);
MDREMAP_NEIGHBOR_FOR_SPACES(MDREMAP_INSTANTIATE)
#undef MDREMAP_INSTANTIATE

}  // namespace mdremap::neighbor

#pragma once
// The portable list build: a Kokkos thread per atom, atoms in cell order (consecutive atoms share
// candidate runs). AtomScan, one atom's list, is shared with the GPU's CellAtoms kernel.
#include "neighbor/list_build.hpp"

namespace mdremap::neighbor {

// One atom's list: the stencil cells' candidate runs of xs in order, so the list (and the force
// sums) do not depend on which thread builds it.
template <class T, class Space, bool Half>
struct AtomScan {
  Kokkos::View<const int*, Space, Kokkos::MemoryTraits<Kokkos::RandomAccess>> offset, perm;
  Kokkos::View<const Vec4<T>*, Space, Kokkos::MemoryTraits<Kokkos::RandomAccess>> xs;
  Kokkos::View<const int*, Space> owner;
  Kokkos::View<int*, Space> nbrs;
  Stencil st;
  int nx, ny, nz, maxneigh;
  std::int64_t n, sj, si;
  T rsq_list;

  explicit AtomScan(const ListBuildArgs<T, Space>& a)
      : offset(a.offset),
        perm(a.perm),
        xs(a.xs),
        owner(a.owner),
        nbrs(a.nbrs),
        st(a.stencil),
        nx(a.nbin[0]),
        ny(a.nbin[1]),
        nz(a.nbin[2]),
        maxneigh(a.maxneigh),
        n(a.n),
        sj(a.sj),
        si(a.si),
        rsq_list(a.rsq) {}

  // Atom i at cell-order position t in cell c; returns its full count.
  KOKKOS_INLINE_FUNCTION int operator()(const int t, const int i, const int c) const {
    const Vec4<T> xi = xs(t);
    const int cx = c % nx, cy = (c / nx) % ny, cz = c / (nx * ny);
    int* const out = nbrs.data() + i * si;  // entry cnt at out[cnt * sj]: a running offset
    std::int64_t pos = 0;
    int cnt = 0;
    for (int s = 0; s < st.count; ++s) {
      const int bx = cx + st.off[s][0], by = cy + st.off[s][1], bz = cz + st.off[s][2];
      if (bx < 0 || bx >= nx || by < 0 || by >= ny || bz < 0 || bz >= nz) continue;
      const int cell = bx + nx * (by + ny * bz);
      const bool home = cell == c;
      const int kend = offset(cell + 1);
#ifdef __CUDA_ARCH__
#pragma unroll 4
#endif
      for (int k = offset(cell); k < kend; ++k) {
        const Vec4<T>& xj = xs(k);  // by reference: a struct copy spills on CPUs
        const T dx = xi.x - xj.x, dy = xi.y - xj.y, dz = xi.z - xj.z;
        if (dx * dx + dy * dy + dz * dz <= rsq_list) {
          const int j = perm(k);
          if (home) {
            if (k == t) continue;
            // Within the home cell a half list keeps (i, j) when i < owner(j): the image
            // pair (owner(j), image of i) in that atom's home cell then fails the test.
            if (Half && (j < n ? j : owner(j - n)) <= i) continue;
          }
          if (cnt < maxneigh) out[pos] = j;
          ++cnt;
          pos += sj;
        }
      }
    }
    return cnt;
  }
};

template <class T, class Space, bool Half, bool ColumnMajor>
struct PortableBuild {
  static constexpr BuildKernel kind = BuildKernel::Portable;
  static constexpr bool runs_on = is_host_space_v<Space>;
  static constexpr bool soa_positions = false;
  static BuildKernel run(const ListBuildArgs<T, Space>& a) {
    const AtomScan<T, Space, Half> scan(a);
    const auto perm = a.perm;
    const auto bin_of = a.bin_of;
    const auto counts = a.counts;
    const std::int64_t n = a.n;
    Kokkos::parallel_for(
        "Neighbor::build", Kokkos::RangePolicy<Space>(0, a.ntotal), KOKKOS_LAMBDA(const int t) {
          const int i = perm(t);
          if (i < n) counts(i) = scan(t, i, bin_of(i));
        });
    report_max_count(a);
    return kind;
  }
};

}  // namespace mdremap::neighbor

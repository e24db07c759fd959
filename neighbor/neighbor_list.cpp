#include "neighbor/neighbor_list.hpp"

#include <Kokkos_Sort.hpp>
#include <cmath>

#include "mdremap/error.hpp"

namespace mdremap::neighbor {

namespace {

// Cell offsets of the stencil, deduplicated when a dimension has fewer than 3 cells so that no
// cell (and no pair) is visited twice in small boxes.
struct Stencil {
  int count = 0;
  int off[27][3];
};

Stencil make_stencil(const int nbin[3]) {
  Stencil s;
  auto range = [](int nb, int* out) {
    if (nb >= 3) return out[0] = -1, out[1] = 0, out[2] = 1, 3;
    if (nb == 2) return out[0] = 0, out[1] = 1, 2;
    return out[0] = 0, 1;
  };
  int ox[3], oy[3], oz[3];
  const int cx = range(nbin[0], ox), cy = range(nbin[1], oy), cz = range(nbin[2], oz);
  for (int a = 0; a < cz; ++a)
    for (int b = 0; b < cy; ++b)
      for (int c = 0; c < cx; ++c) {
        s.off[s.count][0] = ox[c];
        s.off[s.count][1] = oy[b];
        s.off[s.count][2] = oz[a];
        ++s.count;
      }
  return s;
}

}  // namespace

template <class T>
void wrap_positions(Kokkos::View<Vec4<T>*> x, const Box<T>& box) {
  Kokkos::parallel_for(
      "Neighbor::wrap", Kokkos::RangePolicy<ExecSpace>(0, x.extent(0)), KOKKOS_LAMBDA(const int i) {
        Vec4<T> p = x(i);
        T* c[3] = {&p.x, &p.y, &p.z};
        for (int d = 0; d < 3; ++d) {
          T r = *c[d] - box.lo[d];
          r -= box.len[d] * Kokkos::floor(r * box.inv[d]);
          // Rounding can land exactly on len: fold it back to 0.
          if (r >= box.len[d] || r < T(0)) r = T(0);
          *c[d] = r + box.lo[d];
        }
        x(i) = p;
      });
}

template <class T>
double max_displacement_sq(Kokkos::View<const Vec4<T>*> x, Kokkos::View<const Vec4<T>*> xhold,
                           const Box<T>& box) {
  double m = 0;
  Kokkos::parallel_reduce(
      "Neighbor::displacement", Kokkos::RangePolicy<ExecSpace>(0, x.extent(0)),
      KOKKOS_LAMBDA(const int i, double& mx) {
        T dx = x(i).x - xhold(i).x, dy = x(i).y - xhold(i).y, dz = x(i).z - xhold(i).z;
        box.minimum_image(dx, dy, dz);
        const double r2 = double(dx) * dx + double(dy) * dy + double(dz) * dz;
        if (r2 > mx) mx = r2;
      },
      Kokkos::Max<double>(m));
  return m;
}

template <class T>
void VerletListBuilder<T>::bin(Kokkos::View<const Vec4<T>*> x, const Box<T>& box) {
  const std::int64_t n = x.extent(0);
  for (int d = 0; d < 3; ++d)
    bins_.nbin[d] = std::max(1, static_cast<int>(std::floor(double(box.len[d]) / rlist_)));
  const int nx = bins_.nbin[0], ny = bins_.nbin[1], nz = bins_.nbin[2];
  const int nc = bins_.ncells();
  if (bins_.bin_count.extent(0) != static_cast<size_t>(nc)) {
    bins_.bin_count = Kokkos::View<int*>("bin_count", nc);
    bins_.bin_offset = Kokkos::View<int*>("bin_offset", nc + 1);
  } else {
    Kokkos::deep_copy(bins_.bin_count, 0);
  }
  if (bins_.bin_of.extent(0) != static_cast<size_t>(n)) {
    bins_.bin_of = Kokkos::View<int*>("bin_of", n);
    bins_.permute = Kokkos::View<int*>("bin_permute", n);
  }
  auto bin_of = bins_.bin_of;
  auto count = bins_.bin_count;
  auto offset = bins_.bin_offset;
  auto perm = bins_.permute;
  Kokkos::parallel_for(
      "Neighbor::bin_count", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(const int i) {
        const Vec4<T> p = x(i);
        int cx = static_cast<int>((p.x - box.lo[0]) * box.inv[0] * nx);
        int cy = static_cast<int>((p.y - box.lo[1]) * box.inv[1] * ny);
        int cz = static_cast<int>((p.z - box.lo[2]) * box.inv[2] * nz);
        cx = cx < 0 ? 0 : (cx >= nx ? nx - 1 : cx);
        cy = cy < 0 ? 0 : (cy >= ny ? ny - 1 : cy);
        cz = cz < 0 ? 0 : (cz >= nz ? nz - 1 : cz);
        const int c = cx + nx * (cy + ny * cz);
        bin_of(i) = c;
        Kokkos::atomic_inc(&count(c));
      });
  Kokkos::parallel_scan(
      "Neighbor::bin_scan", Kokkos::RangePolicy<ExecSpace>(0, nc + 1),
      KOKKOS_LAMBDA(const int c, int& acc, const bool final) {
        if (final) offset(c) = acc;
        if (c < nc) acc += count(c);
      });
  Kokkos::View<int*> fill("bin_fill", nc);
  Kokkos::parallel_for(
      "Neighbor::bin_fill", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(const int i) {
        const int c = bin_of(i);
        perm(offset(c) + Kokkos::atomic_fetch_inc(&fill(c))) = i;
      });
  // Atomic fill order is scheduling dependent: sort each cell so lists (and force sums) are
  // deterministic, which restarts rely on for bit-identical continuation.
  Kokkos::parallel_for(
      "Neighbor::bin_sort", Kokkos::RangePolicy<ExecSpace>(0, nc), KOKKOS_LAMBDA(const int c) {
        const int b = offset(c), e = offset(c + 1);
        for (int k = b + 1; k < e; ++k) {
          const int v = perm(k);
          int m = k - 1;
          while (m >= b && perm(m) > v) {
            perm(m + 1) = perm(m);
            --m;
          }
          perm(m + 1) = v;
        }
      });
}

template <class T>
void VerletListBuilder<T>::build(Kokkos::View<const Vec4<T>*> x, const Box<T>& box,
                                 NeighborList& list) {
  const std::int64_t n = x.extent(0);
  if (n > (std::int64_t(1) << 31) - 1) throw Error("neighbor list: more than 2^31 atoms");
  for (int d = 0; d < 3; ++d)
    if (double(box.len[d]) < 2.0 * rlist_)
      throw Error("neighbor list: box shorter than twice the list cutoff (cutoff + skin)");
  bin(x, box);
  const Stencil st = make_stencil(bins_.nbin);
  const int nx = bins_.nbin[0], ny = bins_.nbin[1], nz = bins_.nbin[2];
  const T rsq_list = static_cast<T>(rlist_ * rlist_);
  const bool half = half_;
  list.n = n;
  list.half = half;
  if (list.counts.extent(0) != static_cast<size_t>(n)) list.counts = Kokkos::View<int*>("counts", n);
  if (list.maxneigh == 0) {
    const double rho = n / box.volume();
    const double expect = 4.18879020479 * rlist_ * rlist_ * rlist_ * rho * (half ? 0.5 : 1.0);
    list.maxneigh = static_cast<int>(expect * 1.25) + 8;
  }
  auto bin_of = bins_.bin_of;
  auto offset = bins_.bin_offset;
  auto perm = bins_.permute;
  auto counts = list.counts;
  for (;;) {
    const int maxneigh = list.maxneigh;
    if (list.neighbors.extent(0) != static_cast<size_t>(maxneigh) * n)
      list.neighbors = Kokkos::View<int*>(Kokkos::view_alloc("neighbors", Kokkos::WithoutInitializing),
                                          static_cast<size_t>(maxneigh) * n);
    auto nbrs = list.neighbors;
    int maxc = 0;
    Kokkos::parallel_reduce(
        "Neighbor::build", Kokkos::RangePolicy<ExecSpace>(0, n),
        KOKKOS_LAMBDA(const int i, int& mc) {
          const Vec4<T> xi = x(i);
          const int c = bin_of(i);
          const int cx = c % nx, cy = (c / nx) % ny, cz = c / (nx * ny);
          int cnt = 0;
          for (int s = 0; s < st.count; ++s) {
            const int bx = (cx + st.off[s][0] + nx) % nx;
            const int by = (cy + st.off[s][1] + ny) % ny;
            const int bz = (cz + st.off[s][2] + nz) % nz;
            const int cell = bx + nx * (by + ny * bz);
            for (int k = offset(cell); k < offset(cell + 1); ++k) {
              const int j = perm(k);
              if (half ? (j <= i) : (j == i)) continue;
              const Vec4<T> xj = x(j);
              T dx = xi.x - xj.x, dy = xi.y - xj.y, dz = xi.z - xj.z;
              box.minimum_image(dx, dy, dz);
              if (dx * dx + dy * dy + dz * dz <= rsq_list) {
                if (cnt < maxneigh) nbrs(static_cast<size_t>(cnt) * n + i) = j;
                ++cnt;
              }
            }
          }
          counts(i) = cnt;
          if (cnt > mc) mc = cnt;
        },
        Kokkos::Max<int>(maxc));
    list.max_count = maxc;
    if (maxc <= maxneigh) break;
    list.maxneigh = maxc + maxc / 8 + 4;  // grow and rebuild: never drop a pair
    ++regrows_;
  }
}

void NeighborList::build_csr() {
  row_ptr = Kokkos::View<std::int64_t*>("row_ptr", n + 1);
  auto rp = row_ptr;
  auto cnt = counts;
  const std::int64_t nn = n;
  Kokkos::parallel_scan(
      "Neighbor::csr_scan", Kokkos::RangePolicy<ExecSpace>(0, n + 1),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& acc, const bool final) {
        if (final) rp(i) = acc;
        if (i < nn) acc += cnt(i);
      });
  std::int64_t total = 0;
  Kokkos::deep_copy(total, Kokkos::subview(row_ptr, n));
  col = Kokkos::View<int*>("col", total);
  auto c = col;
  auto nb = neighbors;
  Kokkos::parallel_for(
      "Neighbor::csr_fill", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(const std::int64_t i) {
        for (int j = 0; j < cnt(i); ++j) c(rp(i) + j) = nb(static_cast<size_t>(j) * nn + i);
      });
}

double NeighborList::mean_count() const {
  std::int64_t total = 0;
  auto cnt = counts;
  Kokkos::parallel_reduce(
      "Neighbor::mean", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const int i, std::int64_t& s) { s += cnt(i); }, total);
  return n ? double(total) / double(n) : 0.0;
}

template <class T>
Kokkos::View<std::int64_t*> spatial_order(Kokkos::View<const Vec4<T>*> x, const Box<T>& box,
                                          const std::string& curve) {
  const std::int64_t n = x.extent(0);
  Kokkos::View<std::uint64_t*> keys("sort_keys", n);
  Kokkos::View<std::int64_t*> perm("sort_perm", n);
  const bool hilbert = curve == "hilbert";
  Kokkos::parallel_for(
      "Neighbor::curve_keys", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(const std::int64_t i) {
        const Vec4<T> p = x(i);
        std::uint32_t g[3];
        const T c[3] = {p.x, p.y, p.z};
        for (int d = 0; d < 3; ++d) {
          T r = (c[d] - box.lo[d]) * box.inv[d];
          r -= Kokkos::floor(r);
          int v = static_cast<int>(r * 1024);
          g[d] = static_cast<std::uint32_t>(v < 0 ? 0 : (v > 1023 ? 1023 : v));
        }
        const std::uint64_t k = hilbert ? hilbert3(g[0], g[1], g[2]) : morton3(g[0], g[1], g[2]);
        keys(i) = (k << 33) | static_cast<std::uint64_t>(i);  // unique keys: deterministic order
        perm(i) = i;
      });
  Kokkos::Experimental::sort_by_key(ExecSpace(), keys, perm);
  return perm;
}

template class VerletListBuilder<float>;
template class VerletListBuilder<double>;
template void wrap_positions<float>(Kokkos::View<Vec4<float>*>, const Box<float>&);
template void wrap_positions<double>(Kokkos::View<Vec4<double>*>, const Box<double>&);
template double max_displacement_sq<float>(Kokkos::View<const Vec4<float>*>,
                                           Kokkos::View<const Vec4<float>*>, const Box<float>&);
template double max_displacement_sq<double>(Kokkos::View<const Vec4<double>*>,
                                            Kokkos::View<const Vec4<double>*>, const Box<double>&);
template Kokkos::View<std::int64_t*> spatial_order<float>(Kokkos::View<const Vec4<float>*>,
                                                          const Box<float>&, const std::string&);
template Kokkos::View<std::int64_t*> spatial_order<double>(Kokkos::View<const Vec4<double>*>,
                                                           const Box<double>&, const std::string&);

}  // namespace mdremap::neighbor

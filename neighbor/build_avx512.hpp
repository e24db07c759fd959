#pragma once
// The host AVX-512 list build (compiled where MDREMAP_HOST_AVX512 is defined: an AVX-512 CPU,
// not nvcc, not MDREMAP_NO_AVX512). A thread per atom in cell order; each atom's candidates are
// tested 8 (double) or 16 (float) at a time from the x, y, z blocks of the binning.
#include <algorithm>
#include <type_traits>

#include "neighbor/avx512.hpp"
#include "mdremap/error.hpp"
#include "neighbor/list_build.hpp"

#ifdef MDREMAP_HOST_AVX512
namespace mdremap::neighbor {

// One atom's list on the host with lanes on candidates: 8 (double) or 16 (float) cell-ordered
// positions per step are tested at once, and the hits' indices packed (AVX-512 compress) and
// stored in one masked store. The candidates are the stencil rows' runs in stencil order, as the
// scalar scan takes them, so the list is the same entry for entry. Branch-free: a step without a
// hit stores nothing (a zero-length masked store); skipping such steps mispredicts often (the
// measured costs of both forms and of the scalar scan: docs/benchmarks.md, "Figures formerly in
// code comments").
template <class T, bool ColumnMajor>
int scan_rows_avx512(const T* __restrict soa, const std::int64_t bs, const int* __restrict pm,
                     const int* offset, const int* owner, const std::int64_t n, const int t,
                     const int i, const int c, const StencilRows<49>& rows, const int nx,
                     const int ny, const int nz, const T rsq_list, const bool half, int* out,
                     const std::int64_t sj, const int maxneigh) {
  using L = std::conditional_t<std::is_same_v<T, double>, avx512::F64, avx512::F32>;
  using V = typename L::V;
  using M = typename L::M;
  using I = typename L::I;
  const T *sx = soa, *sy = soa + bs, *sz = soa + 2 * bs;
  const V xx = L::set1(sx[t]), xy = L::set1(sy[t]), xz = L::set1(sz[t]);
  const V rl = L::set1(rsq_list);
  const int cx = c % nx, cy = (c / nx) % ny, cz = c / (nx * ny);
  const int hb = offset[c], he = offset[c + 1];
  int cnt = 0;
  for (int r = 0; r < rows.count; ++r) {
    const int by = cy + rows.b[r], bz = cz + rows.c[r];
    if (by < 0 || by >= ny || bz < 0 || bz >= nz) continue;
    const int ax0 = std::max(cx + rows.a0[r], 0), ax1 = std::min(cx + rows.a1[r], nx - 1);
    if (ax0 > ax1) continue;
    const int base = nx * (by + ny * bz);
    const int end = offset[base + ax1 + 1];
    for (int k = offset[base + ax0]; k < end; k += L::W) {
      const M m = L::tail(end - k);
      const V dx = L::sub(xx, L::load(m, sx + k));
      const V dy = L::sub(xy, L::load(m, sy + k));
      const V dz = L::sub(xz, L::load(m, sz + k));
      M hit = L::le(m, L::fmadd(dz, dz, L::fmadd(dy, dy, L::mul(dx, dx))), rl);
      if (k < he && k + L::W > hb) {
        // Home-cell lanes: not the atom itself; a half list keeps (i, j) when i < owner(j).
        for (unsigned bits = hit; bits != 0; bits &= bits - 1) {
          const int l = __builtin_ctz(bits), kk = k + l;
          if (kk < hb || kk >= he) continue;
          const int j = pm[kk];
          if (kk == t || (half && (j < n ? j : owner[j - n]) <= i))
            hit &= static_cast<M>(~(1u << l));
        }
      }
      const int pc = __builtin_popcount(static_cast<unsigned>(hit));
      const I packed = L::compress(hit, L::load_idx(m, pm + k));
      if (!ColumnMajor && cnt + pc <= maxneigh) {
        L::store_first(out + cnt, pc, packed);
      } else {  // column-major, or the row is full: entry by entry, never past maxneigh
        alignas(64) int tmp[L::W];
        L::store_first(tmp, pc, packed);
        for (int q = 0; q < pc; ++q)
          if (cnt + q < maxneigh) out[(cnt + q) * sj] = tmp[q];
      }
      cnt += pc;
    }
  }
  return cnt;
}

template <class T, class Space, bool Half, bool ColumnMajor>
struct Avx512Build {
  static constexpr BuildKernel kind = BuildKernel::HostAvx512;
  static constexpr bool runs_on = is_host_space_v<Space>;
  static constexpr bool soa_positions = true;
  static BuildKernel run(const ListBuildArgs<T, Space>& a) {
    StencilRows<49> hr;
    if (!hr.build(a.stencil))  // bin_size >= (cutoff + skin) / 3 (params.cpp) bounds the stencil
      throw Error("neighbor list: stencil of more than 7 x 7 rows");
    const T* soa = a.xsoa.data();
    const std::int64_t bs = a.xsoa.extent(0) / 3;
    const int* pm = a.perm.data();
    const int* off = a.offset.data();
    const int* own = a.owner.data();
    const int* bo = a.bin_of.data();
    int* cts = a.counts.data();
    int* nbd = a.nbrs.data();
    const std::int64_t n = a.n, sj = a.sj, si = a.si;
    const int nx = a.nbin[0], ny = a.nbin[1], nz = a.nbin[2], maxneigh = a.maxneigh;
    const T rsq_list = a.rsq;
    Kokkos::parallel_for(
        "Neighbor::build_avx512", Kokkos::RangePolicy<Space>(0, a.ntotal), [=, &hr](const int t) {
          const int i = pm[t];
          if (i < n)
            cts[i] =
                scan_rows_avx512<T, ColumnMajor>(soa, bs, pm, off, own, n, t, i, bo[i], hr, nx, ny,
                                                 nz, rsq_list, Half, nbd + i * si, sj, maxneigh);
        });
    report_max_count(a);
    return kind;
  }
};

}  // namespace mdremap::neighbor
#endif

#include "neighbor/neighbor_list.hpp"

#include <Kokkos_Sort.hpp>
#include <cmath>
#include <type_traits>

#include "mdremap/avx512.hpp"
#include "mdremap/error.hpp"

namespace mdremap::neighbor {

namespace {
struct Stencil {
  int count = 0;
  int off[343][3];  // up to +-3 cells per axis
};

// The stencil as rows: cells (cx + a, cy + b, cz + c), a in [a0, a1], are consecutive in the
// binning, so each row is one contiguous run of cell-ordered positions. kMax rows at most: 32 for
// the GPU candidate-lane kernel (a row per lane), 49 (7 x 7, +-3 cells) on the host.
template <int kMax>
struct StencilRows {
  int count = 0;
  int b[kMax], c[kMax], a0[kMax], a1[kMax];
  // Merges the stencil's offsets (a fastest) into rows; false when they need more than kMax.
  bool build(const Stencil& st) {
    count = 0;
    for (int s = 0; s < st.count; ++s) {
      const int a = st.off[s][0], bb = st.off[s][1], cc = st.off[s][2];
      const int q = count - 1;
      if (q >= 0 && b[q] == bb && c[q] == cc && a1[q] == a - 1) {
        a1[q] = a;
        continue;
      }
      if (count == kMax) return false;
      b[count] = bb, c[count] = cc, a0[count] = a1[count] = a;
      ++count;
    }
    return true;
  }
  // Row r's run [begin, end) of cell-ordered positions around cell (cx, cy, cz).
  template <class Offsets>
  KOKKOS_INLINE_FUNCTION void run(const Offsets& offset, const int nx, const int ny, const int cx,
                                  const int cy, const int cz, const int r, int& begin,
                                  int& end) const {
    const int row = cx + nx * (cy + b[r] + ny * (cz + c[r]));
    begin = offset(row + a0[r]);
    end = offset(row + a1[r] + 1);
  }
};

#if defined(KOKKOS_ENABLE_CUDA)
// GPU list build with lanes on candidates. A warp owns one interior cell; its candidates (the
// stencil rows' runs, concatenated in stencil order) are loaded kWin*32 at a time into registers,
// one per lane per chunk of 32. For each of the cell's atoms (position and index broadcast from
// shared memory) each chunk is tested in ten instructions: distance, the home-cell test, one
// ballot, and the ballot word stored to shared memory. The rows are then decoded with lanes on
// atoms: entry e of every atom in step e, so the column-major stores of the cell's consecutive
// atoms coalesce. The list equals the CellAtoms kernel's entry for entry (same candidate order).
// Measured before it (4M atoms, H200, Nsight): lanes on atoms kept 14.6 of 32 lanes busy and
// stored every entry as its own 32-byte sector; compacting each ballot into shared-memory rows
// (popc ranks, a divergent store) took 32 instructions per atom and chunk, 4.3 ms a build.
template <class T, int kWin, bool Half>
struct CandidateLaneBuild {
  using ReadOnly = Kokkos::MemoryTraits<Kokkos::RandomAccess>;
  using Team = Kokkos::TeamPolicy<ExecSpace>::member_type;
  Kokkos::View<const int*, ReadOnly> offset, perm;
  Kokkos::View<const Vec4<T>*, ReadOnly> xs;
  Kokkos::View<int*> counts, nbrs;
  StencilRows<32> rows;
  int nx, ny, ex, ey, ez, mx, my;
  int maxneigh, nchunks;  // nchunks: 32-candidate chunks of the largest stencil
  std::int64_t sj, si;
  T rsq;

  // The pass's atoms (positions, indices), ballot words (32 atoms x nchunks, odd row stride),
  // candidate indices, run table.
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(int nchunks) {
    return 32 + 32 * sizeof(Vec4<T>) +
           sizeof(int) * (32 + 32 * std::size_t(nchunks | 1) + 32 * std::size_t(nchunks) + 66);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Team& team) const {
#ifdef __CUDA_ARCH__
    constexpr unsigned full = 0xffffffffu;
    const int lane = team.team_rank();
    const int ms = nchunks | 1;
    Vec4<T>* const apos =
        static_cast<Vec4<T>*>(team.team_shmem().get_shmem_aligned(scratch_bytes(nchunks), 32));
    unsigned* const aidx = reinterpret_cast<unsigned*>(apos + 32);
    unsigned* const masks = aidx + 32;
    int* const jsh = reinterpret_cast<int*>(masks + 32 * ms);
    int* const rstart = jsh + 32 * nchunks;
    int* const rpre = rstart + 33;
    const int lr = team.league_rank();
    const int cx = lr % mx + ex, cy = (lr / mx) % my + ey, cz = lr / (mx * my) + ez;
    const int c = cx + nx * (cy + ny * cz);
    const int t0 = offset(c), nc = offset(c + 1) - t0;
    if (nc == 0) return;  // uniform over the warp
    // Runs of the stencil rows and their exclusive prefix sums (a warp scan).
    int len = 0, start = 0;
    if (lane < rows.count) {
      int end;
      rows.run(offset, nx, ny, cx, cy, cz, lane, start, end);
      len = end - start;
    }
    int incl = len;
    for (int d = 1; d < 32; d <<= 1) {
      const int v = __shfl_up_sync(full, incl, d);
      if (lane >= d) incl += v;
    }
    rstart[lane] = start;
    rpre[lane] = incl - len;
    const int total = __shfl_sync(full, incl, 31);  // <= 32 * nchunks (the host's maximum)
    const int nch_total = (total + 31) / 32;
    __syncwarp();
    const int nrows = rows.count;
    for (int p0 = 0; p0 < nc; p0 += 32) {
      const int na = nc - p0 < 32 ? nc - p0 : 32;
      unsigned ai = 0;
      if (lane < na) {
        apos[lane] = xs(t0 + p0 + lane);
        ai = static_cast<unsigned>(perm(t0 + p0 + lane));
        aidx[lane] = ai;
      }
      __syncwarp();
      int r = 0;  // this lane's run, advanced monotonically with its candidate index
      // Windows of at most kWin chunks, balanced (17 chunks and kWin 8: 6, 6, 5).
      const int nwin = (nch_total + kWin - 1) / kWin;
      const int wch = (nch_total + nwin - 1) / nwin;
      for (int c0 = 0; c0 < nch_total; c0 += wch) {
        const int nch = nch_total - c0 < wch ? nch_total - c0 : wch;
        T px[kWin], py[kWin], pz[kWin];
        unsigned key[kWin];  // j inside the home cell, else the top bit: passes both tests
#pragma unroll
        for (int ch = 0; ch < kWin; ++ch) {
          const int q = 32 * (c0 + ch) + lane;
          px[ch] = py[ch] = pz[ch] = T(INFINITY);  // never within the cutoff
          key[ch] = 0x80000000u;
          if (ch < nch && q < total) {
            while (r + 1 < nrows && rpre[r + 1] <= q) ++r;
            const int k = rstart[r] + q - rpre[r];
            const Vec4<T> p = xs(k);
            px[ch] = p.x, py[ch] = p.y, pz[ch] = p.z;
            const int j = perm(k);
            if (p0 == 0) jsh[q] = j;
            key[ch] = (k >= t0 && k < t0 + nc) ? static_cast<unsigned>(j) : 0x80000000u;
          }
        }
        unsigned* const mw = masks + c0;
        for (int a = 0; a < na; ++a) {
          const Vec4<T> xi = apos[a];  // broadcast reads
          const unsigned ii = aidx[a];
          unsigned* const ma = mw + a * ms;
#pragma unroll
          for (int ch = 0; ch < kWin; ++ch) {
            if (ch < nch) {
              const T dx = xi.x - px[ch], dy = xi.y - py[ch], dz = xi.z - pz[ch];
              // Home cell: a full list drops only the atom itself; a half list keeps j > i.
              const bool ok =
                  dx * dx + dy * dy + dz * dz <= rsq && (Half ? key[ch] > ii : key[ch] != ii);
              ma[ch] = __ballot_sync(full, ok);  // the same word from every lane
            }
          }
        }
      }
      __syncwarp();
      // Decode: lane = atom; entry e of every atom is stored in step e (coalesced rows).
      int cnt = 0;
      const unsigned* mine = masks + lane * ms;
      if (lane < na)
        for (int ch = 0; ch < nch_total; ++ch) cnt += __popc(mine[ch]);
      const int nout = lane < na ? (cnt < maxneigh ? cnt : maxneigh) : 0;
      const int rowsout = __reduce_max_sync(full, nout);
      if (lane < na) counts(ai) = cnt;
      int* out = nbrs.data() + std::int64_t(ai) * si;
      const int* jc = jsh;  // this lane's current chunk of candidate indices
      unsigned m = lane < na ? *mine : 0u;
      for (int e = 0; e < rowsout; ++e, out += sj) {
        if (e < nout) {
          while (m == 0u) {
            m = *++mine;
            jc += 32;
          }
          *out = jc[__ffs(m) - 1];
          m &= m - 1u;
        }
      }
      __syncwarp();
    }
#else
    (void)team;
#endif
  }
};
#endif
#ifdef MDREMAP_HOST_AVX512
// One atom's list on the host with lanes on candidates: 8 (double) or 16 (float) cell-ordered
// positions per step are tested at once, and the hits' indices packed (AVX-512 compress) and
// stored in one masked store. The candidates are the stencil rows' runs in stencil order, as the
// scalar scan takes them, so the list is the same entry for entry. Branch-free: a step without a
// hit stores nothing (a zero-length masked store); skipping such steps mispredicted often enough
// to cost 33-44 against 21-25 ms per build (interleaved runs). Bench deck (32,000 atoms, full
// list, one thread): 83-99 ms per build with the scalar scan, 21-25 ms with this one.
template <class T>
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
      if (sj == 1 && cnt + pc <= maxneigh) {
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
#endif
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
void build_ghosts(Kokkos::View<const Vec4<T>*> x, std::int64_t nlocal, const Box<T>& box,
                  double rlist, GhostAtoms& g) {
  g.nlocal = nlocal;
  if (g.count.extent(0) != static_cast<size_t>(nlocal)) {
    g.count = Kokkos::View<int*>("ghost_count", nlocal);
    g.offset = Kokkos::View<int*>("ghost_offset", nlocal + 1);
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
      "Ghost::count", Kokkos::RangePolicy<ExecSpace>(0, nlocal), KOKKOS_LAMBDA(const int i) {
        int s[3][3];
        const Vec4<T> p = x(i);
        count(i) = shifts(p, 0, s[0]) * shifts(p, 1, s[1]) * shifts(p, 2, s[2]) - 1;
      });
  Kokkos::parallel_scan(
      "Ghost::scan", Kokkos::RangePolicy<ExecSpace>(0, nlocal + 1),
      KOKKOS_LAMBDA(const int i, int& acc, const bool final) {
        if (final) offset(i) = acc;
        if (i < nlocal) acc += count(i);
      });
  int total = 0;
  Kokkos::deep_copy(total, Kokkos::subview(offset, nlocal));
  g.nghost = total;
  if (g.owner.extent(0) < static_cast<size_t>(total)) {
    const size_t cap = total + total / 8 + 16;
    g.owner =
        Kokkos::View<int*>(Kokkos::view_alloc("ghost_owner", Kokkos::WithoutInitializing), cap);
    g.shift =
        Kokkos::View<int*>(Kokkos::view_alloc("ghost_shift", Kokkos::WithoutInitializing), cap);
  }
  auto owner = g.owner;
  auto shift = g.shift;
  Kokkos::parallel_for(
      "Ghost::fill", Kokkos::RangePolicy<ExecSpace>(0, nlocal), KOKKOS_LAMBDA(const int i) {
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

template <class S, class C>
void update_positions(Kokkos::View<const Vec4<S>*> x, const GhostAtoms& g, const Box<C>& box,
                      Kokkos::View<Vec4<C>*> xall, std::int64_t first) {
  const std::int64_t nlocal = g.nlocal;
  auto owner = g.owner;
  auto shift = g.shift;
  Kokkos::parallel_for(
      "Ghost::update", Kokkos::RangePolicy<ExecSpace>(first, nlocal + g.nghost),
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

// Cells tile the periodic box exactly (m cells of len/m per axis, m = floor(len / bin_size)) and
// extend `reach` whole cells beyond each face for the ghosts. A ghost is binned from its owner's
// cell shifted by m cells per box image (integer arithmetic, not its rounded coordinate), so the
// cell offset between atom a and an image of b is exactly minus the offset between b and the
// matching image of a: the half stencil then finds every physical pair from exactly one side.
template <class T>
void VerletListBuilder<T>::bin(Kokkos::View<const Vec4<T>*> x, const GhostAtoms& g,
                               const Box<T>& box) {
  const std::int64_t n = x.extent(0);
  const std::int64_t nlocal = g.nlocal;
  const auto grid = PeriodicCells<T>::make(box, bin_size_);
  int* const ext = bins_.ext;
  for (int d = 0; d < 3; ++d) {
    bins_.size[d] = double(box.len[d]) / grid.m[d];
    ext[d] = static_cast<int>(std::ceil(rlist_ / bins_.size[d] - 1e-12));
    bins_.nbin[d] = grid.m[d] + 2 * ext[d];
  }
  const int nx = bins_.nbin[0], ny = bins_.nbin[1], nz = bins_.nbin[2];
  const int mx = grid.m[0], my = grid.m[1], mz = grid.m[2], ex = ext[0], ey = ext[1], ez = ext[2];
  const int nc = bins_.ncells();
  if (bins_.bin_count.extent(0) != static_cast<size_t>(nc)) {
    bins_.bin_count = Kokkos::View<int*>("bin_count", nc);
    bins_.bin_offset = Kokkos::View<int*>("bin_offset", nc + 1);
  } else {
    Kokkos::deep_copy(bins_.bin_count, 0);
  }
  if (bins_.bin_of.extent(0) < static_cast<size_t>(n)) {
    bins_.bin_of = Kokkos::View<int*>("bin_of", n + n / 8);
    bins_.permute = Kokkos::View<int*>("bin_permute", n + n / 8);
  }
  auto bin_of = bins_.bin_of;
  auto count = bins_.bin_count;
  auto offset = bins_.bin_offset;
  auto perm = bins_.permute;
  auto owner = g.owner;
  auto shift = g.shift;
  Kokkos::parallel_for(
      "Neighbor::bin_count", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(const int i) {
        const int o = i < nlocal ? i : owner(i - nlocal);
        const Vec4<T> p = x(o);
        int cx = grid.coord(p.x, 0) + ex;
        int cy = grid.coord(p.y, 1) + ey;
        int cz = grid.coord(p.z, 2) + ez;
        if (i >= nlocal) {
          const int s = shift(i - nlocal);
          cx += (s % 3 - 1) * mx;
          cy += (s / 3 % 3 - 1) * my;
          cz += (s / 9 - 1) * mz;
        }
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
  if (fill_.extent(0) != static_cast<size_t>(nc))
    fill_ = Kokkos::View<int*>("bin_fill", nc);
  else
    Kokkos::deep_copy(fill_, 0);
  auto fill = fill_;
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
          int q = k - 1;
          while (q >= b && perm(q) > v) {
            perm(q + 1) = perm(q);
            --q;
          }
          perm(q + 1) = v;
        }
      });
#ifdef MDREMAP_HOST_AVX512
  // Positions in cell order as x, y, z blocks: the host's AVX-512 build (the only reader on
  // this path) loads 8 or 16 coordinates at once instead of gathering them from Vec4 records
  // (38.9 -> 35.4 ms per bench build, one thread).
  if (xsoa_.extent(0) < static_cast<size_t>(3 * n))
    xsoa_ = Kokkos::View<T*>(Kokkos::view_alloc("bin_xsoa", Kokkos::WithoutInitializing),
                             3 * (n + n / 8));
  const std::int64_t bs = xsoa_.extent(0) / 3;
  T* const soa = xsoa_.data();
  Kokkos::parallel_for("Neighbor::bin_gather", Kokkos::RangePolicy<ExecSpace>(0, n),
                       [=](const int k) {
                         const Vec4<T> p = x(perm(k));
                         soa[k] = p.x;
                         soa[bs + k] = p.y;
                         soa[2 * bs + k] = p.z;
                       });
#else
  // Positions in cell order: a cell's candidates are one contiguous run of xs.
  if (xs_.extent(0) < static_cast<size_t>(n))
    xs_ =
        Kokkos::View<Vec4<T>*>(Kokkos::view_alloc("bin_x", Kokkos::WithoutInitializing), n + n / 8);
  auto xs = xs_;
  Kokkos::parallel_for(
      "Neighbor::bin_gather", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const int k) { xs(k) = x(perm(k)); });
#endif
}

template <class T>
void VerletListBuilder<T>::build(Kokkos::View<const Vec4<T>*> xall, const GhostAtoms& g,
                                 const Box<T>& box, NeighborList& list) {
  const std::int64_t n = g.nlocal;
  const std::int64_t ntotal = n + g.nghost;
  if (ntotal > (std::int64_t(1) << 31) - 1)
    throw Error("neighbor list: more than 2^31 atoms and ghosts");
  for (int d = 0; d < 3; ++d)
    if (double(box.len[d]) < 2.0 * rlist_)
      throw Error("neighbor list: box shorter than twice the list cutoff (cutoff + skin)");
  auto xa = Kokkos::subview(xall, std::make_pair(std::int64_t(0), ntotal));
  bin(xa, g, box);
  const int nx = bins_.nbin[0], ny = bins_.nbin[1], nz = bins_.nbin[2];
  [[maybe_unused]] const int* const ext = bins_.ext;
  // Stencil: cells whose nearest point to the home cell is inside the list cutoff; for a half
  // list only the home cell and the "upper" half (z, then y, then x offset positive), as LAMMPS's
  // half/bin/newton stencil: each pair of distinct cells is then visited from one side only.
  Stencil st;
  int reach = 1;
  for (int d = 0; d < 3; ++d)
    reach = std::max(reach, static_cast<int>(std::ceil(rlist_ / bins_.size[d] - 1e-12)));
  for (int c = -reach; c <= reach; ++c)
    for (int b = -reach; b <= reach; ++b)
      for (int a = -reach; a <= reach; ++a) {
        const double dx = std::max(std::abs(a) - 1, 0) * bins_.size[0];
        const double dy = std::max(std::abs(b) - 1, 0) * bins_.size[1];
        const double dz = std::max(std::abs(c) - 1, 0) * bins_.size[2];
        if (dx * dx + dy * dy + dz * dz >= rlist_ * rlist_) continue;
        if (half_ && (c < 0 || (c == 0 && (b < 0 || (b == 0 && a < 0))))) continue;
        st.off[st.count][0] = a;
        st.off[st.count][1] = b;
        st.off[st.count][2] = c;
        ++st.count;
      }
#if defined(KOKKOS_ENABLE_CUDA)
  // More rows than lanes: the CellAtoms kernel serves it.
  StencilRows<32> rows;
  const bool rows_fit = rows.build(st);
#endif
  const T rsq_list = static_cast<T>(rlist_ * rlist_);
  const bool half = half_;
  list.n = n;
  list.half = half;
  list.column_major = column_major_;
  if (list.counts.extent(0) != static_cast<size_t>(n))
    list.counts = Kokkos::View<int*>("counts", n);
  if (list.maxneigh == 0) {
    const double rho = n / box.volume();
    const double expect = 4.18879020479 * rlist_ * rlist_ * rlist_ * rho * (half ? 0.5 : 1.0);
    list.maxneigh = static_cast<int>(expect * 1.25) + 8;
  }
  // Read-only through the non-coherent cache (LDG.NC on CUDA).
  using ReadOnly = Kokkos::MemoryTraits<Kokkos::RandomAccess>;
  auto bin_of = bins_.bin_of;
  Kokkos::View<const int*, ReadOnly> offset = bins_.bin_offset;
  Kokkos::View<const int*, ReadOnly> perm = bins_.permute;
  Kokkos::View<const Vec4<T>*, ReadOnly> xs = xs_;
  auto counts = list.counts;
  auto owner = g.owner;
  for (;;) {
    const int maxneigh = list.maxneigh;
    if (list.neighbors.extent(0) != static_cast<size_t>(maxneigh) * n)
      list.neighbors =
          Kokkos::View<int*>(Kokkos::view_alloc("neighbors", Kokkos::WithoutInitializing),
                             static_cast<size_t>(maxneigh) * n);
    auto nbrs = list.neighbors;
    const std::int64_t sj = column_major_ ? n : 1, si = column_major_ ? 1 : maxneigh;
    list.stride_j = sj;
    list.stride_i = si;
    // One atom's list: the stencil cells' candidate runs of xs in order, so the list (and the
    // force sums) do not depend on which thread builds it.
    auto scan = KOKKOS_LAMBDA(const int t, const int i, const int c)->int {
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
              if (half && (j < n ? j : owner(j - n)) <= i) continue;
            }
            if (cnt < maxneigh) out[pos] = j;
            ++cnt;
            pos += sj;
          }
        }
      }
      return cnt;
    };
    if constexpr (std::is_same_v<ExecSpace, Kokkos::DefaultHostExecutionSpace>) {
      // CPU: a thread per atom, atoms in cell order (consecutive atoms share candidate runs).
#ifdef MDREMAP_HOST_AVX512
      StencilRows<49> hr;
      if (!hr.build(st))  // bin_size >= (cutoff + skin) / 3 (params.cpp) bounds the stencil
        throw Error("neighbor list: stencil of more than 7 x 7 rows");
      const T* soa = xsoa_.data();
      const std::int64_t bs = xsoa_.extent(0) / 3;
      const int* pm = perm.data();
      const int* off = offset.data();
      const int* own = owner.data();
      const int* bo = bin_of.data();
      int* cts = counts.data();
      int* nbd = nbrs.data();
      Kokkos::parallel_for("Neighbor::build_avx512", Kokkos::RangePolicy<ExecSpace>(0, ntotal),
                           [=, &hr](const int t) {
                             const int i = pm[t];
                             if (i < n)
                               cts[i] = scan_rows_avx512<T>(soa, bs, pm, off, own, n, t, i, bo[i],
                                                            hr, nx, ny, nz, rsq_list, half,
                                                            nbd + i * si, sj, maxneigh);
                           });
#else
      Kokkos::parallel_for(
          "Neighbor::build", Kokkos::RangePolicy<ExecSpace>(0, ntotal), KOKKOS_LAMBDA(const int t) {
            const int i = perm(t);
            if (i < n) counts(i) = scan(t, i, bin_of(i));
          });
#endif
    } else {
      last_kernel_ = GpuBuildKernel::CellAtoms;
#if defined(KOKKOS_ENABLE_CUDA)
      if (gpu_kernel_ == GpuBuildKernel::CellCandidates && rows_fit) {
        using Policy = Kokkos::TeamPolicy<ExecSpace>;
        const int mx = nx - 2 * ext[0], my = ny - 2 * ext[1], mz = nz - 2 * ext[2];
        const int ex = ext[0], ey = ext[1], ez = ext[2];
        // The most candidates of any cell sizes the shared memory of every warp.
        int most = 0;
        Kokkos::parallel_reduce(
            "Neighbor::most_candidates", Kokkos::RangePolicy<ExecSpace>(0, mx * my * mz),
            KOKKOS_LAMBDA(const int u, int& mc) {
              const int cx = u % mx + ex, cy = (u / mx) % my + ey, cz = u / (mx * my) + ez;
              int total = 0;
              for (int r = 0; r < rows.count; ++r) {
                int begin, end;
                rows.run(offset, nx, ny, cx, cy, cz, r, begin, end);
                total += end - begin;
              }
              if (total > mc) mc = total;
            },
            Kokkos::Max<int>(most));
        const int nchunks = std::max(1, (most + 31) / 32);
        const std::size_t bytes = CandidateLaneBuild<T, 8, false>::scratch_bytes(nchunks);
        if (bytes <= static_cast<std::size_t>(Policy::scratch_size_max(0))) {
          last_kernel_ = GpuBuildKernel::CellCandidates;
          auto run = [&](auto functor) {
            functor.offset = offset;
            functor.perm = perm;
            functor.xs = xs;
            functor.counts = counts;
            functor.nbrs = nbrs;
            functor.rows = rows;
            functor.nx = nx, functor.ny = ny;
            functor.ex = ex, functor.ey = ey, functor.ez = ez;
            functor.mx = mx, functor.my = my;
            functor.maxneigh = maxneigh;
            functor.nchunks = nchunks;
            functor.sj = sj;
            functor.si = si;
            functor.rsq = rsq_list;
            Kokkos::parallel_for(
                "Neighbor::build_candidates",
                Policy(mx * my * mz, 32).set_scratch_size(0, Kokkos::PerTeam(bytes)), functor);
          };
          // Candidate registers per lane: 4 (float) or 7 (double) per chunk; windows of 8
          // chunks in float (256 candidates, 59 registers), 4 in double (rebuild 4.5 -> 3.5 ms
          // against 8 at 4M atoms, H200: occupancy over window count). The bench's cells have
          // about 530 candidates.
          constexpr int kWin = std::is_same_v<T, float> ? 8 : 4;
          if (half)
            run(CandidateLaneBuild<T, kWin, true>{});
          else
            run(CandidateLaneBuild<T, kWin, false>{});
        }
      }
#endif
      if (last_kernel_ == GpuBuildKernel::CellAtoms) {
        // A warp per cell (w lanes, w >= the fullest cell): its lanes walk the same candidate
        // runs in lockstep, so each position load is one broadcast. A thread per atom in cell
        // order measured 15.3 ms per build at 4M atoms (H200), the lanes of two cells
        // diverging; Nsight showed 18.5 active lanes per warp.
        int maxbin = 0;
        auto bin_count = bins_.bin_count;
        Kokkos::parallel_reduce(
            "Neighbor::bin_max", Kokkos::RangePolicy<ExecSpace>(0, bins_.ncells()),
            KOKKOS_LAMBDA(const int c, int& mb) {
              if (bin_count(c) > mb) mb = bin_count(c);
            },
            Kokkos::Max<int>(maxbin));
        const std::int64_t w = 32 * ((maxbin + 31) / 32);
        const std::int64_t slots = static_cast<std::int64_t>(bins_.ncells()) * w;
        Kokkos::parallel_for(
            "Neighbor::build_cells", Kokkos::RangePolicy<ExecSpace>(0, slots),
            KOKKOS_LAMBDA(const std::int64_t u) {
              const int c = static_cast<int>(u / w), a = static_cast<int>(u % w);
              const int t = offset(c) + a;
              if (t >= offset(c + 1)) return;
              const int i = perm(t);
              if (i < n) counts(i) = scan(t, i, c);
            });
      }
    }
    int maxc = 0;
    Kokkos::parallel_reduce(
        "Neighbor::max_count", Kokkos::RangePolicy<ExecSpace>(0, n),
        KOKKOS_LAMBDA(const int i, int& mc) {
          if (counts(i) > mc) mc = counts(i);
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
  const std::int64_t sj = stride_j, si = stride_i;
  Kokkos::parallel_for(
      "Neighbor::csr_fill", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const std::int64_t i) {
        for (int j = 0; j < cnt(i); ++j) c(rp(i) + j) = nb(j * sj + i * si);
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
                                          const std::string& curve, double cell_size) {
  const std::int64_t n = x.extent(0);
  Kokkos::View<std::uint64_t*> keys("sort_keys", n);
  Kokkos::View<std::int64_t*> perm("sort_perm", n);
  if (curve == "cells") {
    if (!(cell_size > 0)) throw Error("spatial_order: cells need a cell size");
    const auto grid = PeriodicCells<T>::make(box, cell_size);
    Kokkos::parallel_for(
        "Neighbor::cell_keys", Kokkos::RangePolicy<ExecSpace>(0, n),
        KOKKOS_LAMBDA(const std::int64_t i) {
          const Vec4<T> p = x(i);
          const T c[3] = {p.x, p.y, p.z};
          std::uint64_t cell = 0;
          for (int d = 2; d >= 0; --d) {
            T r = c[d] - box.lo[d];  // wrapped first: a sort may come before the wrap
            r -= box.len[d] * Kokkos::floor(r * box.inv[d]);
            cell = cell * grid.m[d] + grid.coord(r + box.lo[d], d);
          }
          keys(i) = (cell << 33) | static_cast<std::uint64_t>(i);
          perm(i) = i;
        });
    Kokkos::Experimental::sort_by_key(ExecSpace(), keys, perm);
    return perm;
  }
  const bool hilbert = curve == "hilbert";
  Kokkos::parallel_for(
      "Neighbor::curve_keys", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const std::int64_t i) {
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

template void build_ghosts<float>(Kokkos::View<const Vec4<float>*>, std::int64_t, const Box<float>&,
                                  double, GhostAtoms&);
template void build_ghosts<double>(Kokkos::View<const Vec4<double>*>, std::int64_t,
                                   const Box<double>&, double, GhostAtoms&);
template void update_positions<double, double>(Kokkos::View<const Vec4<double>*>, const GhostAtoms&,
                                               const Box<double>&, Kokkos::View<Vec4<double>*>,
                                               std::int64_t);
template void update_positions<double, float>(Kokkos::View<const Vec4<double>*>, const GhostAtoms&,
                                              const Box<float>&, Kokkos::View<Vec4<float>*>,
                                              std::int64_t);
template void update_positions<float, float>(Kokkos::View<const Vec4<float>*>, const GhostAtoms&,
                                             const Box<float>&, Kokkos::View<Vec4<float>*>,
                                             std::int64_t);
template class VerletListBuilder<float>;
template class VerletListBuilder<double>;
template void wrap_positions<float>(Kokkos::View<Vec4<float>*>, const Box<float>&);
template void wrap_positions<double>(Kokkos::View<Vec4<double>*>, const Box<double>&);
template double max_displacement_sq<float>(Kokkos::View<const Vec4<float>*>,
                                           Kokkos::View<const Vec4<float>*>, const Box<float>&);
template double max_displacement_sq<double>(Kokkos::View<const Vec4<double>*>,
                                            Kokkos::View<const Vec4<double>*>, const Box<double>&);
template Kokkos::View<std::int64_t*> spatial_order<float>(Kokkos::View<const Vec4<float>*>,
                                                          const Box<float>&, const std::string&,
                                                          double);
template Kokkos::View<std::int64_t*> spatial_order<double>(Kokkos::View<const Vec4<double>*>,
                                                           const Box<double>&, const std::string&,
                                                           double);

}  // namespace mdremap::neighbor

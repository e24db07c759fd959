#pragma once
// The GPU list builds (CUDA builds only): a warp per interior cell. CellAtoms puts the lanes on
// the cell's atoms; CellCandidates on the candidates, and hands a build it cannot take (stencil
// rows beyond 32, candidates beyond shared memory) to CellAtoms.
#include <algorithm>
#include <type_traits>

#include "neighbor/build_portable.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
namespace mdremap::neighbor {

// GPU list build with lanes on candidates. A warp owns one interior cell; its candidates (the
// stencil rows' runs, concatenated in stencil order) are loaded kWin*32 at a time into registers,
// one per lane per chunk of 32. For each of the cell's atoms (position and index broadcast from
// shared memory) each chunk is tested in ten instructions: distance, the home-cell test, one
// ballot, and the ballot word stored to shared memory. The rows are then decoded with lanes on
// atoms: entry e of every atom in step e, so the column-major stores of the cell's consecutive
// atoms coalesce. The list equals the CellAtoms kernel's entry for entry (same candidate order).
// Before it, lanes on atoms left most lanes idle and stored every entry as its own 32-byte sector,
// and compacting each ballot into shared-memory rows (popc ranks, a divergent store) cost many
// instructions per atom and chunk (Nsight figures: docs/benchmarks.md).
template <class T, int kWin, bool Half>
struct CandidateLaneBuild {
  using ReadOnly = Kokkos::MemoryTraits<Kokkos::RandomAccess>;
  using Team = Kokkos::TeamPolicy<ExecSpace>::member_type;
  Kokkos::View<const int*, ReadOnly> offset, perm;
  Kokkos::View<const Vec4<T>*, ReadOnly> xs;
  Kokkos::View<int*> counts, nbrs;
  Kokkos::View<int*> stats;  // ListBuildArgs::stats
  StencilRows<32> rows;
  int nx, ny, ex, ey, ez, mx, my;
  int maxneigh, nchunks;  // nchunks: 32-candidate chunks of the largest stencil
  // Atoms of the list: a ghost from another rank is binned by its coordinates, and one lying on
  // the sub-box face can round into an interior cell (a lattice plane on the face): it is a
  // candidate there, never a row.
  std::int64_t nlocal;
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
    const int total = __shfl_sync(full, incl, 31);
    if (lane == 0) atomicMax(&stats(0), total);
    if (total > 32 * nchunks) {  // more than the scratch holds: the driver builds again
      if (lane == 0) atomicMax(&stats(2), 1);
      return;  // uniform over the warp
    }
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
      const bool row = lane < na && std::int64_t(ai) < nlocal;
      const int nout = row ? (cnt < maxneigh ? cnt : maxneigh) : 0;
      const int rowsout = __reduce_max_sync(full, nout);
      const int most = __reduce_max_sync(full, row ? cnt : 0);
      if (lane == 0) atomicMax(&stats(1), most);
      if (row) counts(ai) = cnt;
      int* out = nbrs.data() + std::int64_t(ai) * si;
      const int* jc = jsh;  // this lane's current chunk of candidate indices
      unsigned m = row ? *mine : 0u;
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

template <class T, class Space, bool Half, bool ColumnMajor>
struct CellAtomsBuild {
  static constexpr BuildKernel kind = BuildKernel::CellAtoms;
  static constexpr bool runs_on = std::is_same_v<Space, Kokkos::Cuda>;
  static constexpr bool soa_positions = false;
  static BuildKernel run(const ListBuildArgs<T, Space>& a) {
    // A warp per cell (w lanes, w >= the fullest cell): its lanes walk the same candidate
    // runs in lockstep, so each position load is one broadcast. A thread per atom in cell
    // order measured slower: the lanes of two cells diverge (docs/benchmarks.md).
    int maxbin = 0;
    const auto bin_count = a.bin_count;
    Kokkos::parallel_reduce(
        "Neighbor::bin_max", Kokkos::RangePolicy<Space>(0, a.ncells),
        KOKKOS_LAMBDA(const int c, int& mb) {
          if (bin_count(c) > mb) mb = bin_count(c);
        },
        Kokkos::Max<int>(maxbin));
    const std::int64_t w = 32 * ((maxbin + 31) / 32);
    const std::int64_t slots = static_cast<std::int64_t>(a.ncells) * w;
    const AtomScan<T, Space, Half> scan(a);
    const auto offset = a.offset;
    const auto perm = a.perm;
    const auto counts = a.counts;
    const std::int64_t n = a.n;
    Kokkos::parallel_for(
        "Neighbor::build_cells", Kokkos::RangePolicy<Space>(0, slots),
        KOKKOS_LAMBDA(const std::int64_t u) {
          const int c = static_cast<int>(u / w), at = static_cast<int>(u % w);
          const int t = offset(c) + at;
          if (t >= offset(c + 1)) return;
          const int i = perm(t);
          if (i < n) counts(i) = scan(t, i, c);
        });
    report_max_count(a);
    return kind;
  }
};

template <class T, class Space, bool Half, bool ColumnMajor>
struct CellCandidatesBuild {
  static constexpr BuildKernel kind = BuildKernel::CellCandidates;
  static constexpr bool runs_on = std::is_same_v<Space, Kokkos::Cuda>;
  static constexpr bool soa_positions = false;
  static BuildKernel run(const ListBuildArgs<T, Space>& a) {
    // More rows than lanes: the CellAtoms kernel serves it.
    StencilRows<32> rows;
    if (!rows.build(a.stencil)) return CellAtomsBuild<T, Space, Half, ColumnMajor>::run(a);
    using Policy = Kokkos::TeamPolicy<Space>;
    const int nx = a.nbin[0], ny = a.nbin[1], nz = a.nbin[2];
    const int mx = nx - 2 * a.ext[0], my = ny - 2 * a.ext[1], mz = nz - 2 * a.ext[2];
    const int ex = a.ext[0], ey = a.ext[1], ez = a.ext[2];
    const auto offset = a.offset;
    // Candidate registers per lane: 4 (float) or 7 (double) per chunk; windows of 8
    // chunks in float (256 candidates, 59 registers), 4 in double (occupancy over window
    // count; measured in docs/benchmarks.md). The bench's cells have about 530 candidates.
    constexpr int kWin = std::is_same_v<T, float> ? 8 : 4;
    using Functor = CandidateLaneBuild<T, kWin, Half>;
    const auto chunks = [](int most) { return std::max(1, (most + 31) / 32); };
    const auto fits = [&](int most) {
      return Functor::scratch_bytes(chunks(most)) <=
             static_cast<std::size_t>(Policy::scratch_size_max(0));
    };
    // The most candidates of any cell sizes the shared memory of every warp: the last build's
    // figure and 1/16 to spare (the kernel reports a cell beyond it and the driver builds
    // again); counted here, a reduction and a wait, at the first build and where that guess
    // would not fit.
    int most = a.candidates + a.candidates / 16 + 8;
    if (a.candidates <= 0 || !fits(most)) {
      Kokkos::parallel_reduce(
          "Neighbor::most_candidates", Kokkos::RangePolicy<Space>(0, mx * my * mz),
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
      if (!fits(most)) return CellAtomsBuild<T, Space, Half, ColumnMajor>::run(a);
    }
    const int nchunks = chunks(most);
    const std::size_t bytes = Functor::scratch_bytes(nchunks);
    Functor f;
    f.offset = a.offset;
    f.perm = a.perm;
    f.xs = a.xs;
    f.counts = a.counts;
    f.nbrs = a.nbrs;
    f.stats = a.stats;
    f.rows = rows;
    f.nx = nx, f.ny = ny;
    f.ex = ex, f.ey = ey, f.ez = ez;
    f.mx = mx, f.my = my;
    f.maxneigh = a.maxneigh;
    f.nchunks = nchunks;
    f.nlocal = a.n;
    f.sj = a.sj;
    f.si = a.si;
    f.rsq = a.rsq;
    Kokkos::parallel_for("Neighbor::build_candidates",
                         Policy(mx * my * mz, 32).set_scratch_size(0, Kokkos::PerTeam(bytes)), f);
    return kind;
  }
};

}  // namespace mdremap::neighbor
#endif

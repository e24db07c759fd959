#include "cg/sell_spmv.hpp"

#include "cg/slot_reduction.hpp"

#include <fmt/format.h>

#include <Kokkos_BitManipulation.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>

#include "mdremap/error.hpp"
#include "mdremap/remap/l2_window.hpp"

namespace mdremap::cg::sell_detail {
// 32 counts of at most 32, 8 bits each (a team's vector reduction of one value).
struct PackedCounts {
  std::uint64_t v[4] = {0, 0, 0, 0};
  KOKKOS_INLINE_FUNCTION PackedCounts& operator+=(const PackedCounts& o) {
    for (int q = 0; q < 4; ++q) v[q] += o.v[q];
    return *this;
  }
};
}  // namespace mdremap::cg::sell_detail

template <>
struct Kokkos::reduction_identity<mdremap::cg::sell_detail::PackedCounts> {
  KOKKOS_FORCEINLINE_FUNCTION static mdremap::cg::sell_detail::PackedCounts sum() { return {}; }
};

namespace mdremap::cg {

using sell_detail::PackedCounts;

namespace {

using Range = Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>;
using Team = Kokkos::TeamPolicy<>;
using remap::Sums2;

// A slice per thread of a team whose vector lanes are the slice's 32 slots (a warp on CUDA): the
// set-up's per-slice reductions run across the lanes instead of as 32 sequential loads. Eight
// slices (warps) a team on a GPU: with one a team, a multiprocessor holds at most 32 teams, half
// its warps, and these kernels wait on their loads (sell_diagonals, sell_slices); one on a host
// backend.
int slices_per_team() {
  using Space = Kokkos::DefaultExecutionSpace::memory_space;
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space>::accessible ? 1 : 8;
}
Team slice_teams(std::int64_t slices) {
  const int per = slices_per_team();
  return Team((slices + per - 1) / per, per, std::min(kSellSlice, Team::vector_length_max()));
}
// The same with `bytes` of scratch a slice (shared memory on a GPU): what the slice's lanes share.
Team slice_teams(std::int64_t slices, std::size_t bytes) {
  return slice_teams(slices).set_scratch_size(0, Kokkos::PerThread(bytes));
}
// The slice of a team's thread (past the last slice in the last team where they do not divide).
KOKKOS_INLINE_FUNCTION std::int64_t slice_of(const Team::member_type& m) {
  return std::int64_t(m.league_rank()) * m.team_size() + m.team_rank();
}
template <class T>
using ScratchArray =
    Kokkos::View<T*, Kokkos::DefaultExecutionSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

// The column a row's differences start from: the row itself (the diagonal, on an SPD matrix),
// inside [0, cols).
KOKKOS_INLINE_FUNCTION int first_column(const std::int64_t t, const std::int64_t cols) {
  return static_cast<int>(t < cols ? t : (cols > 0 ? cols - 1 : 0));
}

// Row t's k-th column as the format stores it (t >= rows: a padding slot): past the row's length
// its last column (or the first_column of an empty row), with a zero value, so that padding
// reads a valid x entry.
KOKKOS_INLINE_FUNCTION int padded_column(const Kokkos::View<const std::int64_t*>& rp,
                                         const Kokkos::View<const int*>& col, std::int64_t rows,
                                         std::int64_t cols, std::int64_t t, int k) {
  if (t >= rows) return first_column(t, cols);
  const std::int64_t len = rp(t + 1) - rp(t);
  if (len == 0) return first_column(t, cols);
  return col(rp(t) + (k < len ? k : len - 1));
}

// Exclusive prefix sum of kSellSlice * width over the slices flagged `want` (or all): the
// slices' first entries; returns the total.
std::int64_t slice_starts(const Kokkos::View<int*>& width, const Kokkos::View<std::uint8_t*>& wide,
                          bool only_wide, const Kokkos::View<std::int64_t*>& start) {
  const std::int64_t slices = width.extent(0);
  Kokkos::parallel_scan(
      "CG::sell_starts", Range(0, slices),
      KOKKOS_LAMBDA(const std::int64_t s, std::int64_t& update, const bool final) {
        const std::int64_t n = (!only_wide || wide(s)) ? std::int64_t(kSellSlice) * width(s) : 0;
        if (final) start(s) = update;
        update += n;
        if (final && s == slices - 1) start(slices) = update;
      });
  std::int64_t total = 0;
  Kokkos::deep_copy(total, Kokkos::subview(start, slices));
  return total;
}

// Slot t's row: the sorted order's (sigma windows) or t itself; past the last row a padding slot.
struct SlotRows {
  Kokkos::View<const int*> perm;  // empty: unsorted
  std::int64_t rows = 0;
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(const std::int64_t t) const {
    return (perm.extent(0) > 0 && t < rows) ? std::int64_t(perm(t)) : t;
  }
};

// Padding entries add 0 * x(c) for a valid column c: exact for finite x; where x holds Inf or NaN
// (a diverged iterate, which the solve stops at) a padded row gets NaN where CSR's sum might not.
struct SellRows {
  Kokkos::View<const int*> width;
  Kokkos::View<const std::uint8_t*> wide, ndiag;
  Kokkos::View<const std::int64_t*> start, start32;
  Kokkos::View<const double*> val;
  Kokkos::View<const std::uint16_t*> off16;
  Kokkos::View<const int*> base, col32;
  SlotRows row;
  Kokkos::View<const double*, Kokkos::MemoryTraits<Kokkos::RandomAccess>> x;

  // Slot t's sum over its slice's columns.
  KOKKOS_INLINE_FUNCTION double sum(const std::int64_t t) const {
    double unused = 0;
    return sum_impl<false>(t, -1, unused);
  }
  // The same, and x at column `want` where the row holds it (else xw untouched).
  KOKKOS_INLINE_FUNCTION double sum_with(const std::int64_t t, const std::int64_t want,
                                         double& xw) const {
    return sum_impl<true>(t, want, xw);
  }
  template <bool kWant>
  KOKKOS_INLINE_FUNCTION double sum_impl(const std::int64_t t, const std::int64_t want,
                                         double& xw) const {
    const std::int64_t s = t / kSellSlice;
    const std::int64_t i = t % kSellSlice;
    const int w = width(s);
    const std::int64_t first = start(s);
    double acc = 0;
    // One entry: its value times x at column c (and x there where c is the wanted column).
    const auto add = [&](const int c, const double a) {
      const double xv = x(c);
      acc += a * xv;
      if constexpr (kWant)
        if (c == want) xw = xv;
    };
    if (wide(s)) {
      const std::int64_t b = start32(s) + i;
      for (int k = 0; k < w; ++k)
        add(col32(b + std::int64_t(k) * kSellSlice), val(first + i + std::int64_t(k) * kSellSlice));
    } else {
      // Walked by pointers (the slice column's stride apart): fewer registers a thread than the
      // 64-bit index arithmetic, so that the fused kernel's grid-stride loop keeps eight blocks
      // of 256 a multiprocessor.
      const double* v = val.data() + first + i;
      const std::uint16_t* o = off16.data() + first + i;
      const int* bs = base.data() + first / kSellSlice;  // the slice's first column base
      // The diagonal columns first (k < ndiag): base + the slot's row, no offset stored (the
      // plan keeps every such column inside the matrix); then the offset columns. Two loops, though
      // they take more registers: one loop choosing per column between the row and a loaded offset
      // ran slower in the CG iteration, the offsets-only slices included (docs/benchmarks.md).
      int k = 0;
      if (const int d = ndiag(s); d > 0) {
        const int r = static_cast<int>(row(t));
        for (; k < d; ++k, v += kSellSlice) add(bs[k] + r, *v);
        o += std::int64_t(d) * kSellSlice;
      }
      for (; k < w; ++k, v += kSellSlice, o += kSellSlice) add(bs[k] + static_cast<int>(*o), *v);
    }
    return acc;
  }
};

struct SellApply {
  SellRows m;
  Kokkos::View<double*> y;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t) const {
    const double s = m.sum(t);
    if (t < m.row.rows) y(m.row(t)) = s;
  }
};

// The CG iteration's SpMV w = A u with its two dot products in the same kernel: s0 = w . u,
// s1 = r . u (u is the SpMV's x; its own entry u(row) comes from the cache the gather just
// filled, as the diagonal's column). r the same vector as u (unpreconditioned): read once.
// Against the SpMV and then a reduction over w, u and r, this saves reading w and r again
// (16-24 B a row) and a launch. Run by SlotReduction (one slot a thread). kDiagonalInRows
// (SellMatrix::diagonal_in_rows): u's own entry is the x the row's diagonal gathered, not a load
// of its own; the same value, one load fewer a row, which outweighs the registers it costs
// (docs/benchmarks.md).
template <bool kDiagonalInRows>
struct SellApplyDots {
  SellRows m;
  Kokkos::View<double*> y;
  Kokkos::View<const double*> r;
  bool r_is_u = false;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t, Sums2& acc) const {
    const std::int64_t rt = t < m.row.rows ? m.row(t) : -1;
    double ut = 0;
    const double s = kDiagonalInRows ? m.sum_with(t, rt, ut) : m.sum(t);
    if (rt < 0) return;
    y(rt) = s;
    if constexpr (!kDiagonalInRows) ut = m.x(rt);
    acc.s0 += s * ut;
    acc.s1 += (r_is_u ? ut : r(rt)) * ut;
  }
};

class SellSpmv final : public CgSpmv {
 public:
  SellSpmv(const DeviceCsr& a, int sigma, bool l2_persist, bool fused_dots, bool diagonals)
      : m_(build_sell(a, sigma, diagonals)),
        csr_bytes_(a.min_spmv_bytes()),
        nnz_(a.nnz),
        fused_(fused_dots),
        diagonals_(diagonals) {
    if (l2_persist)
      window_ = std::make_unique<remap::L2PersistWindow>(m_.storage.data(), m_.storage.extent(0));
  }
  std::string name() const override { return "sell"; }
  std::string describe() const override {
    const double stored = static_cast<double>(m_.entries);
    const std::string order = m_.sigma > 1
                                  ? fmt::format(
                                        "rows sorted by length within windows of {} (SELL-{}-{}: "
                                        "{:.1f}% padding in the rows' own order)",
                                        m_.sigma, kSellSlice, m_.sigma, 100.0 * m_.padding_unsorted)
                                  : std::string("in the rows' own order");
    return fmt::format(
        "sell (SELL-{} {}, 16-bit column offsets from a base per slice column; {} of {} slices "
        "with 32-bit columns; {}; {:.1f}% padding; {:.1f} MB a SpMV against CSR's {:.1f} MB; "
        "built in {:.3f} ms: shape {:.3f}, allocation {:.3f}, fill {:.3f}{}; the CG iteration's "
        "dot products {})",
        kSellSlice, order, m_.wide_slices, m_.slices,
        m_.diag_slices > 0
            ? fmt::format("{} slices with diagonal columns (column = row + an offset per slice "
                          "column, no index loaded: {:.1f}% of the entries)",
                          m_.diag_slices,
                          stored > 0 ? 100.0 * static_cast<double>(m_.entries_diag) / stored : 0.0)
            : std::string(diagonals_ ? "no slice with diagonal columns" : "diagonal columns off"),
        stored > 0 ? 100.0 * (stored - static_cast<double>(nnz_)) / stored : 0.0, m_.bytes() / 1e6,
        csr_bytes_ / 1e6, m_.shape_ms + m_.alloc_ms + m_.fill_ms, m_.shape_ms, m_.alloc_ms,
        m_.fill_ms, window_ ? "; values and offsets in " + window_->describe() : std::string(),
        fused_
            ? (m_.diagonal_in_rows ? "in the SpMV's kernel, u's own entry from the row's diagonal"
                                   : "in the SpMV's kernel")
            : "in a reduction after it");
  }
  void apply(Kokkos::View<const double*> x, Kokkos::View<double*> y) override {
    if (m_.cols == 0) {  // no columns: every row is empty (padding must not read x)
      Kokkos::deep_copy(y, 0.0);
      return;
    }
    Kokkos::parallel_for("CG::spmv_sell", Range(0, m_.slices * kSellSlice),
                         SellApply{rows_of(x), y});
  }
  // spmv.sell_fused_dots (default): the dots in the SpMV's kernel (SellApplyDots); else one range
  // reduction over w, u and r after it, as for csr-warp and cuSPARSE.
  remap::Sums2 apply_dots(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                          Kokkos::View<double*> w) override {
    apply_dots_into(u, r, w, m_.dots);
    Sums2 s;
    Kokkos::deep_copy(s, m_.dots);
    return s;
  }
  void apply_dots_into(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                       Kokkos::View<double*> w, Kokkos::View<remap::Sums2> out) override {
    if (!fused_ || m_.cols == 0) {
      apply(u, w);
      cg_dots_into(w, u, r, out);
      return;
    }
    if (m_.diagonal_in_rows)
      red_.run("CG::spmv_sell_dots", m_.slices * kSellSlice, dots_of<true>(u, r, w), out);
    else
      red_.run("CG::spmv_sell_dots", m_.slices * kSellSlice, dots_of<false>(u, r, w), out);
  }
  bool runs_unobserved() const override { return true; }
  double format_bytes() const override { return m_.bytes(); }

 private:
  SellRows rows_of(Kokkos::View<const double*> x) const {
    return SellRows{m_.width, m_.wide,  m_.ndiag, m_.start, m_.start32,
                    m_.val,   m_.off16, m_.base,  m_.col32, SlotRows{m_.perm, m_.rows},
                    x};
  }
  template <bool kDiagonalInRows>
  SellApplyDots<kDiagonalInRows> dots_of(Kokkos::View<const double*> u,
                                         Kokkos::View<const double*> r,
                                         Kokkos::View<double*> w) const {
    return {rows_of(u), w, r, r.data() == u.data()};
  }

  SellMatrix m_;
  std::unique_ptr<remap::L2PersistWindow> window_;
  double csr_bytes_ = 0;
  std::int64_t nnz_ = 0;
  bool fused_ = true;
  bool diagonals_ = true;
  SlotReduction red_;
};

}  // namespace

double SellMatrix::bytes() const {
  const double narrow = static_cast<double>(entries - entries32);
  const double indexed = narrow - static_cast<double>(entries_diag);  // with a 16-bit offset
  return 8.0 * static_cast<double>(entries) + 2.0 * indexed + 4.0 * narrow / kSellSlice +
         4.0 * static_cast<double>(entries32) +
         (4.0 + 1.0 + 1.0 + 8.0) * static_cast<double>(slices) +
         8.0 * static_cast<double>(wide_slices) + 8.0 * static_cast<double>(cols) +
         8.0 * static_cast<double>(rows) + 4.0 * static_cast<double>(perm.extent(0));
}

namespace {

// Per slice: its longest row (over its slots), and no diagonal columns yet (ndiag 0). Returns the
// entries of slices that wide, and the last slice's padding slots past the last row times its
// width (build_sell's size check; read with the entries, not in a copy and wait of its own).
struct SliceShape {
  std::int64_t entries = 0, tail = 0;
};
SliceShape slice_widths(const DeviceCsr& a, const SlotRows& row, const Kokkos::View<int*>& width,
                        const Kokkos::View<std::uint8_t*>& ndiag) {
  const auto rp = a.rowptr;
  const std::int64_t rows = a.rows, slices = width.extent(0);
  SliceShape shape;
  Kokkos::parallel_reduce(
      "CG::sell_widths", slice_teams(slices),
      KOKKOS_LAMBDA(const Team::member_type& m, std::int64_t& total, std::int64_t& tail) {
        const std::int64_t s = slice_of(m);
        if (s >= slices) return;
        int w = 0;
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(m, kSellSlice),
            [&](const int i, int& acc) {
              const std::int64_t t = s * kSellSlice + i;
              if (t < rows) {
                const std::int64_t r = row(t);
                acc = Kokkos::max(acc, static_cast<int>(rp(r + 1) - rp(r)));
              }
            },
            Kokkos::Max<int>(w));
        Kokkos::single(Kokkos::PerThread(m), [&] {
          width(s) = w;
          ndiag(s) = 0;
          total += std::int64_t(kSellSlice) * w;
          if (s == slices - 1) tail += (slices * kSellSlice - rows) * std::int64_t(w);
        });
      },
      shape.entries, shape.tail);
  return shape;
}

// The rows of each window of `sigma` rows ordered by length, longest first (stable: equal rows
// keep their order): each row counts the rows of its window that go before it (a thread a row,
// sigma reads each, from the L1).
void sorted_windows(const DeviceCsr& a, std::int64_t sigma, const Kokkos::View<int*>& perm) {
  const std::int64_t rows = a.rows;
  const auto rp = a.rowptr;
  Kokkos::parallel_for(
      "CG::sell_sort", Range(0, rows), KOKKOS_LAMBDA(const std::int64_t t) {
        const std::int64_t lo = t / sigma * sigma, hi = Kokkos::min(rows, lo + sigma);
        const std::int64_t len = rp(t + 1) - rp(t);
        std::int64_t rank = 0;
        for (std::int64_t u = lo; u < hi; ++u) {
          const std::int64_t l = rp(u + 1) - rp(u);
          rank += (l > len || (l == len && u < t)) ? 1 : 0;
        }
        perm(lo + rank) = static_cast<int>(t);
      });
}

// A slice's diagonal columns (SellMatrix::ndiag): the candidates are the offsets column - row of
// its longest row (the first lane among equals); a candidate becomes a diagonal column where at
// least `least` of the slice's rows hold it, `least` the share of them (all, three quarters,
// half) that moves the fewest bytes, and the slice takes them only where that beats its plain
// width. The same plan is recomputed where the format is filled (plan_of), so it is kept per
// slice as the candidates' mask and the lane.
struct DiagPlan {
  std::uint32_t keep = 0;  // candidate k is a diagonal column
  int lane = 0;
  int ndiag = 0, extra = 0;  // the slice's diagonal columns, then its other columns
};

struct SliceOffsets {
  Kokkos::View<const std::int64_t*> rp;
  Kokkos::View<const int*> col;
  std::int64_t rows = 0, cols = 0;
  SlotRows row;

  KOKKOS_INLINE_FUNCTION std::int64_t length(const std::int64_t t) const {
    if (t >= rows) return 0;
    const std::int64_t r = row(t);
    return rp(r + 1) - rp(r);
  }
  // Slot t's columns (its first kSellMaxDiagonals; a planned slice's rows hold no more) into
  // registers, every load issued before any is used: the loops below walked a row one load at a
  // time, each waiting for its entry before the next (a chain of 16-32 loads a slice, which more
  // warps a multiprocessor did not shorten). Returns how many.
  KOKKOS_INLINE_FUNCTION int row_columns(const std::int64_t t, int (&c)[kSellMaxDiagonals]) const {
    const int n = static_cast<int>(Kokkos::min<std::int64_t>(length(t), kSellMaxDiagonals));
    const std::int64_t j0 = n > 0 ? rp(row(t)) : 0;
#pragma unroll
    for (int k = 0; k < kSellMaxDiagonals; ++k) c[k] = k < n ? col(j0 + k) : 0;
    return n;
  }
  // The candidates: slot t's offsets (distinct: a row's columns are), ascending, into cand (the
  // slice's scratch), on the thread's vector lanes: lane k places the row's entry k at its rank
  // among them. Returns how many; the lanes read cand after a team barrier.
  template <class Member>
  KOKKOS_INLINE_FUNCTION int candidates(const Member& m, const std::int64_t t,
                                        std::int64_t* cand) const {
    const std::int64_t r = row(t);
    const int n = static_cast<int>(Kokkos::min<std::int64_t>(length(t), kSellMaxDiagonals));
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, kSellSlice), [&](const int i) {
      if (i >= n) return;
      int c[kSellMaxDiagonals];
      row_columns(t, c);
      const int mine = col(rp(r) + i);  // c[i], loaded beside them (c indexed by i is local memory)
      int rank = 0;
#pragma unroll
      for (int k = 0; k < kSellMaxDiagonals; ++k) rank += (k < n && c[k] < mine) ? 1 : 0;
      cand[rank] = std::int64_t(mine) - r;
    });
    return n;
  }
  // Offset d's candidate number, or -1 (a binary search over the ascending candidates; also
  // over a slice's diagonal offsets as the format keeps them).
  template <class T>
  KOKKOS_INLINE_FUNCTION static int find(const T* cand, int nc, std::int64_t d) {
    int lo = 0, hi = nc;
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (cand[mid] < d)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo < nc && cand[lo] == d ? lo : -1;
  }
  KOKKOS_INLINE_FUNCTION static bool kept(const std::int64_t* cand, int nc, std::uint32_t keep,
                                          std::int64_t d) {
    const int k = find(cand, nc, d);
    return k >= 0 && ((keep >> k) & 1u);
  }
  // Which candidates slot t's row holds (bit k: cand[k]).
  KOKKOS_INLINE_FUNCTION std::uint32_t mask(const std::int64_t t, const std::int64_t* cand,
                                            int nc) const {
    if (t >= rows) return 0;
    const std::int64_t r = row(t);
    int c[kSellMaxDiagonals];
    const int n = row_columns(t, c);
    std::uint32_t held = 0;
#pragma unroll
    for (int k = 0; k < kSellMaxDiagonals; ++k)
      if (k < n)
        if (const int q = find(cand, nc, c[k] - r); q >= 0) held |= 1u << q;
    return held;
  }
  // Slot t's columns after the diagonal ones, in order, into out[e * stride] for e < n: its
  // entries not among them, then (past its last such entry) that entry's column, or the
  // first_column where it has none, as the format pads them with a zero value.
  KOKKOS_INLINE_FUNCTION void extra_columns(const std::int64_t t, const std::int64_t* cand, int nc,
                                            std::uint32_t keep, int n, int* out, int stride) const {
    const std::int64_t r = row(t);
    int last = first_column(r, cols);
    int e = 0;
    if (t < rows) {
      int c[kSellMaxDiagonals];
      const int len = row_columns(t, c);
#pragma unroll
      for (int k = 0; k < kSellMaxDiagonals; ++k) {
        if (k >= len || e >= n || kept(cand, nc, keep, c[k] - r)) continue;
        out[e++ * stride] = c[k];
        last = c[k];
      }
    }
    for (; e < n; ++e) out[e * stride] = last;
  }

  // Whether slice s (plain width w) is planned at all: some row, and no wider than the
  // candidates' mask.
  KOKKOS_INLINE_FUNCTION static bool plannable(const int w) {
    return w > 0 && w <= kSellMaxDiagonals;
  }
  // The plan's first half, on the thread's vector lanes: the lane of the slice's first longest
  // row, and its candidates, placed into cand (the slice's scratch) by the lanes (each lane
  // sorting its own copy in local memory, or one lane sorting them for all, a chain of loads, made
  // these kernels slower). Returns how many; the caller waits at a team barrier before the lanes
  // read them.
  template <class Member>
  KOKKOS_INLINE_FUNCTION int gather_candidates(const Member& m, const std::int64_t s, const int w,
                                               std::int64_t* cand, int& lane) const {
    const std::int64_t t0 = s * kSellSlice;
    lane = kSellSlice;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(m, kSellSlice),
        [&](const int i, int& acc) {
          if (length(t0 + i) == w) acc = Kokkos::min(acc, i);
        },
        Kokkos::Min<int>(lane));
    return candidates(m, t0 + lane, cand);
  }
  // The plan's second half: from the nc candidates in cand, held_of (scratch, kSellSlice)
  // receiving each slot's mask of them.
  template <class Member>
  KOKKOS_INLINE_FUNCTION DiagPlan plan(const Member& m, const std::int64_t s, const int w,
                                       const int lane, const int nc, const std::int64_t* cand,
                                       std::uint32_t* held_of) const {
    DiagPlan best;
    const std::int64_t t0 = s * kSellSlice;
    // The slots' rows (a padding slot's is the slot): an offset is a diagonal column only where
    // it keeps every slot's column inside the matrix, so the SpMV adds it unchecked.
    Kokkos::MinMaxScalar<std::int64_t> span;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(m, kSellSlice),
        [&](const int i, Kokkos::MinMaxScalar<std::int64_t>& acc) {
          const std::int64_t r = row(t0 + i);
          acc.min_val = Kokkos::min(acc.min_val, r);
          acc.max_val = Kokkos::max(acc.max_val, r);
        },
        Kokkos::MinMax<std::int64_t>(span));
    const std::int64_t lo = span.min_val, hi = span.max_val;
    // How many of the slice's rows hold each candidate: one pass over each row (its candidates'
    // mask), the counts summed across the lanes 8 bits each (at most 32 rows).
    // Each slot's mask is kept for the passes below (slot i's entry written and read by the
    // lane that runs slot i).
    PackedCounts counts;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(m, kSellSlice),
        [&](const int i, PackedCounts& acc) {
          const std::uint32_t held = mask(t0 + i, cand, nc);
          held_of[i] = held;
          for (int k = 0; k < nc; ++k)
            if ((held >> k) & 1u) acc.v[k / 8] += std::uint64_t(1) << (8 * (k % 8));
        },
        Kokkos::Sum<PackedCounts>(counts));
    int count[kSellMaxDiagonals];
    for (int k = 0; k < nc; ++k)
      count[k] = (lo + cand[k] >= 0 && hi + cand[k] < cols)
                     ? static_cast<int>((counts.v[k / 8] >> (8 * (k % 8))) & 0xffu)
                     : 0;
    const int real = static_cast<int>(Kokkos::min<std::int64_t>(kSellSlice, rows - t0));
    // Bytes of the slice: 8 a value, 2 an offset, 4 a slice column's base or offset.
    double least_bytes = kSellSlice * 10.0 * w + 4.0 * w;
    const int leasts[3] = {real, (3 * real + 3) / 4, (real + 1) / 2};
    std::uint32_t tried = 0;
    for (const int least : leasts) {
      std::uint32_t keep = 0;
      int d = 0;
      for (int k = 0; k < nc; ++k)
        if (count[k] >= least && least > 0) {
          keep |= 1u << k;
          ++d;
        }
      if (d == 0 || keep == tried) continue;  // none, or the share before gave the same columns
      tried = keep;
      int e = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(m, kSellSlice),
          [&](const int i, int& acc) {
            const int kept = Kokkos::popcount(held_of[i] & keep);
            acc = Kokkos::max(acc, static_cast<int>(length(t0 + i)) - kept);
          },
          Kokkos::Max<int>(e));
      const double bytes = kSellSlice * (8.0 * d + 10.0 * e) + 4.0 * (d + e);
      if (bytes < least_bytes) {
        least_bytes = bytes;
        best = DiagPlan{keep, lane, d, e};
      }
    }
    return best;
  }
  // The plan kept for slice s (the candidates' mask in the low word, the lane in the high): the
  // candidates again, on the thread's vector lanes (returns how many; read after a team
  // barrier), and the mask.
  template <class Member>
  KOKKOS_INLINE_FUNCTION int plan_of(const Member& m, const std::int64_t s,
                                     const std::uint64_t kept_plan, std::int64_t* cand) const {
    return candidates(m, s * kSellSlice + static_cast<std::int64_t>(kept_plan >> 32), cand);
  }
  KOKKOS_INLINE_FUNCTION static std::uint32_t keep_of(const std::uint64_t kept_plan) {
    return static_cast<std::uint32_t>(kept_plan);
  }
};

// Each slice's diagonal columns where they pay (SliceOffsets::plan): its width becomes
// diagonals + the rest, ndiag and plan record them.
void slice_diagonals(const SliceOffsets& g, const Kokkos::View<int*>& width,
                     const Kokkos::View<std::uint8_t*>& ndiag,
                     const Kokkos::View<std::uint64_t*>& plan) {
  const std::int64_t slices = width.extent(0);
  const std::size_t bytes = ScratchArray<std::int64_t>::shmem_size(kSellMaxDiagonals) +
                            ScratchArray<std::uint32_t>::shmem_size(kSellSlice);
  Kokkos::parallel_for(
      "CG::sell_diagonals", slice_teams(slices, bytes), KOKKOS_LAMBDA(const Team::member_type& m) {
        const std::int64_t s = slice_of(m);
        const int w = s < slices ? width(s) : 0;
        const bool planned = SliceOffsets::plannable(w);
        const ScratchArray<std::int64_t> cand(m.thread_scratch(0), kSellMaxDiagonals);
        const ScratchArray<std::uint32_t> held(m.thread_scratch(0), kSellSlice);
        int lane = 0, nc = 0;
        if (planned) nc = g.gather_candidates(m, s, w, cand.data(), lane);
        // The candidates, for every lane: every thread of the team waits here, whatever its slice.
        m.team_barrier();
        if (!planned) return;
        const DiagPlan p = g.plan(m, s, w, lane, nc, cand.data(), held.data());
        Kokkos::single(Kokkos::PerThread(m), [&] {
          ndiag(s) = static_cast<std::uint8_t>(p.ndiag);
          plan(s) = std::uint64_t(p.keep) | (std::uint64_t(p.lane) << 32);
          if (p.ndiag > 0) width(s) = p.ndiag + p.extra;
        });
      });
}

}  // namespace

SellMatrix build_sell(const DeviceCsr& a, int sigma, bool diagonals) {
  Kokkos::fence();
  // The set-up's phases, without fences of their own: the waits for the scans' totals and the
  // fill's counts end them. Each allocation is a cudaMalloc and a fence (Kokkos' header copy):
  // there are three or four (the slices' arrays, the sorted order where rows are sorted, the
  // values with offsets and bases, the 32-bit columns where a slice has them), and five waits for
  // the host.
  Kokkos::Timer lap;
  double alloc_ms = 0;
  const auto allocated = [&alloc_ms](auto&& make) {
    Kokkos::Timer t;
    auto v = make();
    alloc_ms += 1e3 * t.seconds();
    return v;
  };
  SellMatrix m;
  m.rows = a.rows;
  m.cols = a.cols;
  m.slices = (a.rows + kSellSlice - 1) / kSellSlice;
  const std::int64_t rows = a.rows, cols = a.cols, slices = m.slices;
  // Every entry of these is written below before it is read: no zero fill (and its fence).
  const auto uninit = [](const char* name) {
    return Kokkos::view_alloc(std::string(name), Kokkos::WithoutInitializing);
  };
  // The per-slice arrays carved from one allocation: the CG iteration's two sums (apply_dots),
  // starts, start32s and the diagonals' plans (8 bytes a slice), then widths (4), then the wide
  // and ndiag flags (1).
  const std::int64_t n8 = slices + 1;
  m.slice_storage = allocated([&] {
    return Kokkos::View<char*>(uninit("cg::sell_slices"),
                               sizeof(Sums2) + 8 * (3 * n8) + 4 * n8 + 2 * n8);
  });
  char* at = m.slice_storage.data();
  const auto take = [&at](std::int64_t bytes) {
    char* p = at;
    at += bytes;
    return p;
  };
  static_assert(sizeof(Sums2) % 8 == 0);
  m.dots = Kokkos::View<Sums2>(reinterpret_cast<Sums2*>(take(sizeof(Sums2))));
  m.start = Kokkos::View<std::int64_t*>(reinterpret_cast<std::int64_t*>(take(8 * n8)), n8);
  m.start32 = Kokkos::View<std::int64_t*>(reinterpret_cast<std::int64_t*>(take(8 * n8)), n8);
  Kokkos::View<std::uint64_t*> plan(reinterpret_cast<std::uint64_t*>(take(8 * n8)), slices);
  m.width = Kokkos::View<int*>(reinterpret_cast<int*>(take(4 * n8)), slices);
  m.wide = Kokkos::View<std::uint8_t*>(reinterpret_cast<std::uint8_t*>(take(n8)), slices);
  m.ndiag = Kokkos::View<std::uint8_t*>(reinterpret_cast<std::uint8_t*>(take(n8)), slices);
  if (slices == 0) return m;
  SlotRows row{{}, rows};
  SliceShape shape = slice_widths(a, row, m.width, m.ndiag);
  m.entries = shape.entries;
  m.padding_unsorted = 1.0 - static_cast<double>(a.nnz) / std::max<std::int64_t>(1, m.entries);
  // Sorting within windows (SELL-C-sigma) where the slices' padding is worth a 4-byte row index
  // a row: sigma 0 sorts windows of kSellSigma rows when the padding exceeds kSellSortPadding.
  const std::int64_t window =
      sigma == 0 ? (m.padding_unsorted > kSellSortPadding ? kSellSigma : 1) : sigma;
  if (window > 1) {
    m.perm = allocated([&] { return Kokkos::View<int*>(uninit("cg::sell_perm"), rows); });
    sorted_windows(a, window, m.perm);
    m.sigma = window;
    row.perm = m.perm;
    shape = slice_widths(a, row, m.width, m.ndiag);
    m.entries = shape.entries;
  }
  // Diagonal columns where a slice's rows share their offsets (sell_spmv.hpp).
  const SliceOffsets offsets{a.rowptr, a.col, rows, cols, row};
  const std::int64_t plain_entries = m.entries;  // without diagonal columns
  if (diagonals) slice_diagonals(offsets, m.width, m.ndiag, plan);
  // The slices' first entries depend on their final widths alone (one scan, one wait for its
  // total).
  m.entries = slice_starts(m.width, m.wide, false, m.start);
  // A format past four times the matrix is refused here, before anything large is allocated: a
  // few long rows among short ones pad their slices to their length (sorting groups them but a
  // row of n entries still makes 32 n), and the copy would outweigh CSR's by 3x or more. (The
  // last slice's slots past the last row are padding whatever the rows, as wide as that slice:
  // not held against it, so a matrix of a few rows is not refused.) Judged on the plain slices:
  // diagonal columns are taken only where they move fewer bytes, even where they widen a slice.
  if (plain_entries > 4 * a.nnz + std::int64_t(kSellSlice) * slices + shape.tail)
    throw Error(fmt::format(
        "sell: its slices would hold {} entries for the matrix's {} (rows of very different "
        "lengths pad each slice to its longest): not built; csr-thread, csr-warp or cusparse "
        "serve such a matrix",
        m.entries, a.nnz));
  // val, off16 and the slice columns' bases in one allocation (8 + 2 bytes an entry, then 4 a
  // slice column; off16 starts 8-byte aligned, the bases 4-byte aligned: entries are a multiple
  // of kSellSlice). One L2 window covers them all.
  const std::int64_t nbase = m.entries / kSellSlice;
  m.storage = allocated([&] {
    return Kokkos::View<char*>(uninit("cg::sell_val_off16_base"), 10 * m.entries + 4 * nbase);
  });
  m.val = Kokkos::View<double*>(reinterpret_cast<double*>(m.storage.data()), m.entries);
  m.off16 = Kokkos::View<std::uint16_t*>(
      reinterpret_cast<std::uint16_t*>(m.storage.data() + 8 * m.entries), m.entries);
  m.base = Kokkos::View<int*>(reinterpret_cast<int*>(m.storage.data() + 10 * m.entries), nbase);
  const auto rp = a.rowptr;
  const auto col = a.col;
  const auto width = m.width;
  const auto wide = m.wide;
  const auto start = m.start;
  const auto base = m.base;
  Kokkos::View<const std::int64_t*> rpc = rp;
  Kokkos::View<const int*> colc = col;
  // Per slice and entry number k: the least k-th column over its 32 slots (the base), and whether
  // they spread over more than 16 bits (then the whole slice keeps 32-bit columns and its bases
  // go unused). The slots on the thread's vector lanes.
  const auto ndiag = m.ndiag;
  // With diagonal columns the candidates (the lanes place them) and each slot's columns left
  // (each lane reads its row once) in the slice's scratch: the candidates, then a column of
  // kSellSlice entries per column number.
  const std::size_t slice_bytes = ScratchArray<std::int64_t>::shmem_size(kSellMaxDiagonals) +
                                  ScratchArray<int>::shmem_size(kSellMaxDiagonals * kSellSlice);
  Kokkos::parallel_for(
      "CG::sell_slices", slice_teams(slices, slice_bytes),
      KOKKOS_LAMBDA(const Team::member_type& m) {
        const std::int64_t s = slice_of(m);
        const bool real = s < slices;
        const int w = real ? width(s) : 0;
        const int d = real ? ndiag(s) : 0;
        std::uint8_t f = 0;
        const ScratchArray<std::int64_t> cand(m.thread_scratch(0), kSellMaxDiagonals);
        const ScratchArray<int> extra(m.thread_scratch(0), kSellMaxDiagonals * kSellSlice);
        // The diagonal columns' offsets, ascending (the candidates' order).
        const std::uint64_t kept_plan = d > 0 ? plan(s) : 0;
        const std::uint32_t keep = SliceOffsets::keep_of(kept_plan);
        const int nc = d > 0 ? offsets.plan_of(m, s, kept_plan, cand.data()) : 0;
        // The candidates, for every lane: every thread of the team waits here, whatever its slice.
        m.team_barrier();
        if (!real) return;
        if (d > 0) {
          Kokkos::single(Kokkos::PerThread(m), [&] {
            int j = 0;
            for (int k = 0; k < nc; ++k)
              if ((keep >> k) & 1u) base(start(s) / kSellSlice + j++) = static_cast<int>(cand(k));
          });
          // The columns left: at most the plain width (<= kSellMaxDiagonals) a slot; slot i's
          // written and read by the lane that runs slot i.
          const int n = w - d < kSellMaxDiagonals ? w - d : int(kSellMaxDiagonals);
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, kSellSlice), [&](const int i) {
            offsets.extra_columns(s * kSellSlice + i, cand.data(), nc, keep, n, extra.data() + i,
                                  kSellSlice);
          });
        }
        for (int k = d; k < w && !f; ++k) {
          Kokkos::MinMaxScalar<int> span;
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(m, kSellSlice),
              [&](const int i, Kokkos::MinMaxScalar<int>& acc) {
                const std::int64_t t = s * kSellSlice + i;
                const int c = d > 0 ? extra((k - d) * kSellSlice + i)
                                    : padded_column(rpc, colc, rows, cols, row(t), k);
                acc.min_val = Kokkos::min(acc.min_val, c);
                acc.max_val = Kokkos::max(acc.max_val, c);
              },
              Kokkos::MinMax<int>(span));
          const int lo = span.min_val;
          if (std::int64_t(span.max_val) - lo > 65535) f = 1;
          Kokkos::single(Kokkos::PerThread(m), [&] { base(start(s) / kSellSlice + k) = lo; });
        }
        Kokkos::single(Kokkos::PerThread(m), [&] { wide(s) = f; });
      });
  m.entries32 = slice_starts(m.width, m.wide, true, m.start32);
  m.shape_ms = std::max(0.0, 1e3 * lap.seconds() - alloc_ms);  // its allocations apart
  // The 32-bit columns only where a slice needs them.
  if (m.entries32 > 0)
    m.col32 = allocated([&] { return Kokkos::View<int*>(uninit("cg::sell_col32"), m.entries32); });
  lap.reset();
  const auto start32 = m.start32;
  const auto val = m.val;
  const auto off16 = m.off16;
  const auto col32 = m.col32;
  const auto av = a.val;
  // Slot t fills its lane of its slice, column k at start + k * 32 + lane.
  // Also counted: the rows without their diagonal entry (SellMatrix::diagonal_in_rows; a CG
  // matrix read from a file has it, the reader refuses one without, a generated one has it, a
  // matrix handed in otherwise may not, and then u's own entry is loaded), and (slot 0 of each
  // slice) the wide slices, the slices with diagonal columns and their entries, in the same pass
  // (kernels and waits of their own would lengthen the set-up).
  std::int64_t dropped = 0, missing = 0, wide_count = 0, diag_count = 0, diag_entries = 0;
  Kokkos::parallel_reduce(
      "CG::sell_fill", Range(0, slices * kSellSlice),
      KOKKOS_LAMBDA(const std::int64_t t, std::int64_t& dropped, std::int64_t& missing,
                    std::int64_t& nwide, std::int64_t& ndiags, std::int64_t& ediag) {
        const std::int64_t s = t / kSellSlice;
        const std::int64_t i = t % kSellSlice;
        if (i == 0) {
          nwide += wide(s);
          ndiags += ndiag(s) > 0 ? 1 : 0;
          ediag += wide(s) ? 0 : std::int64_t(kSellSlice) * ndiag(s);
        }
        const std::int64_t r = row(t);
        const std::int64_t len = t < rows ? rp(r + 1) - rp(r) : 0;
        const std::int64_t j0 = t < rows ? rp(r) : 0;
        if (t < rows) {
          bool found = false;
          for (std::int64_t j = j0; j < j0 + len; ++j) found = found || colc(j) == r;
          missing += found ? 0 : 1;
        }
        if (const int d = ndiag(s); d > 0) {  // diagonal columns first, then the entries left
          const std::int64_t b0 = start(s) / kSellSlice;
          const auto put = [&](const int k, const double v, const int c) {
            val(start(s) + std::int64_t(k) * kSellSlice + i) = v;
            if (wide(s))
              col32(start32(s) + std::int64_t(k) * kSellSlice + i) = c;
            else if (k >= d)
              off16(start(s) + std::int64_t(k) * kSellSlice + i) =
                  static_cast<std::uint16_t>(c - base(b0 + k));
          };
          for (int k = 0; k < d; ++k) put(k, 0.0, static_cast<int>(r + base(b0 + k)));
          int k = d, last = first_column(r, cols);
          for (std::int64_t j = j0; j < j0 + len; ++j) {
            const int c = colc(j);
            // The diagonal column of offset c - r, if any (their offsets ascend).
            const int at = SliceOffsets::find(base.data() + b0, d, c - r);
            if (at >= 0) {
              put(at, av(j), c);
            } else if (k < width(s)) {  // always (the plan counted every row's entries left)
              put(k++, av(j), c);
              last = c;
            } else {
              ++dropped;  // only with a column twice in a row, which DeviceCsr rules out
            }
          }
          for (; k < width(s); ++k) put(k, 0.0, last);
          return;
        }
        for (int k = 0; k < width(s); ++k) {
          const std::int64_t p = start(s) + std::int64_t(k) * kSellSlice + i;
          const int c = padded_column(rpc, colc, rows, cols, r, k);
          val(p) = k < len ? av(j0 + k) : 0.0;
          if (wide(s))
            col32(start32(s) + std::int64_t(k) * kSellSlice + i) = c;
          else
            off16(p) = static_cast<std::uint16_t>(c - base(start(s) / kSellSlice + k));
        }
      },
      dropped, missing, wide_count, diag_count, diag_entries);
  if (dropped != 0)
    throw Error(fmt::format(
        "sell: {} entries found no slot (a row holding a column twice?): not built", dropped));
  m.wide_slices = wide_count;
  m.diag_slices = diag_count;
  m.entries_diag = diag_entries;
  m.diagonal_in_rows = rows > 0 && missing == 0;
  m.fill_ms = 1e3 * lap.seconds();
  m.alloc_ms = alloc_ms;
  return m;
}

std::unique_ptr<CgSpmv> make_sell_spmv(const DeviceCsr& a, int sigma, bool l2_persist,
                                       bool fused_dots, bool diagonals) {
  return std::make_unique<SellSpmv>(a, sigma, l2_persist, fused_dots, diagonals);
}

}  // namespace mdremap::cg

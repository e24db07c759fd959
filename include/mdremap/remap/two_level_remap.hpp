#pragma once
// Device two-level remap (seed 000 §4.1 eq. 2 applied twice, §4.2 Listings 2-3, §6.3.2): builds
// the duplicated array A'[j*T+t] = A[inner[row_offset[outer[t]] + j]] for j < len[t], a trivial
// value otherwise, straight from the three device index arrays (no host flatten). As in the
// paper's SP program, two remapping kernels run:
//   level 1 reorders row_offset by outer: new_row_off[t] = row_offset[outer[t]] and
//           len[t] = row_offset[outer[t]+1] - row_offset[outer[t]] (also R = max len, and the
//           structure is checked: outer in range, offsets non-decreasing and inside inner);
//   level 2 uses new_row_off to reorder the data: one thread per (row, thread) slot, coalesced
//           writes, like DupRemapKernel (and element ids are checked against A's extent).
// The compute kernel then reads A'[j*T+t] and touches none of outer, row_offset, inner. The
// host-side model of the same pattern is mdremap/remap/two_level.hpp (TwoLevelPattern, flatten).
// Kokkos only, generic over the element type, no MD.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "mdremap/error.hpp"

namespace mdremap::remap {

// The three index arrays of a two-level pattern on the device (SP: ed_dst, var_rowOff, var_col).
struct TwoLevelDeviceIndex {
  Kokkos::View<const std::int32_t*> outer;       // T entries
  Kokkos::View<const std::int64_t*> row_offset;  // nrows+1 entries
  Kokkos::View<const std::int32_t*> inner;       // column array: element ids of A
};

// The result of a two-level remap: A' (rows x threads, rows-by-threads) and the per-thread
// level-1 output (new_row_off of the paper, and len).
template <class T>
struct TwoLevelDuplicate {
  Kokkos::View<T*> dup;               // rows * threads, dup(j*T+t)
  Kokkos::View<std::int64_t*> start;  // new_row_off[t] = row_offset[outer[t]]
  Kokkos::View<std::int32_t*> len;    // len[t]
  std::int64_t threads = 0;
  int rows = 0;  // R = max len
};

// Level 1: reduces (max len, number of bad threads).
struct TwoLevelFirstKernel {
  TwoLevelDeviceIndex ix;
  Kokkos::View<std::int64_t*> start;
  Kokkos::View<std::int32_t*> len;
  std::int64_t nrows = 0, ninner = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t, std::int64_t& rows,
                                         std::int64_t& bad) const {
    const std::int32_t o = ix.outer(t);
    if (o < 0 || o >= nrows) {
      ++bad;
      start(t) = 0;
      len(t) = 0;
      return;
    }
    const std::int64_t b = ix.row_offset(o), e = ix.row_offset(o + 1);
    if (b < 0 || e < b || e > ninner || e - b > 2147483647) {
      ++bad;
      start(t) = 0;
      len(t) = 0;
      return;
    }
    start(t) = b;
    len(t) = static_cast<std::int32_t>(e - b);
    if (e - b > rows) rows = e - b;
  }
};

// Level 2 (seed 000 eq. 2): dup(j*T+t) = A[inner[start[t] + j]] for j < len[t], else trivial;
// counts element ids outside A (their slots get the trivial value).
template <class T>
struct TwoLevelSecondKernel {
  Kokkos::View<T*> dup;
  Kokkos::View<const T*> data;
  Kokkos::View<const std::int32_t*> inner;
  Kokkos::View<const std::int64_t*> start;
  Kokkos::View<const std::int32_t*> len;
  std::int64_t threads = 0, ndata = 0;
  T trivial;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k, std::int64_t& bad) const {
    const int j = static_cast<int>(k / threads);
    const std::int64_t t = k % threads;
    if (j < len(t)) {
      const std::int32_t e = inner(start(t) + j);
      if (e >= 0 && e < ndata) {
        dup(k) = data(e);
        return;
      }
      ++bad;
    }
    dup(k) = trivial;
  }
};

// Both levels on `space` (fenced: the level-1 reduction sizes A'). Reuses out.dup / start / len
// when they already have the right extents. Throws mdremap::Error on malformed index arrays.
template <class T, class Space = Kokkos::DefaultExecutionSpace>
void two_level_remap(TwoLevelDuplicate<T>& out, Kokkos::View<const T*> data,
                     const TwoLevelDeviceIndex& ix, const T& trivial = T{},
                     const Space& space = Space()) {
  const std::int64_t threads = static_cast<std::int64_t>(ix.outer.extent(0));
  if (ix.row_offset.extent(0) < 1)
    throw Error("two-level remap: row_offset is empty, expected nrows+1 >= 1 entries");
  if (static_cast<std::int64_t>(out.start.extent(0)) != threads) {
    out.start = Kokkos::View<std::int64_t*>("Remap::two_level_start", threads);
    out.len = Kokkos::View<std::int32_t*>("Remap::two_level_len", threads);
  }
  out.threads = threads;
  std::int64_t rows = 0, bad = 0;
  TwoLevelFirstKernel k1{ix, out.start, out.len,
                         static_cast<std::int64_t>(ix.row_offset.extent(0)) - 1,
                         static_cast<std::int64_t>(ix.inner.extent(0))};
  Kokkos::parallel_reduce(
      "Remap::two_level_level1",
      Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, threads), k1,
      Kokkos::Max<std::int64_t>(rows), Kokkos::Sum<std::int64_t>(bad));
  space.fence();
  if (threads == 0) rows = 0;  // Max over an empty range is its identity (lowest int64)
  if (bad > 0)
    throw Error("two-level remap: " + std::to_string(bad) +
                " threads have outer outside [0, nrows) or a row_offset range that decreases or "
                "leaves inner");
  out.rows = static_cast<int>(rows);
  const std::int64_t need = rows * threads;
  if (static_cast<std::int64_t>(out.dup.extent(0)) != need)
    out.dup = Kokkos::View<T*>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "Remap::two_level_dup"), need);
  std::int64_t bad_ids = 0;
  TwoLevelSecondKernel<T> k2{out.dup,
                             data,
                             ix.inner,
                             out.start,
                             out.len,
                             threads,
                             static_cast<std::int64_t>(data.extent(0)),
                             trivial};
  Kokkos::parallel_reduce(
      "Remap::two_level_level2",
      Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, need), k2, bad_ids);
  space.fence();
  if (bad_ids > 0)
    throw Error("two-level remap: " + std::to_string(bad_ids) +
                " referenced inner entries are outside [0, data_count = " +
                std::to_string(data.extent(0)) + ")");
}

template <class T, class Space = Kokkos::DefaultExecutionSpace>
TwoLevelDuplicate<T> two_level_remap(Kokkos::View<const T*> data, const TwoLevelDeviceIndex& ix,
                                     const T& trivial = T{}, const Space& space = Space()) {
  TwoLevelDuplicate<T> out;
  two_level_remap(out, data, ix, trivial, space);
  return out;
}

}  // namespace mdremap::remap

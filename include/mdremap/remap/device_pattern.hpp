#pragma once
// The device view of an irregular reference A[P[j][t]] (BRIEF section 5), the value type kernels
// reduce into, and the host copy the planners need.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

#include "mdremap/remap/pattern.hpp"

namespace mdremap::remap {

// How P is stored on the device. A compute body names the layout of the patterns it is run over
// (Body::kLayout), so each strategy instantiates one accessor per body.
enum class PatternLayout {
  Strided,  // index[j * stride_j + t * stride_t] (MD: column-major neighbours[j*N+i], or rows)
  Offsets,  // index[start[t] + j] (CSR SpMV: col[rowptr[t]+j]; SP's two-level var_col[...])
};

// P on the device: entry j < len[t] of thread t at index[j * stride_j + t * stride_t] (Strided)
// or at index[start[t] + j] (Offsets). `weight`, when given, is a per-reference coefficient
// stored like the index (SpMV's val[rowptr[t]+j]); strategies that relayout references (dup,
// padding) relayout it with them.
struct PatternView {
  PatternLayout layout = PatternLayout::Strided;
  Kokkos::View<const int*> index;
  Kokkos::View<const int*> len;
  std::int64_t threads = 0;
  int rows = 0;  // max len[t]
  std::int64_t stride_j = 0, stride_t = 1;
  Kokkos::View<const std::int64_t*> start;  // Offsets layout: threads entries
  Kokkos::View<const double*> weight;       // optional
  std::int64_t data_count = 0;              // elements of A

  bool has_weight() const { return weight.extent(0) > 0; }
};

// Two sums a compute body reduces by default (an app's two observables, e.g. energy and virial).
// A body may reduce another type instead (Body::Sums, with += and a Kokkos reduction identity).
struct Sums2 {
  double s0 = 0, s1 = 0;
  KOKKOS_INLINE_FUNCTION Sums2& operator+=(const Sums2& o) {
    s0 += o.s0;
    s1 += o.s1;
    return *this;
  }
};

}  // namespace mdremap::remap

namespace Kokkos {
template <>
struct reduction_identity<mdremap::remap::Sums2> {
  KOKKOS_FORCEINLINE_FUNCTION static mdremap::remap::Sums2 sum() { return {}; }
};
}  // namespace Kokkos

namespace mdremap::remap {

// Host copy in the planners' layout: rows-by-threads (index[j*T+t], -1 past len) for a Strided
// pattern, CSR (offset = prefix sums of len) for an Offsets pattern. Weights are not copied.
inline IrregularPattern host_pattern(const PatternView& pv, int elem_bytes) {
  IrregularPattern p;
  p.threads = pv.threads;
  p.rows = pv.rows;
  p.data_count = pv.data_count;
  p.elem_bytes = elem_bytes;
  auto hidx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pv.index);
  auto hlen = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pv.len);
  const std::int64_t T = pv.threads;
  p.len.resize(T);
  for (std::int64_t t = 0; t < T; ++t) p.len[t] = std::min<int>(hlen(t), p.rows);
  if (pv.layout == PatternLayout::Offsets) {
    auto hstart = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pv.start);
    p.offset.assign(T + 1, 0);
    for (std::int64_t t = 0; t < T; ++t) p.offset[t + 1] = p.offset[t] + p.len[t];
    p.index.resize(p.offset[T]);
    for (std::int64_t t = 0; t < T; ++t)
      for (int j = 0; j < p.len[t]; ++j) p.index[p.offset[t] + j] = hidx(hstart(t) + j);
    return p;
  }
  p.index.assign(static_cast<std::size_t>(p.rows) * T, -1);
  for (int j = 0; j < p.rows; ++j)
    for (std::int64_t t = 0; t < T; ++t)
      if (j < p.len[t]) p.index[j * T + t] = hidx(j * pv.stride_j + t * pv.stride_t);
  return p;
}

// Threads [0, n) of pv on the host, CSR, with the data they reference renumbered densely in
// their own order (data_count = the distinct elements). Only those threads' entries
// cross to the host (gathered on the device first), so a host planner's cost can be sampled
// without copying the whole pattern; the dense renumbering keeps the planner's per-element work
// proportional to the sample instead of to the whole of A.
inline IrregularPattern host_pattern_head(const PatternView& pv, int elem_bytes, std::int64_t n) {
  n = std::clamp<std::int64_t>(n, 0, pv.threads);
  IrregularPattern p;
  p.threads = n;
  p.rows = pv.rows;
  p.elem_bytes = elem_bytes;
  auto hlen = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(pv.len, std::pair<std::int64_t, std::int64_t>(0, n)));
  p.len.resize(n);
  p.offset.assign(n + 1, 0);
  for (std::int64_t t = 0; t < n; ++t) {
    p.len[t] = std::clamp<int>(hlen(t), 0, pv.rows);
    p.offset[t + 1] = p.offset[t] + p.len[t];
  }
  using Mem = Kokkos::DefaultExecutionSpace::memory_space;
  Kokkos::View<std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> hoff(
      p.offset.data(), n + 1);
  Kokkos::View<std::int64_t*, Mem> off("Remap::head_offset", n + 1);
  Kokkos::deep_copy(off, hoff);
  Kokkos::View<int*, Mem> idx(Kokkos::view_alloc("Remap::head_index", Kokkos::WithoutInitializing),
                              p.offset[n]);
  const auto index = pv.index;
  const auto start = pv.start;
  const bool offsets = pv.layout == PatternLayout::Offsets;
  const std::int64_t sj = pv.stride_j, st = pv.stride_t;
  Kokkos::parallel_for(
      "Remap::pattern_head", Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>(0, n),
      KOKKOS_LAMBDA(const std::int64_t t) {
        const std::int64_t o = off(t), m = off(t + 1) - o;
        for (std::int64_t j = 0; j < m; ++j)
          idx(o + j) = offsets ? index(start(t) + j) : index(j * sj + t * st);
      });
  p.index.resize(p.offset[n]);
  Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> hidx(
      p.index.data(), p.index.size());
  Kokkos::deep_copy(hidx, idx);
  std::vector<std::int32_t> dense(p.index.begin(), p.index.end());
  std::sort(dense.begin(), dense.end());
  dense.erase(std::unique(dense.begin(), dense.end()), dense.end());
  for (auto& i : p.index)
    i = static_cast<std::int32_t>(std::lower_bound(dense.begin(), dense.end(), i) - dense.begin());
  p.data_count = static_cast<std::int64_t>(dense.size());
  return p;
}

// Rows [j0, j1) of p as a pattern of their own (len clipped), for per-part transaction counts.
inline IrregularPattern row_slice(const IrregularPattern& p, int j0, int j1) {
  IrregularPattern q;
  q.threads = p.threads;
  q.data_count = p.data_count;
  q.elem_bytes = p.elem_bytes;
  j1 = std::min(j1, p.rows);
  j0 = std::min(j0, j1);
  q.rows = j1 - j0;
  q.len.resize(p.threads);
  for (std::int64_t t = 0; t < p.threads; ++t) q.len[t] = std::clamp(p.len[t] - j0, 0, q.rows);
  q.index.assign(static_cast<std::size_t>(q.rows) * p.threads, -1);
  for (std::int64_t t = 0; t < p.threads; ++t)
    for (int j = 0; j < q.len[t]; ++j)
      q.index[static_cast<std::size_t>(j) * p.threads + t] = p.at(j0 + j, t);
  return q;
}

// Threads [t0, t1) of p as a rows-by-threads pattern of their own (a dup chunk's shape).
inline IrregularPattern thread_slice(const IrregularPattern& p, std::int64_t t0, std::int64_t t1) {
  IrregularPattern q;
  q.threads = t1 - t0;
  q.rows = p.rows;
  q.data_count = p.data_count;
  q.elem_bytes = p.elem_bytes;
  q.len.assign(p.len.begin() + t0, p.len.begin() + t1);
  q.index.assign(static_cast<std::size_t>(q.rows) * q.threads, -1);
  for (std::int64_t t = t0; t < t1; ++t)
    for (int j = 0; j < p.len[t]; ++j)
      q.index[static_cast<std::size_t>(j) * q.threads + (t - t0)] = p.at(j, t);
  return q;
}

// A host planner's time (ms) on `host` scaled to `threads`: timed on the whole of host where it
// is already a sample (fewer threads than `threads`), else on its first 1/32 (at least
// min_threads, at most all of them; a multiple of 32).
template <class Plan>
double time_on_slice_ms(const IrregularPattern& host, std::int64_t threads,
                        std::int64_t min_threads, Plan&& plan) {
  const std::int64_t part =
      host.threads < threads
          ? host.threads
          : std::min(host.threads,
                     std::max<std::int64_t>(min_threads, host.threads / 32) / 32 * 32);
  if (part <= 0) return -1;
  IrregularPattern slice;
  if (part < host.threads) slice = thread_slice(host, 0, part);
  const auto t0 = std::chrono::steady_clock::now();
  plan(part < host.threads ? slice : host);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return ms * static_cast<double>(threads) / static_cast<double>(part);
}

}  // namespace mdremap::remap

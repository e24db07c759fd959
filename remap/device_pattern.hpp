#pragma once
// The device view of an irregular reference A[P[j][t]] (BRIEF section 5), the value type kernels
// reduce into, and the host copy the planners need.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>

#include "mdremap/remap/pattern.hpp"

namespace mdremap::remap {

// P on the device: entry j of thread t at index[j * stride_j + t * stride_t], j < len[t].
// Rows-by-threads (stride_j = threads, stride_t = 1) is the layout the papers optimise.
struct PatternView {
  Kokkos::View<const int*> index;
  Kokkos::View<const int*> len;
  std::int64_t threads = 0;
  int rows = 0;  // max len[t]
  std::int64_t stride_j = 0, stride_t = 1;
  std::int64_t data_count = 0;  // elements of A
};

// Two sums a compute body reduces (an app's two observables, e.g. energy and virial).
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

// Host copy in the planners' layout (index[j*T+t], rows = max len); entries past len are -1.
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
  p.index.assign(static_cast<std::size_t>(p.rows) * T, -1);
  for (std::int64_t t = 0; t < T; ++t) p.len[t] = std::min<int>(hlen(t), p.rows);
  for (int j = 0; j < p.rows; ++j)
    for (std::int64_t t = 0; t < T; ++t)
      if (j < p.len[t]) p.index[j * T + t] = hidx(j * pv.stride_j + t * pv.stride_t);
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
  q.index.assign(p.index.begin() + static_cast<std::size_t>(j0) * p.threads,
                 p.index.begin() + static_cast<std::size_t>(j1) * p.threads);
  return q;
}

// Threads [t0, t1) of p as a pattern of their own (a dup chunk's shape).
inline IrregularPattern thread_slice(const IrregularPattern& p, std::int64_t t0, std::int64_t t1) {
  IrregularPattern q;
  q.threads = t1 - t0;
  q.rows = p.rows;
  q.data_count = p.data_count;
  q.elem_bytes = p.elem_bytes;
  q.len.assign(p.len.begin() + t0, p.len.begin() + t1);
  q.index.resize(static_cast<std::size_t>(q.rows) * q.threads);
  for (int j = 0; j < p.rows; ++j)
    std::copy(p.index.begin() + j * p.threads + t0, p.index.begin() + j * p.threads + t1,
              q.index.begin() + static_cast<std::size_t>(j) * q.threads);
  return q;
}

}  // namespace mdremap::remap

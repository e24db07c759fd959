#pragma once
// A thread's references split over L consecutive lanes of a warp (remap.lanes, the gather's
// option): lane l of thread t reads references j = l, l + L, l + 2L, ... and the lanes' partial
// results are summed by shuffles within the group. A small pattern (few threads, many references
// each: an MD list of 32,000 atoms) leaves most of a GPU idle with one thread per pattern thread;
// L lanes each put L times the threads in flight, each with 1/L of the serial chain of loads.
// LAMMPS KOKKOS runs its small neighbour loops the same way (team threads over one atom's
// neighbours). The lanes of one thread always lie in one warp: the launch is threads x L
// indices, aligned to 32 (RangePolicy chunks of 32).
//
// A body that can be split declares kSplitsOverLanes = true and
//   template <bool EV, int L, class Access>
//   KOKKOS_FUNCTION void thread_lanes(std::int64_t t, int lane, const Access& a, Sums& s) const;
// which walks its lane's references and combines per-thread outputs with LaneGroup<L>::sum
// (every lane of the group must call it); what it adds to `s` is summed over all lanes by the
// range reduction.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "mdremap/error.hpp"
#include "mdremap/remap/accessors.hpp"

namespace mdremap::remap {

constexpr int kMaxLanes = 32;
// Whether this build's default execution space is CUDA, the one backend whose warp shuffles
// LaneGroup uses: lanes > 1 run there only.
#if defined(KOKKOS_ENABLE_CUDA)
constexpr bool kLanesOnDevice = std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>;
#else
constexpr bool kLanesOnDevice = false;
#endif
// 1, 2, 4, 8, 16 or 32.
constexpr bool valid_lanes(int l) {
  return l >= 1 && l <= kMaxLanes && (l & (l - 1)) == 0;
}

#if defined(__CUDA_ARCH__)
KOKKOS_FORCEINLINE_FUNCTION unsigned hardware_lane() {
  unsigned l;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}
#endif

// The L lanes serving one thread.
template <int L>
struct LaneGroup {
  static_assert(valid_lanes(L), "lanes: a power of two <= 32");
  // v summed over the group's lanes (every lane gets the sum), by a butterfly of shuffles.
  template <class V>
  KOKKOS_FORCEINLINE_FUNCTION static V sum(V v) {
#if defined(__CUDA_ARCH__)
    if constexpr (L > 1) {
      const unsigned first = hardware_lane() & ~unsigned(L - 1);
      const unsigned mask = L == 32 ? 0xffffffffu : ((1u << L) - 1u) << first;
#pragma unroll
      for (int d = L / 2; d >= 1; d /= 2) v += __shfl_xor_sync(mask, v, d, L);
    }
#else
    if constexpr (L > 1) Kokkos::abort("remap lanes: more than one lane a thread needs CUDA");
#endif
    return v;
  }
};

// Lanes for a pattern of `threads` threads on a device that keeps `resident` threads in flight:
// the fewest (a power of two, at most max_lanes) that fill it.
inline int lanes_for(std::int64_t threads, std::int64_t resident, int max_lanes) {
  int l = 1;
  while (l < max_lanes && threads * l < resident) l *= 2;
  return l;
}

template <class Body, class = void>
struct BodySplitsOverLanes : std::false_type {};
template <class Body>
struct BodySplitsOverLanes<Body, std::void_t<decltype(Body::kSplitsOverLanes)>>
    : std::bool_constant<Body::kSplitsOverLanes> {};

// Launch index i serves thread t0 + i / L as its lane i % L.
template <class Body, class Access, int L>
struct LanesRangeCompute {
  using Sums = body_sums_t<Body>;
  Body body;
  Access acc;
  std::int64_t t0 = 0;
  template <bool EV>
  KOKKOS_FORCEINLINE_FUNCTION void lane(const int i, Sums& s) const {
#if defined(__CUDA_ARCH__)
    // The group must be a warp's lanes; the launch guarantees it (chunks of 32), this checks.
    if ((hardware_lane() ^ unsigned(i)) & unsigned(L - 1))
      Kokkos::abort("remap lanes: a thread's lanes are not aligned in the warp");
#endif
    body.template thread_lanes<EV, L>(t0 + i / L, i % L, acc, s);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    Sums s;
    lane<false>(i, s);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int i, Sums& s) const {
    lane<true>(i, s);
  }
};

namespace detail {
template <int L, class Exec, class Body, class Access, class Sums>
void launch_lanes_of(const char* label, const Exec& exec, const Body& body, const Access& acc,
                     std::int64_t t0, std::int64_t t1, bool ev, Sums& sums) {
  const std::int64_t n = (t1 - t0) * L;
  if (n > std::numeric_limits<int>::max())
    throw Error(std::string(label) + ": more than 2^31 - 1 lanes in one launch");
  Kokkos::RangePolicy<Exec, Kokkos::IndexType<int>> policy(exec, 0, static_cast<int>(n));
  policy.set_chunk_size(32);  // every block's range starts on a warp boundary
  const LanesRangeCompute<Body, Access, L> k{body, acc, t0};
  if (ev) {
    Sums s;
    Kokkos::parallel_reduce(label, policy, k, Kokkos::Sum<Sums>(s));
    sums += s;
  } else {
    BodyLanesForPolicy<Body, Exec> bounded(exec, 0, static_cast<int>(n));
    bounded.set_chunk_size(32);
    Kokkos::parallel_for(label, bounded, k);
  }
}
}  // namespace detail

// Launches body over threads [t0, t1), each on `lanes` lanes; with ev, reduces (blocking).
template <class Exec, class Body, class Access, class Sums>
void launch_lanes(const char* label, const Exec& exec, const Body& body, const Access& acc,
                  std::int64_t t0, std::int64_t t1, int lanes, bool ev, Sums& sums) {
  if (t1 <= t0) return;
  switch (lanes) {
    case 2:
      return detail::launch_lanes_of<2>(label, exec, body, acc, t0, t1, ev, sums);
    case 4:
      return detail::launch_lanes_of<4>(label, exec, body, acc, t0, t1, ev, sums);
    case 8:
      return detail::launch_lanes_of<8>(label, exec, body, acc, t0, t1, ev, sums);
    case 16:
      return detail::launch_lanes_of<16>(label, exec, body, acc, t0, t1, ev, sums);
    case 32:
      return detail::launch_lanes_of<32>(label, exec, body, acc, t0, t1, ev, sums);
    default:
      throw Error(std::string(label) + ": lanes must be 2, 4, 8, 16 or 32, not " +
                  std::to_string(lanes));
  }
}

}  // namespace mdremap::remap

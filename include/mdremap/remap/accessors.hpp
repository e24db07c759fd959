#pragma once
// How a compute body reads its irregular reference (BRIEF section 5). Every strategy hands the
// body an accessor with the same call shape, so a kernel written once runs under any of them:
//   a.count(t)      len[t]
//   a(j, t)         A[P[j][t]], the j-th element thread t references
//   a.weight(j, t)  the per-reference coefficient stored like the index (PatternView::weight)
// The `gather` baseline below reads A[P[j][t]] straight through the index; the other strategies'
// accessors live beside them.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "mdremap/remap/device_pattern.hpp"
#include "mdremap/remap/options.hpp"

namespace mdremap::remap {

template <class T, GatherPath Path>
struct GatherTraits {
  using type = Kokkos::MemoryTraits<0>;
};
template <class T>
struct GatherTraits<T, GatherPath::ReadOnly> {
  using type = Kokkos::MemoryTraits<Kokkos::RandomAccess>;
};

// Where entry j of thread t sits in a pattern's index (and weight) array, per layout.
template <PatternLayout L>
struct PatternPos {
  std::int64_t stride_j = 0;  // Strided: rows-by-threads (the papers' layout): stride_j >= threads
  std::int64_t stride_t = 1;
  Kokkos::View<const std::int64_t*> start;  // Offsets: start[t]
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(const int j, const std::int64_t t) const {
    if constexpr (L == PatternLayout::Strided)
      return j * stride_j + t * stride_t;
    else
      return start(t) + j;
  }
  static PatternPos of(const PatternView& pv) { return {pv.stride_j, pv.stride_t, pv.start}; }
};

// seed 003 Algorithm 3's read-only path on CUDA: the read-only data cache (LDG.E.CONSTANT).
// Kokkos' RandomAccess trait issues __ldg only for values of 4, 8 or 16 bytes; a 32-byte record
// (a double-precision position) would get plain loads, so a record of 16k bytes is read as k
// 16-byte __ldg. Host builds read the element in place.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T load_readonly(const T* p) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) % 16 == 0 && alignof(T) >= 16) {
    T v;
    auto* d = reinterpret_cast<int4*>(&v);
    const auto* s = reinterpret_cast<const int4*>(p);
#pragma unroll
    for (int k = 0; k < static_cast<int>(sizeof(T) / 16); ++k) d[k] = __ldg(s + k);
    return v;
  } else if constexpr (sizeof(T) == 8 && alignof(T) >= 8) {
    T v;
    *reinterpret_cast<int2*>(&v) = __ldg(reinterpret_cast<const int2*>(p));
    return v;
  } else if constexpr (sizeof(T) == 4 && alignof(T) >= 4) {
    T v;
    *reinterpret_cast<int*>(&v) = __ldg(reinterpret_cast<const int*>(p));
    return v;
  } else {
    return *p;
  }
#else
  return *p;
#endif
}

// Element e of A through the path. CUDA builds return a copy (read-only loads, above); host
// builds a reference (no copy on CPUs).
template <GatherPath Path, class V>
KOKKOS_FORCEINLINE_FUNCTION decltype(auto) path_element(const V& data, const std::int64_t e) {
  using T = typename V::non_const_value_type;
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (Path == GatherPath::ReadOnly)
    return T(load_readonly(data.data() + e));
  else
    return T(data(e));
#else
  return static_cast<const T&>(data.data()[e]);
#endif
}

template <class T, GatherPath Path = GatherPath::ReadOnly, PatternLayout L = PatternLayout::Strided>
struct GatherAccess {
  // AccessTraits (below): the strided index as given, and A itself.
  static constexpr bool kIndexWalk = L == PatternLayout::Strided;
  Kokkos::View<const T*, typename GatherTraits<T, Path>::type> data;  // A
  Kokkos::View<const int*> index;                                     // P
  Kokkos::View<const int*> len;                                       // len[t]
  std::int64_t stride_j = 0;                                          // Strided layout
  std::int64_t stride_t = 1;
  Kokkos::View<const std::int64_t*> start;  // Offsets layout
  Kokkos::View<const double*> weights;      // optional, stored like the index

  static GatherAccess of(const PatternView& pv, Kokkos::View<const T*> a) {
    return {a, pv.index, pv.len, pv.stride_j, pv.stride_t, pv.start, pv.weight};
  }
  KOKKOS_INLINE_FUNCTION std::int64_t pos(const int j, const std::int64_t t) const {
    if constexpr (L == PatternLayout::Strided)
      return j * stride_j + t * stride_t;
    else
      return start(t) + j;
  }
  KOKKOS_INLINE_FUNCTION int count(const std::int64_t t) const { return len(t); }
  KOKKOS_INLINE_FUNCTION int source(const int j, const std::int64_t t) const {
    return index(pos(j, t));
  }
  KOKKOS_INLINE_FUNCTION decltype(auto) element(const std::int64_t e) const {
    return path_element<Path>(data, e);
  }
  KOKKOS_INLINE_FUNCTION decltype(auto) operator()(const int j, const std::int64_t t) const {
    return element(source(j, t));
  }
  KOKKOS_INLINE_FUNCTION double weight(const int j, const std::int64_t t) const {
    return weights(pos(j, t));
  }
};

// The layout a compute body is written for: Body::kLayout (Strided when it does not say).
template <class Body, class = void>
struct BodyLayout {
  static constexpr PatternLayout value = PatternLayout::Strided;
};
template <class Body>
struct BodyLayout<Body, std::void_t<decltype(Body::kLayout)>> {
  static constexpr PatternLayout value = Body::kLayout;
};
template <class Body>
inline constexpr PatternLayout body_layout_v = BodyLayout<Body>::value;

// A body that writes through the pattern (Body::kWritesThroughPattern: an MD half list scatters
// partner forces) can only be served by strategies that read A in place (the gather).
template <class Body, class = void>
struct BodyWrites : std::false_type {};
template <class Body>
struct BodyWrites<Body, std::void_t<decltype(Body::kWritesThroughPattern)>>
    : std::bool_constant<Body::kWritesThroughPattern> {};
template <class Body>
inline constexpr bool body_writes_through_pattern_v = BodyWrites<Body>::value;

// A body may ask its non-reducing range kernels (a thread each, or L lanes each: lanes.hpp) to
// keep kMinBlocksPerSm blocks of 256 threads resident per multiprocessor (a register cap, CUDA's
// __launch_bounds__), and its lanes kernels (L > 1) kLanesMinBlocksPerSm instead where it names
// one; 0: the compiler's choice. The reducing kernel (thermo steps) keeps the compiler's choice.
template <class Body, class = void>
struct BodyMinBlocks {
  static constexpr unsigned value = 0;
};
template <class Body>
struct BodyMinBlocks<Body, std::void_t<decltype(Body::kMinBlocksPerSm)>> {
  static constexpr unsigned value = Body::kMinBlocksPerSm;
};
template <class Body, class = void>
struct BodyLanesMinBlocks : BodyMinBlocks<Body> {};
template <class Body>
struct BodyLanesMinBlocks<Body, std::void_t<decltype(Body::kLanesMinBlocksPerSm)>> {
  static constexpr unsigned value = Body::kLanesMinBlocksPerSm;
};
// A non-reducing range policy with at least MinBlocks blocks of 256 resident (0: no cap).
template <class Exec, unsigned MinBlocks>
using CappedRangePolicy = std::conditional_t<
    (MinBlocks > 0),
    Kokkos::RangePolicy<Exec, Kokkos::IndexType<int>, Kokkos::LaunchBounds<256, MinBlocks>>,
    Kokkos::RangePolicy<Exec, Kokkos::IndexType<int>>>;
// The range policy of a body's non-reducing kernels: the body's register cap where it asks one.
template <class Body, class Exec>
using BodyForPolicy = CappedRangePolicy<Exec, BodyMinBlocks<Body>::value>;
// The same for its lanes kernels.
template <class Body, class Exec>
using BodyLanesForPolicy = CappedRangePolicy<Exec, BodyLanesMinBlocks<Body>::value>;

// The value a body's executions reduce (energy, virial; or the body's own Body::Sums).
template <class Body, class = void>
struct BodySums {
  using type = Sums2;
};
template <class Body>
struct BodySums<Body, std::void_t<typename Body::Sums>> {
  using type = typename Body::Sums;
};
template <class Body>
using body_sums_t = typename BodySums<Body>::type;

// What a compute body may rely on of an accessor beyond count(t), a(j, t) and weight(j, t), for
// a walk of its own (software pipelining, SIMD on the host). Each accessor declares what it
// offers; the rest is false.
//   kIndexWalk:         the pattern's strided index as given (index, stride_j, stride_t) and A
//                       itself (data, element(e) = A[e]): the body may load the index and then
//                       the elements its own way;
//   kNumberedElements:  element(e, k) also takes the reference's place k in the thread's walk
//                       (the split path alternates the L1's pipes by it);
//   kInOrderOnly:       the references are known only in order, through for_each(t, f) (the
//                       16-bit index, delta_index.hpp).
template <class Access>
struct AccessTraits {
 private:
  template <class A>
  static constexpr bool index_walk(decltype(A::kIndexWalk)*) {
    return A::kIndexWalk;
  }
  template <class A>
  static constexpr bool index_walk(...) {
    return false;
  }
  template <class A>
  static constexpr bool numbered(decltype(A::kNumberedElements)*) {
    return A::kNumberedElements;
  }
  template <class A>
  static constexpr bool numbered(...) {
    return false;
  }
  template <class A>
  static constexpr bool in_order(decltype(A::kInOrderOnly)*) {
    return A::kInOrderOnly;
  }
  template <class A>
  static constexpr bool in_order(...) {
    return false;
  }

 public:
  static constexpr bool kIndexWalk = index_walk<Access>(nullptr);
  static constexpr bool kNumberedElements = numbered<Access>(nullptr);
  static constexpr bool kInOrderOnly = in_order<Access>(nullptr);
};

}  // namespace mdremap::remap

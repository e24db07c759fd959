#pragma once
// A strided pattern's index in 16 bits (remap.index_bits = 16, the gather's compressed index).
// Reference j of thread t is stored as its difference from reference j - 1 (reference 0: from t
// itself), two 16-bit codes to a 32-bit word, word p of every thread contiguous (the pattern's
// column-major layout: a warp's threads read one 128-byte line per word row). A difference
// outside int16 is the escape code 0x8000, whose absolute index is the thread's next entry of a
// side table (`far`, also column-major). The references come out in the order of the 32-bit
// index, so a kernel that walks each thread's references in order reads the same data in the same
// order: its results are bit-identical, from about half the index bytes where consecutive
// references lie within 32,767 of each other (atoms sorted in space: an MD neighbour list's
// stencil runs; the rows' jumps between cell layers and to ghost images take the escapes). The
// side table has as many rows as the thread with the most escapes, times every thread: on
// shuffled data it approaches the 32-bit index's size, which stays allocated beside it (the other
// strategies and the list build read it).
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "mdremap/remap/accessors.hpp"
#include "mdremap/remap/device_pattern.hpp"

namespace mdremap::remap {

inline constexpr std::uint32_t kDeltaEscape = 0x8000u;

struct DeltaIndex {
  Kokkos::View<std::uint32_t*> words;  // word_rows * threads
  Kokkos::View<int*> far;              // far_rows * threads (at least one row)
  std::int64_t threads = 0;
  int word_rows = 0, far_rows = 0;
  std::int64_t references = 0, escapes = 0;  // of the last encode (escapes: references in far)
  std::int64_t bytes() const {
    return static_cast<std::int64_t>(words.extent(0)) * 4 +
           static_cast<std::int64_t>(far.extent(0)) * 4;
  }
};

// Encodes pv (Strided layout; std::invalid_argument otherwise) into d, growing its arrays when
// the pattern needs more rows than they hold. Two device passes over the index (escapes counted,
// then codes written) and one reduction read back to the host.
void encode_delta16(const PatternView& pv, DeltaIndex& d);

// The gather through the compressed index: element A[P[j][t]] for the references of thread t in
// order (for_each), never by position (a reference's index depends on the ones before it). Only
// compute bodies that walk their rows in order take it (body_walks_in_order, strategy.hpp).
template <class T, GatherPath Path = GatherPath::ReadOnly>
struct DeltaGatherAccess {
  static constexpr bool kInOrderOnly = true;  // AccessTraits: for_each(t, f) only
  Kokkos::View<const T*, typename GatherTraits<T, Path>::type> data;
  Kokkos::View<const std::uint32_t*> words;
  Kokkos::View<const int*> far;
  Kokkos::View<const int*> len;
  std::int64_t threads = 0;
  int far_rows = 0;

  static DeltaGatherAccess of(const DeltaIndex& d, const PatternView& pv,
                              Kokkos::View<const T*> a) {
    return {a, d.words, d.far, pv.len, d.threads, d.far_rows};
  }
  KOKKOS_INLINE_FUNCTION int count(const std::int64_t t) const { return len(t); }
  KOKKOS_INLINE_FUNCTION decltype(auto) element(const std::int64_t e) const {
    return path_element<Path>(data, e);
  }

  // f(element) for each reference of thread t, in order. On CUDA two words (four references)
  // are loaded ahead of their use and a thread's next far entry one escape ahead, so the decode's
  // chain of additions never waits on memory; the index streams (cache-streaming loads), as the
  // 32-bit gather's does.
  template <class F>
  KOKKOS_FORCEINLINE_FUNCTION void for_each(const std::int64_t t, const F& f) const {
    const int cnt = len(t);
    const std::uint32_t* const w = words.data() + t;
    const int* const fr = far.data() + t;
    int prev = static_cast<int>(t);
#if defined(__CUDA_ARCH__)
    int e = 0;
    int fnext = far_rows > 0 ? __ldcs(fr) : 0;
    const auto step = [&](const std::uint32_t c) {
      if (c == kDeltaEscape) {
        prev = fnext;
        if (++e < far_rows) fnext = __ldcs(fr + e * threads);
      } else {
        prev += static_cast<std::int16_t>(static_cast<std::uint16_t>(c));
      }
      return prev;
    };
    const int full = cnt - cnt % 4;
    std::uint32_t n0 = 0, n1 = 0;
    if (full > 0) n0 = __ldcs(w), n1 = __ldcs(w + threads);
    for (int k = 0; k < full; k += 4) {
      const std::uint32_t c0 = n0, c1 = n1;
      if (k + 4 < full) {
        n0 = __ldcs(w + (k / 2 + 2) * threads);
        n1 = __ldcs(w + (k / 2 + 3) * threads);
      }
      const int j0 = step(c0 & 0xffffu), j1 = step(c0 >> 16), j2 = step(c1 & 0xffffu),
                j3 = step(c1 >> 16);
      const T x0 = element(j0), x1 = element(j1), x2 = element(j2), x3 = element(j3);
      f(x0);
      f(x1);
      f(x2);
      f(x3);
    }
    for (int k = full; k < cnt; ++k) {
      const std::uint32_t word = __ldcs(w + (k / 2) * threads);
      f(element(step((k & 1) ? word >> 16 : word & 0xffffu)));
    }
#else
    const int* next_far = fr;
    for (int k = 0; k < cnt; ++k) {
      const std::uint32_t word = w[(k / 2) * threads];
      const std::uint32_t c = (k & 1) ? word >> 16 : word & 0xffffu;
      if (c == kDeltaEscape) {
        prev = *next_far;
        next_far += threads;
      } else {
        prev += static_cast<std::int16_t>(static_cast<std::uint16_t>(c));
      }
      f(element(prev));
    }
#endif
  }
};

template <class Access>
struct IsDeltaGather : std::false_type {};
template <class T, GatherPath P>
struct IsDeltaGather<DeltaGatherAccess<T, P>> : std::true_type {};

}  // namespace mdremap::remap

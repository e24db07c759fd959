#pragma once
// The `gather` baseline of the remap layer: kernels read A[P[j][t]] straight through the index
// (BRIEF section 5). Other strategies provide accessors with the same call shape, so a compute
// kernel written once against `access(j, t)` runs under any strategy.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "mdremap/remap/gather_path.hpp"

namespace mdremap::remap {

// Memory path for the gathered data (GatherPath, gather_path.hpp; seed 003 Algorithm 3): plain
// global loads, the read-only data cache, or texture objects (remap/texture.hpp). Which one an
// app's reference needs is computed from its index arrays by select_memory (memory_selection.hpp).

template <class T, GatherPath Path>
struct GatherTraits {
  using type = Kokkos::MemoryTraits<0>;
};
template <class T>
struct GatherTraits<T, GatherPath::ReadOnly> {
  using type = Kokkos::MemoryTraits<Kokkos::RandomAccess>;
};

template <class T, GatherPath Path = GatherPath::ReadOnly>
struct GatherAccess {
  Kokkos::View<const T*, typename GatherTraits<T, Path>::type> data;  // A
  Kokkos::View<const int*> index;  // P: entry j of thread t at j * stride_j + t * stride_t
  Kokkos::View<const int*> len;    // len[t]
  std::int64_t stride_j = 0;       // rows-by-threads (the papers' layout): stride_j = threads
  std::int64_t stride_t = 1;

  KOKKOS_INLINE_FUNCTION int count(const std::int64_t t) const { return len(t); }
  KOKKOS_INLINE_FUNCTION int source(const int j, const std::int64_t t) const {
    return index(j * stride_j + t * stride_t);
  }
  KOKKOS_INLINE_FUNCTION decltype(auto) operator()(const int j, const std::int64_t t) const {
    return data(source(j, t));
  }
};

}  // namespace mdremap::remap

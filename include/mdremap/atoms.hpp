#pragma once
// Per-atom device arrays in storage precision S. Position w holds the type (small integers are
// exact in float), so one vector load gives a neighbour's position and type.
#include <cstdint>

#include "mdremap/types.hpp"

namespace mdremap {

template <class S>
struct AtomArrays {
  std::int64_t n = 0;
  Kokkos::View<Vec4<S>*> x;        // position + type
  Kokkos::View<S* [3]> v;          // velocity
  Kokkos::View<S* [3]> f;          // force
  Kokkos::View<int*> type;         // 0-based type index
  Kokkos::View<std::int64_t*> id;  // persistent atom id (0-based)

  void allocate(std::int64_t n_) {
    n = n_;
    x = Kokkos::View<Vec4<S>*>(Kokkos::view_alloc("x", Kokkos::WithoutInitializing), n);
    v = Kokkos::View<S* [3]>("v", n);
    f = Kokkos::View<S* [3]>("f", n);
    type = Kokkos::View<int*>("type", n);
    id = Kokkos::View<std::int64_t*>("id", n);
  }
};

// Small per-type table passed by value into kernels (kernel arguments live in constant memory
// on CUDA: seed 003 Algorithm 3 puts small read-only tables there).
constexpr int kMaxTypes = 8;
template <class T>
struct TypeTable {
  int ntypes = 1;
  T value[kMaxTypes] = {};
  KOKKOS_INLINE_FUNCTION T operator[](int t) const { return value[t]; }
};

}  // namespace mdremap

#pragma once
// Per-atom device arrays in storage precision S. Position w holds the type (small integers are
// exact in float), so one vector load gives a neighbour's position and type.
#include <cstdint>
#include <string>
#include <type_traits>

#include "mdremap/types.hpp"

namespace mdremap {

// The layout of an n x 3 per-atom array (velocity, force) whose components lie `stride` entries
// apart where the layout is column-major (the GPU's LayoutLeft): a stride of warp_multiple(n) or
// more puts every component on 128-byte lines whatever n is (n apart, the second and third began
// inside a line for most n, and every warp's load of them touched one more sector), and a
// buffer's stride stays the same when n changes. A row-major layout (the host's) has no stride.
template <class S>
typename Kokkos::View<S* [3]>::array_layout vectors_layout(std::int64_t n, std::int64_t stride) {
  using Layout = typename Kokkos::View<S* [3]>::array_layout;
  Layout layout(n, 3);
  if constexpr (std::is_same_v<Layout, Kokkos::LayoutLeft>) layout.stride = stride;
  return layout;
}
// Such an array over `data` (3 x stride entries), or allocated with stride warp_multiple(n).
template <class S>
Kokkos::View<S* [3]> vectors_over(S* data, std::int64_t n, std::int64_t stride) {
  return Kokkos::View<S* [3]>(data, vectors_layout<S>(n, stride));
} template <class S>
Kokkos::View<S* [3]> vectors_alloc(const std::string& label, std::int64_t n) {
  return Kokkos::View<S* [3]>(Kokkos::view_alloc(label), vectors_layout<S>(n, warp_multiple(n)));
}

// A contiguous host array of n x 3 (what the two copies below fill or read).
template <class S>
typename Kokkos::View<S* [3]>::HostMirror vectors_host(const std::string& label, std::int64_t n) {
  return typename Kokkos::View<S* [3]>::HostMirror(
      Kokkos::view_alloc(label, Kokkos::WithoutInitializing), n);
}

// A contiguous host copy of an n x 3 per-atom array, and the way back. Kokkos copies between
// memory spaces only contiguous arrays, and a padded one (vectors_layout) goes through a
// contiguous device array first.
template <class S>
typename Kokkos::View<S* [3]>::HostMirror vectors_to_host(const Kokkos::View<S* [3]>& v) {
  auto h = vectors_host<S>("vectors_host", v.extent(0));
  if (v.span_is_contiguous()) {
    Kokkos::deep_copy(h, v);
  } else {
    Kokkos::View<S* [3]> packed(Kokkos::view_alloc("vectors", Kokkos::WithoutInitializing),
                                v.extent(0));
    Kokkos::deep_copy(packed, v);
    Kokkos::deep_copy(h, packed);
  }
  return h;
}

template <class S>
void vectors_from_host(const Kokkos::View<S* [3]>& v,
                       const typename Kokkos::View<S* [3]>::HostMirror& h) {
  if (v.span_is_contiguous()) {
    Kokkos::deep_copy(v, h);
  } else {
    Kokkos::View<S* [3]> packed(Kokkos::view_alloc("vectors", Kokkos::WithoutInitializing),
                                v.extent(0));
    Kokkos::deep_copy(packed, h);
    Kokkos::deep_copy(v, packed);
  }
}

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
    v = vectors_alloc<S>("v", n);  // components on 128-byte lines (vectors_layout)
    f = vectors_alloc<S>("f", n);
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

#pragma once
// Basic device types shared by every layer: execution space, small vectors, the periodic box.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

namespace mdremap {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using MemSpace = ExecSpace::memory_space;
using HostExec = Kokkos::DefaultHostExecutionSpace;

// n rounded up to a multiple of 32: a warp's width, and 128 bytes (one cache line) of 4-byte
// entries. Column-major arrays whose columns lie this far apart start every column on a line.
inline std::int64_t warp_multiple(std::int64_t n) {
  return (n + 31) / 32 * 32;
}

// 16-byte (float) / 32-byte (double) packed position + type: one vector load per neighbour.
template <class T>
struct alignas(4 * sizeof(T)) Vec4 {
  T x, y, z, w;
};

enum class Precision { Double, Mixed, Single };

inline std::string to_string(Precision p) {
  switch (p) {
    case Precision::Double:
      return "double";
    case Precision::Mixed:
      return "mixed";
    case Precision::Single:
      return "single";
  }
  return "?";
}

// Orthorhombic periodic box. Minimum image with rint keeps any displacement valid, so atoms
// need wrapping only when they are binned.
template <class T>
struct Box {
  T lo[3];
  T len[3];
  T inv[3];

  Box() = default;
  template <class U>
  explicit Box(const Box<U>& o) {
    for (int d = 0; d < 3; ++d) {
      lo[d] = static_cast<T>(o.lo[d]);
      len[d] = static_cast<T>(o.len[d]);
      inv[d] = static_cast<T>(1.0 / static_cast<double>(o.len[d]));
    }
  }
  static Box make(const double lo_[3], const double len_[3]) {
    Box b;
    for (int d = 0; d < 3; ++d) {
      b.lo[d] = static_cast<T>(lo_[d]);
      b.len[d] = static_cast<T>(len_[d]);
      b.inv[d] = static_cast<T>(1.0 / len_[d]);
    }
    return b;
  }
  // Nearest integer by truncation of v +- 1/2: one conversion instruction on every target, where
  // rint/nearbyint become library calls on baseline x86-64.
  KOKKOS_INLINE_FUNCTION static T nint(const T v) {
    return static_cast<T>(static_cast<int>(v + (v >= T(0) ? T(0.5) : T(-0.5))));
  }
  KOKKOS_INLINE_FUNCTION void minimum_image(T& dx, T& dy, T& dz) const {
    dx -= len[0] * nint(dx * inv[0]);
    dy -= len[1] * nint(dy * inv[1]);
    dz -= len[2] * nint(dz * inv[2]);
  }
  double volume() const {
    return static_cast<double>(len[0]) * static_cast<double>(len[1]) * static_cast<double>(len[2]);
  }
};

}  // namespace mdremap

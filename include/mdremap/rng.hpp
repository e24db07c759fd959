#pragma once
// Counter-based random numbers: a value is a pure function of (seed, stream, counter), so results
// do not depend on thread count, atom order or backend, and a restart needs only (seed, step).
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace mdremap {

// SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mixer.
KOKKOS_INLINE_FUNCTION std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

KOKKOS_INLINE_FUNCTION std::uint64_t hash3(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  return mix64(mix64(mix64(seed) ^ a) ^ b);
}

// Uniform double in [0, 1) from 53 random bits.
KOKKOS_INLINE_FUNCTION double uniform01(std::uint64_t bits) {
  return static_cast<double>(bits >> 11) * (1.0 / 9007199254740992.0);
}

// Standard normal from two counters (Box-Muller), deterministic per (seed, a, b).
KOKKOS_INLINE_FUNCTION double gaussian(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  const double u1 = 1.0 - uniform01(hash3(seed, a, 2 * b));  // (0, 1]
  const double u2 = uniform01(hash3(seed, a, 2 * b + 1));
  return Kokkos::sqrt(-2.0 * Kokkos::log(u1)) * Kokkos::cos(6.283185307179586 * u2);
}

}  // namespace mdremap

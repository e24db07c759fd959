#pragma once
// The memory paths the running Kokkos backend offers, for decide_gather_path
// (mdremap/remap/memory_selection.hpp). Only CUDA has distinct global / read-only / texture /
// constant / shared memories; host backends have one memory path.
#include <Kokkos_Core.hpp>
#include <type_traits>

#include "mdremap/remap/memory_selection.hpp"
#include "mdremap/remap/texture.hpp"

namespace mdremap::remap {

inline MemoryBackend current_memory_backend() {
  MemoryBackend b;
  b.name = Kokkos::DefaultExecutionSpace::name();
#if defined(KOKKOS_ENABLE_CUDA)
  b.memory_spaces = std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>;
#endif
  b.texture_objects = b.memory_spaces && texture_path_available();
  return b;
}

}  // namespace mdremap::remap

#pragma once
// The memory paths a gather can read its data through (seed 003 Algorithm 3, served by
// accessors.hpp and texture.hpp). Host-only header: memory selection
// (memory_selection.hpp) maps Algorithm 3's choice onto these without including Kokkos.
namespace mdremap::remap {

// Global: plain global loads. ReadOnly: the read-only data cache (Kokkos RandomAccess on const
// data: __ldg / LDG.E.CONSTANT on CUDA; on Kepler and later this is the texture cache reached
// without the texture unit's addressing). Texture: CUDA texture objects (CUDA builds only).
// On host backends all three are plain loads through the CPU caches (Texture is refused).
enum class GatherPath { Global, ReadOnly, Texture };

// The deck / CLI spelling: "global", "readonly", "texture".
inline const char* gather_path_name(GatherPath p) {
  switch (p) {
    case GatherPath::Global:
      return "global";
    case GatherPath::ReadOnly:
      return "readonly";
    case GatherPath::Texture:
      return "texture";
  }
  return "?";
}

}  // namespace mdremap::remap

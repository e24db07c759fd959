#pragma once
// The memory paths a gather can read its data through (seed 003 Algorithm 3, served by
// accessors.hpp and texture.hpp). Host-only header: memory selection
// (memory_selection.hpp) maps Algorithm 3's choice onto these without including Kokkos.
namespace mdremap::remap {

// Global: plain global loads. ReadOnly: the read-only data cache (Kokkos RandomAccess on const
// data: __ldg / LDG.E.CONSTANT on CUDA; on Kepler and later this is the texture cache reached
// without the texture unit's addressing). Texture: CUDA texture objects (CUDA builds only).
// Split: the read-only data cache reached through both of the L1's data pipes (CUDA builds
// only; texture.hpp): a 32-byte element's first 16 bytes by __ldg (the load/store pipe), its
// second by a texture fetch (the texture pipe); 16-byte elements alternately through the two.
// A gather of scattered 32-byte records can be bound by the load/store pipe's wavefronts while the
// texture pipe idles: split gives each pipe half the load. On host backends all of them are plain
// loads through the CPU caches (Texture and Split are refused).
enum class GatherPath { Global, ReadOnly, Texture, Split };

// The deck / CLI spelling: "global", "readonly", "texture", "split".
inline const char* gather_path_name(GatherPath p) {
  switch (p) {
    case GatherPath::Global:
      return "global";
    case GatherPath::ReadOnly:
      return "readonly";
    case GatherPath::Texture:
      return "texture";
    case GatherPath::Split:
      return "split";
  }
  return "?";
}

}  // namespace mdremap::remap

#pragma once
// How much shared memory one thread block may stage (seed 001 §3.4: sharing loads a block's
// working set there). Kokkos 4.6's TeamPolicy caps level-0 team scratch at the device's default
// per-block limit (sharedMemPerBlock, 48 KB on NVIDIA GPUs, less Kokkos' own reserve) and never
// opts a kernel in to more; since Volta a block may opt in to more (227 KB on Hopper) through
// cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize).
#include <cstdint>

namespace mdremap::remap {

// cudaDevAttrMaxSharedMemoryPerBlockOptin of the current CUDA device; 0 on builds without CUDA.
// Queried once. Throws mdremap::Error if the CUDA query fails.
std::int64_t device_optin_shared_bytes();

}  // namespace mdremap::remap

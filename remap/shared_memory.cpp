// Compiled as a Kokkos source (CUDA on CUDA builds) for the device query.
#include "mdremap/remap/impl/shared_memory.hpp"

#include <Kokkos_Macros.hpp>
#include <string>

#include "mdremap/error.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime.h>
#endif

namespace mdremap::remap {

std::int64_t device_optin_shared_bytes() {
#ifdef KOKKOS_ENABLE_CUDA
  static const std::int64_t bytes = [] {
    int dev = 0, v = 0;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess)
      err = cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    if (err != cudaSuccess)
      throw Error(std::string("cannot query the GPU's opt-in shared memory per block "
                              "(cudaDevAttrMaxSharedMemoryPerBlockOptin): ") +
                  cudaGetErrorString(err));
    return static_cast<std::int64_t>(v);
  }();
  return bytes;
#else
  return 0;
#endif
}

}  // namespace mdremap::remap

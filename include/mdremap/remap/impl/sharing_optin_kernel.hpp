#pragma once
// The sharing compute (seed 001 §3.4) as a plain CUDA kernel, for the launch classes whose staged
// set exceeds what a Kokkos team may have: Kokkos 4.6 checks team scratch against
// sharedMemPerBlock (48 KB) and never raises cudaFuncAttributeMaxDynamicSharedMemorySize, while a
// Hopper block may opt in to 227 KB (shared_memory.hpp). The kernel does what SharingTeamKernel
// does (stage the set coalesced, barrier, compute from shared memory), on the Kokkos default
// instance's stream, so it is ordered with the pack before it and the app's kernels after it.
// Compiled only where CUDA code is (a CUDA translation unit of a Kokkos CUDA build).
#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#define MDREMAP_SHARING_OPTIN 1
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "mdremap/error.hpp"
#include "mdremap/remap/impl/sharing_device_plan.hpp"

namespace mdremap::remap::optin {

// Block b of the launch runs sub-block order(first + b) of the plan with blockDim.x threads.
template <class K, bool EV>
__global__ void sharing_kernel(const K k, const std::int64_t first,
                               typename K::Sums* __restrict__ partial) {
  extern __shared__ __align__(128) unsigned char smem[];
  using T = typename K::value_type;
  using Sums = typename K::Sums;
  const int leaf = k.order(first + blockIdx.x);
  const int n = k.block_sizes(leaf);
  const std::int64_t pos = k.block_pos(leaf);
  T* s = reinterpret_cast<T*>(smem);
  for (int q = threadIdx.x; q < n; q += blockDim.x) s[q] = k.packed(pos + q);
  __syncthreads();
  const auto acc = k.access(s);
  const std::int64_t t0 = k.block_begin(leaf);
  const int nt = static_cast<int>(k.block_begin(leaf + 1) - t0);
  Sums v;
  for (int i = threadIdx.x; i < nt; i += blockDim.x) k.body.template thread<EV>(t0 + i, acc, v);
  if constexpr (EV) {
    __syncthreads();  // nobody reads the staged set any more: its space takes the partial sums
    Sums* red = reinterpret_cast<Sums*>(smem);
    red[threadIdx.x] = v;
    __syncthreads();
    for (unsigned h = 1; h < blockDim.x; h *= 2) {
      if (threadIdx.x % (2 * h) == 0 && threadIdx.x + h < blockDim.x)
        red[threadIdx.x] += red[threadIdx.x + h];
      __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = red[0];
  }
}

inline void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess)
    throw Error(std::string("sharing: ") + what + " failed: " + cudaGetErrorString(err));
}

// Raises the kernel's dynamic shared memory limit once per size it has not had yet.
template <class K, bool EV>
void opt_in(std::size_t bytes) {
  static std::size_t granted = 48 * 1024;
  if (bytes <= granted) return;
  check(cudaFuncSetAttribute(sharing_kernel<K, EV>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(bytes)),
        "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
  granted = bytes;
}

template <class Sums>
struct PartialSum {
  const Sums* partial;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, Sums& s) const { s += partial[i]; }
};

// One launch class; with ev, the blocks' partial sums are reduced into `sums` (blocking, as the
// Kokkos reductions of the other classes are). `scratch` holds the partial sums between calls.
template <class K, class Sums>
void launch(const K& k, const SharingLaunchClass& c, bool ev, Sums& sums,
            Kokkos::View<unsigned char*>& scratch) {
  // CUDA 12.1+ takes kernel parameters up to 32,764 bytes on Volta and later.
  static_assert(sizeof(K) <= 32000, "sharing: compute body too large for a kernel parameter");
  const std::size_t bytes =
      std::max<std::size_t>(c.scratch_bytes, ev ? c.team * sizeof(Sums) : std::size_t{0});
  const cudaStream_t stream = Kokkos::DefaultExecutionSpace().cuda_stream();
  if (ev) {
    opt_in<K, true>(bytes);
    if (scratch.extent(0) < c.count * sizeof(Sums))
      scratch = Kokkos::View<unsigned char*>(
          Kokkos::view_alloc("Remap::sharing_partial_sums", Kokkos::WithoutInitializing),
          c.count * sizeof(Sums));
    Sums* partial = reinterpret_cast<Sums*>(scratch.data());
    sharing_kernel<K, true>
        <<<static_cast<unsigned>(c.count), c.team, bytes, stream>>>(k, c.first, partial);
    check(cudaGetLastError(), "the opt-in shared memory kernel launch");
    Sums s;
    Kokkos::parallel_reduce("Remap::sharing_partial_sums",
                            Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>(0, c.count),
                            PartialSum<Sums>{partial}, Kokkos::Sum<Sums>(s));
    sums += s;
  } else {
    opt_in<K, false>(bytes);
    sharing_kernel<K, false>
        <<<static_cast<unsigned>(c.count), c.team, bytes, stream>>>(k, c.first, nullptr);
    check(cudaGetLastError(), "the opt-in shared memory kernel launch");
  }
}

}  // namespace mdremap::remap::optin

#endif

#pragma once
// A reduction of two sums over the slots of a kernel that also does its own work per slot (the
// CG iteration's SpMV with its dot products in it, sell_spmv.cpp): f(t, acc) for t in [0, n),
// the sums into device memory without waiting.
//
// On CUDA blocks of 256 threads, as many as the GPU holds at once (one resident grid), each
// thread looping over the slots t, t + the grid's threads, ...: a block sums its threads by warp
// shuffles, writes its partial, and the last blocks to finish (tickets counted atomically after a
// memory fence) sum the partials in a fixed order, in two levels (slot_reduce): one kernel, the
// same result every run (for a given grid: the device's). One resident grid ran the CG iteration
// faster than a block per 256 slots on most matrices, two or four resident grids between the two
// (docs/benchmarks.md). Kokkos' team-policy reduction of the same functor ran slower than the SpMV
// and a separate reduction, and the layer's gather of CSR rows in its range-policy reduction
// reached a fraction of DRAM bandwidth. Elsewhere Kokkos' range reduction.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "mdremap/error.hpp"
#include "mdremap/remap/device_pattern.hpp"

namespace mdremap::cg {

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
namespace slot_reduction_detail {

inline constexpr int kBlock = 256;

// The block's sum in thread 0 (every thread calls it; the shared scratch is free again after).
__device__ inline remap::Sums2 block_sum(remap::Sums2 a) {
  __shared__ double w0[kBlock / 32], w1[kBlock / 32];
  for (int o = 16; o > 0; o >>= 1) {
    a.s0 += __shfl_down_sync(0xffffffffu, a.s0, o);
    a.s1 += __shfl_down_sync(0xffffffffu, a.s1, o);
  }
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) {
    w0[warp] = a.s0;
    w1[warp] = a.s1;
  }
  __syncthreads();
  remap::Sums2 b;
  if (warp == 0) {
    if (lane < kBlock / 32) {
      b.s0 = w0[lane];
      b.s1 = w1[lane];
    }
    for (int o = 16; o > 0; o >>= 1) {
      b.s0 += __shfl_down_sync(0xffffffffu, b.s0, o);
      b.s1 += __shfl_down_sync(0xffffffffu, b.s1, o);
    }
  }
  __syncthreads();
  return b;
}

// Sums partial[first, first + count) (written by other blocks) in a fixed order: thread i takes
// i, i + kBlock, ...; read from the L2, where the other blocks wrote them.
__device__ inline remap::Sums2 sum_partials(const remap::Sums2* partial, unsigned first,
                                            unsigned count) {
  remap::Sums2 b;
  for (unsigned i = threadIdx.x; i < count; i += kBlock) {
    b.s0 += __ldcg(&partial[first + i].s0);
    b.s1 += __ldcg(&partial[first + i].s1);
  }
  return block_sum(b);
}

// Each thread's slots t = its index, + the grid's threads, ... (the grid: SlotReduction::run).
// Two levels of "last block sums": the blocks in groups of kBlock, the last block of a group to
// finish sums the group's partials (one load a thread), the last group to finish sums the
// groups'. Each finisher waits about one L2 round trip, not a loop over every block's partial
// (one last block looping over tens of thousands of partials was no faster, and slower with four
// loads in flight a thread; partials per warp instead of per block, without the block's barrier,
// were slower). tickets[g] counts group g's blocks, tickets[groups] the groups; each is reset by
// its finisher for the next launch in the stream.
template <class F>
__global__ void __launch_bounds__(kBlock)
    slot_reduce(const F f, const std::int64_t n, remap::Sums2* partial, remap::Sums2* group_sum,
                unsigned* tickets, remap::Sums2* out) {
  remap::Sums2 a;
  const std::int64_t stride = std::int64_t(gridDim.x) * kBlock;
  for (std::int64_t t = std::int64_t(blockIdx.x) * kBlock + threadIdx.x; t < n; t += stride)
    f(t, a);
  a = block_sum(a);
  const unsigned groups = (gridDim.x + kBlock - 1) / kBlock;
  const unsigned g = blockIdx.x / kBlock, first = g * kBlock;
  const unsigned in_group = min(unsigned(kBlock), gridDim.x - first);
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = a;
    __threadfence();  // the partial is visible before the ticket counts it
    last = atomicAdd(&tickets[g], 1u) == in_group - 1;
    if (last) __threadfence();  // the reader's side: the partials counted before are seen
  }
  __syncthreads();
  if (!last) return;
  const remap::Sums2 b = sum_partials(partial, first, in_group);
  if (threadIdx.x == 0) {
    group_sum[g] = b;
    tickets[g] = 0;
    __threadfence();
    last = atomicAdd(&tickets[groups], 1u) == groups - 1;
    if (last) __threadfence();
  }
  __syncthreads();
  if (!last) return;
  const remap::Sums2 c = sum_partials(group_sum, 0, groups);
  if (threadIdx.x == 0) {
    *out = c;
    tickets[groups] = 0;
  }
}

}  // namespace slot_reduction_detail
#endif

class SlotReduction {
 public:
  // out = the sums of f(t, acc) over t in [0, n), in the default execution space's stream.
  template <class F>
  void run(const char* label, std::int64_t n, const F& f, Kokkos::View<remap::Sums2> out) {
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
    if constexpr (std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>) {
      namespace d = slot_reduction_detail;
      std::int64_t blocks = (n + d::kBlock - 1) / d::kBlock;
      if (resident_ == 0) {
        int per_sm = 0, sms = 0, dev = 0;
        const auto check = [&](cudaError_t e, const char* what) {
          if (e != cudaSuccess)
            throw Error(std::string(label) + ": " + what + ": " + cudaGetErrorString(e));
        };
        check(cudaGetDevice(&dev), "cudaGetDevice");
        check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev),
              "cudaDeviceGetAttribute");
        check(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, d::slot_reduce<F>, d::kBlock, 0),
            "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        resident_ = std::max<std::int64_t>(1, std::int64_t(per_sm) * sms);
      }
      blocks = std::min(blocks, resident_);
      if (blocks == 0) {
        Kokkos::deep_copy(Kokkos::DefaultExecutionSpace(), out, remap::Sums2{});
        return;
      }
      if (partial_.extent(0) < static_cast<std::size_t>(blocks)) {
        const std::int64_t groups = (blocks + d::kBlock - 1) / d::kBlock;
        partial_ = Kokkos::View<remap::Sums2*>(
            Kokkos::view_alloc("cg::slot_partials", Kokkos::WithoutInitializing), blocks);
        group_sum_ = Kokkos::View<remap::Sums2*>(
            Kokkos::view_alloc("cg::slot_group_sums", Kokkos::WithoutInitializing), groups);
        tickets_ = Kokkos::View<unsigned*>("cg::slot_tickets", groups + 1);  // zeroed
      }
      Kokkos::Profiling::pushRegion(label);  // a raw kernel: named for Kokkos' tools this way
      d::slot_reduce<F><<<static_cast<unsigned>(blocks), d::kBlock, 0,
                          Kokkos::DefaultExecutionSpace().cuda_stream()>>>(
          f, n, partial_.data(), group_sum_.data(), tickets_.data(), out.data());
      Kokkos::Profiling::popRegion();
      if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
        throw Error(std::string(label) + ": launch failed: " + cudaGetErrorString(e));
      return;
    }
#endif
    Kokkos::parallel_reduce(
        label, Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>(0, n), f,
        Kokkos::Sum<remap::Sums2, Kokkos::DefaultExecutionSpace::memory_space>(out));
  }

 private:
  Kokkos::View<remap::Sums2*> partial_, group_sum_;
  Kokkos::View<unsigned*> tickets_;
  std::int64_t resident_ = 0;
};

}  // namespace mdremap::cg

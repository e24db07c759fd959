#include "comm/peer_window.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <Kokkos_Core.hpp>

#include <cstring>
#include <functional>

#include "mdremap/error.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime.h>
#endif

namespace mdremap::comm {

namespace {

std::uint64_t host_hash() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return std::hash<std::string>{}(name);
}

constexpr std::size_t kFlagBytes = 256;  // the flag word, alone in its 256 bytes

#ifdef KOKKOS_ENABLE_CUDA
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(fmt::format("{}: {}", what, cudaGetErrorString(e)));
}
static_assert(sizeof(cudaIpcMemHandle_t) <= sizeof(PeerWindowInfo::handle));
#endif

}  // namespace

PeerWindow::~PeerWindow() {
#ifdef KOKKOS_ENABLE_CUDA
  release_remote();
  if (local_) cudaFree(local_);
  if (retired_) cudaFree(retired_);
#endif
}

PeerWindowInfo PeerWindow::reserve(std::size_t slot_bytes) {
  PeerWindowInfo info;
  info.host = host_hash();
#ifdef KOKKOS_ENABLE_CUDA
  if (retired_) {
    check(cudaFree(retired_), "cudaFree (peer window)");
    retired_ = nullptr;
  }
  if (!local_ || slot_bytes > slot_bytes_) {
    // Room to grow (the ghost shell breathes from one list build to the next), 256-byte slots.
    slot_bytes_ = ((slot_bytes + slot_bytes / 4 + 4096) + 255) / 256 * 256;
    retired_ = local_;
    local_ = nullptr;
    check(cudaMalloc(&local_, 2 * slot_bytes_ + kFlagBytes), "cudaMalloc (peer window)");
    // The flag starts at 0 (exchange numbers written are >= 1), set before the writer maps it.
    check(cudaMemset(flag(), 0, kFlagBytes), "cudaMemset (peer window flag)");
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (peer window)");
    ++generation_;
  }
  cudaIpcMemHandle_t h;
  info.ok = cudaIpcGetMemHandle(&h, local_) == cudaSuccess ? 1 : 0;
  if (!info.ok) cudaGetLastError();  // clear it: the exchange falls back to host staging
  std::memcpy(info.handle, &h, sizeof h);
  info.generation = generation_;
  info.slot_bytes = slot_bytes_;
#else
  (void)slot_bytes;
#endif
  return info;
}

void* PeerWindow::slot(std::uint64_t use) const {
  return static_cast<char*>(local_) + (use % 2) * slot_bytes_;
}

std::uint64_t* PeerWindow::flag() const {
  return reinterpret_cast<std::uint64_t*>(static_cast<char*>(local_) + 2 * slot_bytes_);
}

std::string PeerWindow::open_remote(const PeerWindowInfo& info) {
#ifdef KOKKOS_ENABLE_CUDA
  // A window this rank cannot map lets go of the one it had (its owner may free it).
  if (!info.ok) {
    release_remote();
    return "the partner could not export its window (cudaIpcGetMemHandle failed)";
  }
  if (info.host != host_hash()) {
    release_remote();
    return "the partner runs on another host";
  }
  if (remote_ && info.generation == remote_generation_) return "";
  release_remote();
  cudaIpcMemHandle_t h;
  std::memcpy(&h, info.handle, sizeof h);
  const cudaError_t e = cudaIpcOpenMemHandle(&remote_, h, cudaIpcMemLazyEnablePeerAccess);
  if (e != cudaSuccess) {
    cudaGetLastError();
    remote_ = nullptr;
    return fmt::format("cudaIpcOpenMemHandle: {}", cudaGetErrorString(e));
  }
  remote_generation_ = info.generation;
  remote_slot_bytes_ = info.slot_bytes;
  return "";
#else
  (void)info;
  return "not a CUDA build";
#endif
}

void* PeerWindow::remote_slot(std::uint64_t use) const {
  return static_cast<char*>(remote_) + (use % 2) * remote_slot_bytes_;
}

std::uint64_t* PeerWindow::remote_flag() const {
  return reinterpret_cast<std::uint64_t*>(static_cast<char*>(remote_) + 2 * remote_slot_bytes_);
}

void PeerWindow::release_remote() {
#ifdef KOKKOS_ENABLE_CUDA
  if (remote_) cudaIpcCloseMemHandle(remote_);
#endif
  remote_ = nullptr;
  remote_slot_bytes_ = 0;
}

}  // namespace mdremap::comm

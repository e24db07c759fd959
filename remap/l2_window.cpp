// Compiled as a Kokkos source (CUDA language on CUDA builds): the stream is Kokkos' default
// execution space instance's.
#include "mdremap/remap/l2_window.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <algorithm>

#include "mdremap/error.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime.h>
#endif

namespace mdremap::remap {

#ifdef KOKKOS_ENABLE_CUDA
namespace {
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw Error(fmt::format("persisting L2 window: {}: {}", what, cudaGetErrorString(e)));
}
}  // namespace

L2PersistLimits l2_persist_limits() {
  L2PersistLimits l;
  int dev = 0, set_aside = 0, window = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&set_aside, cudaDevAttrMaxPersistingL2CacheSize, dev),
        "cudaDevAttrMaxPersistingL2CacheSize");
  check(cudaDeviceGetAttribute(&window, cudaDevAttrMaxAccessPolicyWindowSize, dev),
        "cudaDevAttrMaxAccessPolicyWindowSize");
  l.max_set_aside = static_cast<std::size_t>(std::max(0, set_aside));
  l.max_window = static_cast<std::size_t>(std::max(0, window));
  if (l.max_set_aside == 0 || l.max_window == 0)
    l.unavailable = "this GPU reports no persisting L2 (compute capability 8.0 or later needed)";
  return l;
}

std::size_t l2_set_aside_now() {
  std::size_t got = 0;
  check(cudaDeviceGetLimit(&got, cudaLimitPersistingL2CacheSize), "cudaDeviceGetLimit");
  return got;
}

L2PersistWindow::L2PersistWindow(const void* base, std::size_t bytes) {
  const L2PersistLimits l = l2_persist_limits();
  if (!l.unavailable.empty()) throw Error("persisting L2 window: " + l.unavailable);
  if (bytes == 0) return;
  check(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, std::min(bytes, l.max_set_aside)),
        "cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize)");
  std::size_t got = 0;
  check(cudaDeviceGetLimit(&got, cudaLimitPersistingL2CacheSize), "cudaDeviceGetLimit");
  set_aside_ = got;
  window_ = std::min(bytes, l.max_window);
  hit_ratio_ = std::min(1.0, static_cast<double>(set_aside_) / static_cast<double>(window_));
  cudaStreamAttrValue a = {};
  a.accessPolicyWindow.base_ptr = const_cast<void*>(base);
  a.accessPolicyWindow.num_bytes = window_;
  a.accessPolicyWindow.hitRatio = static_cast<float>(hit_ratio_);
  a.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  a.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  check(cudaStreamSetAttribute(Kokkos::DefaultExecutionSpace().cuda_stream(),
                               cudaStreamAttributeAccessPolicyWindow, &a),
        "cudaStreamSetAttribute(cudaStreamAttributeAccessPolicyWindow)");
}

L2PersistWindow::~L2PersistWindow() {
  if (window_ == 0) return;
  // Errors here cannot be reported (a destructor); the calls only undo the constructor's.
  cudaStreamAttrValue a = {};
  a.accessPolicyWindow.num_bytes = 0;
  cudaStreamSetAttribute(Kokkos::DefaultExecutionSpace().cuda_stream(),
                         cudaStreamAttributeAccessPolicyWindow, &a);
  cudaCtxResetPersistingL2Cache();
  cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
}
#else
L2PersistLimits l2_persist_limits() {
  L2PersistLimits l;
  l.unavailable = std::string("the ") + Kokkos::DefaultExecutionSpace::name() +
                  " backend has no persisting L2 (a CUDA build on compute capability 8.0 or "
                  "later)";
  return l;
}

std::size_t l2_set_aside_now() {
  return 0;
}

L2PersistWindow::L2PersistWindow(const void*, std::size_t) {
  throw Error("persisting L2 window: " + l2_persist_limits().unavailable);
}

L2PersistWindow::~L2PersistWindow() = default;
#endif

std::string L2PersistWindow::describe() const {
  return fmt::format(
      "a persisting-L2 window of {:.1f} MB, {:.1f} MB of the L2 set aside (hit "
      "ratio {:.2f})",
      window_ / 1e6, set_aside_ / 1e6, hit_ratio_);
}

}  // namespace mdremap::remap

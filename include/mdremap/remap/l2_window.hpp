#pragma once
// A persisting-L2 window: a memory path for data that every execution re-reads in full (a
// sparse matrix's values, read once per SpMV and again on the next CG iteration). Seed 002's
// throttling keeps a part's data in the last-level cache by scheduling; seed 003 selects a memory
// path per array. Since Ampere the L2 can be told which addresses to keep: a share of it is set
// aside for "persisting" lines, and an access-policy window on a stream marks an address range
// so that a fraction (hitRatio) of its lines persist there between kernels instead of being
// evicted by the streams that pass through (CUDA Programming Guide, "L2 cache access
// management"). With the window as large as the set-aside, that fraction of the range is read
// from the L2 on every later execution instead of from DRAM.
//
// CUDA builds only; elsewhere constructing one throws mdremap::Error (no silent fallback).
#include <cstddef>
#include <string>

namespace mdremap::remap {

// What the device allows (zeros and a reason on a host build or a device without it).
struct L2PersistLimits {
  std::size_t max_set_aside = 0;  // cudaDevAttrMaxPersistingL2CacheSize
  std::size_t max_window = 0;     // cudaDevAttrMaxAccessPolicyWindowSize
  std::string unavailable;        // empty where a window can be set
};
L2PersistLimits l2_persist_limits();

// The L2 set aside for persisting lines now (cudaLimitPersistingL2CacheSize; 0 on host builds).
std::size_t l2_set_aside_now();

// Marks [base, base + bytes) persisting for kernels launched on the default execution space's
// stream while it lives: sets the L2 set-aside to min(bytes, max_set_aside), the window to
// min(bytes, max_window) and its hit ratio to set-aside / window. The destructor clears the
// window, returns the persisting lines to normal and the set-aside to zero. One at a time.
class L2PersistWindow {
 public:
  L2PersistWindow(const void* base, std::size_t bytes);
  ~L2PersistWindow();
  L2PersistWindow(const L2PersistWindow&) = delete;
  L2PersistWindow& operator=(const L2PersistWindow&) = delete;

  std::size_t set_aside() const { return set_aside_; }
  std::size_t window() const { return window_; }
  double hit_ratio() const { return hit_ratio_; }
  std::string describe() const;

 private:
  std::size_t set_aside_ = 0, window_ = 0;
  double hit_ratio_ = 0;
};

}  // namespace mdremap::remap

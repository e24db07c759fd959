#pragma once
// The capacity a cache-fit part may fill (seed 002 §2: parts sized to the GPU's L2, the
// last-level cache), queried instead of fixed: L2 sizes differ by an order of magnitude across GPU
// generations.
#include <cstdint>
#include <string>

namespace mdremap::remap {

// Share of the cache a part's data footprint may fill. The rest is left to what the kernel
// streams through the cache meanwhile (the matrix values and indices, read once, seed 002 §2.1
// "the matrix entries will be used only once") and to the outputs when they are not counted.
inline constexpr double kPartitionCacheFraction = 0.5;

// The L2 size of the current device: cudaDevAttrL2CacheSize on CUDA builds (throws
// mdremap::Error if the query fails); on host builds, host_last_level_cache_bytes().
std::int64_t device_l2_bytes();

// The largest cache level this host reports: sysconf(_SC_LEVEL3_CACHE_SIZE), else
// _SC_LEVEL2_CACHE_SIZE, else the highest level under /sys/devices/system/cpu/cpu0/cache.
// Throws mdremap::Error if none gives a size.
std::int64_t host_last_level_cache_bytes();

// "32K", "1024K", "8M", "1G" or plain bytes (sysfs cache sizes) -> bytes; -1 if malformed.
std::int64_t parse_cache_size(const std::string& s);

// kPartitionCacheFraction * device_l2_bytes(): PartitionOptions::cache_bytes by default.
std::int64_t default_partition_bytes();

}  // namespace mdremap::remap

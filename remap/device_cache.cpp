// Compiled as a Kokkos source (CUDA language on CUDA builds) for the device query.
#include "mdremap/remap/device_cache.hpp"

#include <unistd.h>

#include <Kokkos_Macros.hpp>
#include <cctype>
#include <fstream>

#include "mdremap/error.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime.h>
#endif

namespace mdremap::remap {

std::int64_t parse_cache_size(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  std::int64_t v = 0;
  const std::size_t digits = i;
  for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i) {
    if (v > (std::int64_t{1} << 50)) return -1;
    v = 10 * v + (s[i] - '0');
  }
  if (i == digits) return -1;
  std::int64_t scale = 1;
  if (i < s.size()) {
    switch (std::toupper(static_cast<unsigned char>(s[i]))) {
      case 'K':
        scale = std::int64_t{1} << 10;
        ++i;
        break;
      case 'M':
        scale = std::int64_t{1} << 20;
        ++i;
        break;
      case 'G':
        scale = std::int64_t{1} << 30;
        ++i;
        break;
      default:
        break;
    }
  }
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return i == s.size() ? v * scale : -1;
}

std::int64_t host_last_level_cache_bytes() {
#ifdef _SC_LEVEL3_CACHE_SIZE
  if (const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE); l3 > 0) return l3;
#endif
#ifdef _SC_LEVEL2_CACHE_SIZE
  if (const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE); l2 > 0) return l2;
#endif
  const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index";
  int best_level = 0;
  std::int64_t best = -1;
  for (int k = 0; k < 16; ++k) {
    std::ifstream lf(dir + std::to_string(k) + "/level"), sf(dir + std::to_string(k) + "/size");
    int level = 0;
    std::string size;
    if (!(lf >> level) || !(sf >> size)) continue;
    const std::int64_t b = parse_cache_size(size);
    if (b > 0 && level >= best_level) {
      best_level = level;
      best = b;
    }
  }
  if (best > 0) return best;
  throw Error("cannot determine the host's cache size (sysconf and " + dir +
              "*/size give none); set the partition size explicitly");
}

std::int64_t device_l2_bytes() {
#ifdef KOKKOS_ENABLE_CUDA
  int dev = 0, l2 = 0;
  cudaError_t err = cudaGetDevice(&dev);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev);
  if (err != cudaSuccess || l2 <= 0)
    throw Error(std::string("cannot query the GPU's L2 size (cudaDevAttrL2CacheSize): ") +
                (err != cudaSuccess ? cudaGetErrorString(err) : "reported 0") +
                "; set the partition size explicitly");
  return l2;
#else
  return host_last_level_cache_bytes();
#endif
}

std::int64_t default_partition_bytes() {
  return static_cast<std::int64_t>(kPartitionCacheFraction *
                                   static_cast<double>(device_l2_bytes()));
}

}  // namespace mdremap::remap

// The partition capacity from the device's L2 (seed 002 §2: parts sized to the last-level
// cache), checked against what Kokkos itself read from the device.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include "mdremap/remap/device_cache.hpp"

namespace mdremap::remap {
namespace {

TEST(DeviceCache, L2SizeMatchesTheDeviceProperties) {
  const std::int64_t l2 = device_l2_bytes();
#ifdef KOKKOS_ENABLE_CUDA
  EXPECT_EQ(l2, static_cast<std::int64_t>(Kokkos::Cuda().cuda_device_prop().l2CacheSize));
#else
  EXPECT_EQ(l2, host_last_level_cache_bytes());
#endif
  EXPECT_GT(l2, 0);
  EXPECT_EQ(default_partition_bytes(),
            static_cast<std::int64_t>(kPartitionCacheFraction * static_cast<double>(l2)));
}

}  // namespace
}  // namespace mdremap::remap

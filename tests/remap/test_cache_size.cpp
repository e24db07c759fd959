// Host side of the cache-size query behind default_partition_bytes(): the sysfs size format and
// the host's last-level cache.
#include <gtest/gtest.h>

#include "mdremap/remap/device_cache.hpp"

namespace mdremap::remap {
namespace {

TEST(CacheSize, ParsesSysfsSizes) {
  EXPECT_EQ(parse_cache_size("32K"), 32 * 1024);
  EXPECT_EQ(parse_cache_size("1024K\n"), 1024 * 1024);
  EXPECT_EQ(parse_cache_size("8M"), 8 << 20);
  EXPECT_EQ(parse_cache_size("1G"), std::int64_t{1} << 30);
  EXPECT_EQ(parse_cache_size("65536"), 65536);
  EXPECT_EQ(parse_cache_size(""), -1);
  EXPECT_EQ(parse_cache_size("K"), -1);
  EXPECT_EQ(parse_cache_size("12Q"), -1);
  EXPECT_EQ(parse_cache_size("3 MB"), -1);
}

TEST(CacheSize, HostReportsALastLevelCache) {
  // Every host this project runs on reports at least one cache level; the last level is at
  // least a typical L2.
  EXPECT_GE(host_last_level_cache_bytes(), 256 * 1024);
}

}  // namespace
}  // namespace mdremap::remap

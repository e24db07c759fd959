// The rank grid (comm/rank_grid.hpp): LAMMPS' `processors * * *` choice (least sub-box surface),
// pinned axes, the cutoff+skin thickness rule, and the sub-boxes and neighbours of each rank.
#include <gtest/gtest.h>

#include "comm/rank_grid.hpp"
#include "mdremap/error.hpp"

namespace mdremap::comm {
namespace {

using Grid = std::array<int, 3>;

TEST(RankGrid, CubeSplitsLikeLammps) {
  const std::array<double, 3> cube{20, 20, 20};
  EXPECT_EQ(choose_rank_grid(1, cube, 2.8).p, (Grid{1, 1, 1}));
  // Ties (1x1x2, 1x2x1, 2x1x1) go to the first in x-major order, as LAMMPS reports
  // "1 by 1 by 2 MPI processor grid" for two processes on a cube.
  EXPECT_EQ(choose_rank_grid(2, cube, 2.8).p, (Grid{1, 1, 2}));
  EXPECT_EQ(choose_rank_grid(4, cube, 2.8).p, (Grid{1, 2, 2}));
  EXPECT_EQ(choose_rank_grid(8, cube, 2.8).p, (Grid{2, 2, 2}));
  EXPECT_EQ(choose_rank_grid(12, cube, 2.8).p, (Grid{2, 2, 3}));
}

TEST(RankGrid, LongBoxIsCutAlongItsLength) {
  EXPECT_EQ(choose_rank_grid(4, {80, 10, 10}, 2.8).p, (Grid{4, 1, 1}));
  EXPECT_EQ(choose_rank_grid(8, {10, 10, 80}, 2.8).p, (Grid{1, 1, 8}));
  EXPECT_EQ(choose_rank_grid(6, {30, 20, 10}, 2.8).p, (Grid{3, 2, 1}));
}

TEST(RankGrid, PinnedAxesAreKept) {
  EXPECT_EQ(choose_rank_grid(4, {20, 20, 20}, 2.8, {4, 0, 0}).p, (Grid{4, 1, 1}));
  EXPECT_EQ(choose_rank_grid(8, {20, 20, 20}, 2.8, {0, 0, 1}).p, (Grid{2, 4, 1}));
  EXPECT_THROW(choose_rank_grid(4, {20, 20, 20}, 2.8, {3, 0, 0}), Error);
}

TEST(RankGrid, SubBoxesThinnerThanTheCutoffAreRefused) {
  // 10 / 4 = 2.5 < 2.8 along x: the thin grid is skipped for a thicker one...
  EXPECT_EQ(choose_rank_grid(4, {10, 10, 10}, 2.8).p, (Grid{1, 2, 2}));
  // ... or refused when nothing fits (3 ranks on a 6.7 cube: slabs 2.24 thick).
  try {
    choose_rank_grid(3, {6.7, 6.7, 6.7}, 2.8);
    FAIL() << "no grid should fit";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("3 ranks cannot split the box"), std::string::npos)
        << e.what();
  }
  EXPECT_NE(check_rank_grid(RankGrid{{4, 1, 1}}, 4, {10, 10, 10}, 2.8).find("thinner than"),
            std::string::npos);
  EXPECT_NE(check_rank_grid(RankGrid{{2, 2, 2}}, 4, {20, 20, 20}, 2.8).find("has 8 ranks"),
            std::string::npos);
  EXPECT_EQ(check_rank_grid(RankGrid{{2, 2, 1}}, 4, {20, 20, 20}, 2.8), "");
}

TEST(RankGrid, SubDomainsTileTheBoxAndKnowTheirNeighbours) {
  const RankGrid g{{2, 3, 1}};
  const std::array<double, 3> lo{-1, 0, 5}, len{10, 9, 4};
  double volume = 0;
  for (int r = 0; r < g.count(); ++r) {
    const SubDomain s = sub_domain(g, r, lo, len);
    EXPECT_EQ(rank_at(g, s.coord), r);
    volume += (s.hi[0] - s.lo[0]) * (s.hi[1] - s.lo[1]) * (s.hi[2] - s.lo[2]);
    for (int d = 0; d < 3; ++d) {
      EXPECT_DOUBLE_EQ(s.lo[d], lo[d] + len[d] * s.coord[d] / g.p[d]);
      // Periodic neighbours: the rank below's rank above is this one.
      EXPECT_EQ(sub_domain(g, s.lo_rank[d], lo, len).hi_rank[d], r);
    }
  }
  EXPECT_DOUBLE_EQ(volume, 10.0 * 9 * 4);
  const SubDomain corner = sub_domain(g, 0, lo, len);
  EXPECT_EQ(corner.lo_rank[1], rank_at(g, {0, 2, 0}));         // wraps across the box edge
  EXPECT_EQ(corner.lo_rank[2], 0);                             // one rank along z: itself
  EXPECT_EQ(sub_domain(g, 5, lo, len).hi[1], lo[1] + len[1]);  // the last slab ends at the box
}

}  // namespace
}  // namespace mdremap::comm

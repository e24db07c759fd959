// The policy an engine is made with (md/engine_choices.hpp), from decks, for a GPU and for CPUs
// with and without AVX-512: each backend's defaults, the deck's explicit choices winning over
// them, and what a decomposed run rules out.
#include <gtest/gtest.h>

#include <cmath>

#include "md/engine_choices.hpp"
#include "md_test_util.hpp"

namespace mdremap::md {
namespace {

constexpr Backend kGpu{false, false};
constexpr Backend kCpu{true, false};
constexpr Backend kCpuAvx512{true, true};

EngineChoices choices(const Backend& b, const std::vector<std::string>& sets = {}) {
  return choose_engine(test::params("inputs/lj_bench.yaml", sets), b);
}

TEST(EngineChoices, GpuDefaultsAreAFullColumnMajorListInCellOrder) {
  const EngineChoices c = choices(kGpu);
  EXPECT_FALSE(c.half);
  EXPECT_FALSE(c.cluster);
  EXPECT_TRUE(c.column_major);
  EXPECT_EQ(c.sort, neighbor::AtomSort::Cells);
  EXPECT_DOUBLE_EQ(c.rlist, 2.5 + 0.3);  // the bench deck's cutoff + skin
  EXPECT_DOUBLE_EQ(c.bin, c.rlist);      // full-cutoff cells by default
  EXPECT_FALSE(c.decomposed);
  EXPECT_FALSE(c.overlap_wanted);
  EXPECT_FALSE(c.pair.half);
  EXPECT_EQ(c.pair.mode.name(), "gather");
  EXPECT_EQ(c.pair.style, "lj");
}

TEST(EngineChoices, CpuWithoutAvx512TakesTheHalfListInHilbertOrder) {
  const EngineChoices c = choices(kCpu);
  EXPECT_TRUE(c.half);
  EXPECT_TRUE(c.pair.half);  // the force engine sums each pair once
  EXPECT_FALSE(c.column_major);
  EXPECT_EQ(c.sort, neighbor::AtomSort::Hilbert);
}

TEST(EngineChoices, CpuWithAvx512TakesTheFullRowMajorList) {
  const EngineChoices c = choices(kCpuAvx512);
  EXPECT_FALSE(c.half);
  EXPECT_FALSE(c.column_major);
  EXPECT_EQ(c.sort, neighbor::AtomSort::Hilbert);
}

TEST(EngineChoices, TheDecksChoicesWinOverTheBackendsDefaults) {
  const EngineChoices c = choices(kGpu, {"neighbor.list=half", "neighbor.layout=row",
                                         "neighbor.sort=none", "neighbor.bin_size=1.4"});
  EXPECT_TRUE(c.half);
  EXPECT_FALSE(c.column_major);
  EXPECT_EQ(c.sort, neighbor::AtomSort::None);
  EXPECT_DOUBLE_EQ(c.bin, 1.4);
  const EngineChoices f = choices(kCpu, {"neighbor.list=full", "neighbor.layout=column"});
  EXPECT_FALSE(f.half);
  EXPECT_TRUE(f.column_major);
}

TEST(EngineChoices, ClusterListIsNeverHalf) {
  const EngineChoices c = choices(kCpu, {"neighbor.list=cluster"});
  EXPECT_TRUE(c.cluster);
  EXPECT_TRUE(c.pair.cluster);
  EXPECT_FALSE(c.half);
}

TEST(EngineChoices, DecomposedRunsKeepFullListsAndOverlapOnGpusOnly) {
  // On a CPU without AVX-512 auto means half, but exchanged ghosts need full lists.
  const EngineChoices c = choices(kCpu, {"parallel.ghosts=exchange"});
  EXPECT_TRUE(c.decomposed);
  EXPECT_FALSE(c.half);
  EXPECT_FALSE(c.overlap_wanted);  // overlap auto: nothing to gain on a host backend
  EXPECT_TRUE(choices(kGpu, {"parallel.ghosts=exchange"}).overlap_wanted);
  const EngineChoices on = choices(kCpu, {"parallel.ghosts=exchange", "parallel.overlap=on"});
  EXPECT_TRUE(on.overlap_wanted);
  EXPECT_TRUE(on.overlap_required);
  EXPECT_FALSE(choices(kGpu, {"parallel.ghosts=exchange", "parallel.overlap=off"}).overlap_wanted);
}

TEST(EngineChoices, ThePotentialAndTheRemapReachTheForceEngine) {
  const EngineChoices c = choose_engine(test::params_from_text(R"(
system:
  lattice: {style: fcc, density: 0.8442, cells: [4, 4, 4]}
potential:
  style: wca
neighbor:
  skin: 0.5
remap:
  mode: auto
  lanes: 1
)"),
                                        kGpu);
  EXPECT_EQ(c.pair.style, "wca");
  EXPECT_NEAR(c.rlist, std::pow(2.0, 1.0 / 6.0) + 0.5, 1e-12);  // WCA's cutoff is 2^(1/6) sigma
  EXPECT_EQ(c.pair.mode.name(), "auto");
  EXPECT_FALSE(c.pair.auto_lanes);
  EXPECT_TRUE(choices(kGpu).pair.auto_lanes);  // remap.lanes defaults to auto
  EXPECT_EQ(choices(kGpu, {"remap.mode=dup"}).pair.mode.name(), "dup");
}

}  // namespace
}  // namespace mdremap::md

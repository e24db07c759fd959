// The MD force kernel through every remap strategy and reordering: forces and energies equal the
// plain gather's (tolerances per precision below), padding refuses with its reason.
#include <gtest/gtest.h>

#include <map>

#include "compare/measure.hpp"
#include "md/md_test_util.hpp"
#include "md/reorder.hpp"
#include "mdremap/error.hpp"
#include "mdremap/remap/gather_strategy.hpp"
#include "mdremap/remap/lanes.hpp"

using namespace mdremap;
using mdremap::test::params;
using mdremap::test::rel;

namespace {

// Tolerances: the same pair terms are summed per atom in neighbour order; a reordering changes
// binning and hence that order, so results differ by rounding only. Double: 1e-10 relative;
// single (float pair math and storage): 2e-4 on forces (relative to the largest component) and
// 2e-5 on the pair energy.
struct Tol {
  double force, energy;
};
const std::map<std::string, Tol> kTol = {{"double", {1e-10, 1e-11}}, {"single", {2e-4, 2e-5}}};

struct Result {
  ThermoSample t0, t10;
  Frame f0;
};

// The caller's settings come last: they override these defaults (the last override wins).
Result run(const std::string& precision, const std::vector<std::string>& own) {
  std::vector<std::string> sets = {"run.precision=" + precision, "neighbor.list=full",
                                   "neighbor.layout=column",
                                   "system.shuffle=true",  // the papers' irregular setting
                                   "neighbor.sort=none",         "neighbor.every=5"};
  sets.insert(sets.end(), own.begin(), own.end());
  auto e = md::create_engine(params("inputs/lj_melt.yaml", sets));
  Result r;
  r.t0 = e->setup();
  // Forces after 10 steps: at step 0 the perfect lattice's forces cancel to rounding noise.
  r.t10 = e->run(10).last;  // two list rebuilds: re-planning, cache invalidation every step
  r.f0 = e->snapshot(true);
  return r;
}

}  // namespace

class RemapMd : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(RemapMd, ForcesAndEnergiesMatchGather) {
  const auto [mode, reorder] = GetParam();
  for (const std::string prec : {"double", "single"}) {
    SCOPED_TRACE(mode + " " + reorder + " " + prec);
    const Tol tol = kTol.at(prec);
    const Result ref = run(prec, {"remap.mode=gather"});
    const Result got =
        run(prec, {"remap.mode=" + mode, "remap.reorder=" + reorder, "remap.chunks=3",
                   "remap.streams=2", "remap.block=64", "remap.profile_steps=1"});
    const double ferr = test::max_force_error(got.f0, ref.f0);
    RecordProperty(prec + "_max_force_error", std::to_string(ferr));
    EXPECT_LT(ferr, tol.force);
    EXPECT_LT(rel(got.t0.e_pair, ref.t0.e_pair), tol.energy) << got.t0.e_pair;
    EXPECT_LT(rel(got.t0.press, ref.t0.press), 10 * tol.energy) << got.t0.press;
    EXPECT_LT(rel(got.t10.etotal, ref.t10.etotal), 10 * tol.energy) << got.t10.etotal;
  }
}

INSTANTIATE_TEST_SUITE_P(
    ModesByReorder, RemapMd,
    ::testing::Combine(::testing::Values("gather", "dup", "sharing", "auto"),
                       ::testing::Values("none", "spatial", "labelprop", "partition")),
    [](const auto& info) { return std::get<0>(info.param) + "_" + std::get<1>(info.param); });

TEST(RemapMdVariants, PartialDupSmallSharedMemoryAndGlobalPathMatchGather) {
  const Result ref = run("double", {"remap.mode=gather"});
  for (const std::vector<std::string>& s :
       {std::vector<std::string>{"remap.mode=dup", "remap.dup_fraction=0.3", "remap.chunks=5"},
        {"remap.mode=dup", "remap.cache=false", "remap.streams=1"},
        {"remap.mode=sharing", "remap.smem_bytes=8192"},
        {"remap.mode=gather", "remap.gather_path=global", "remap.reorder=labelprop"}}) {
    SCOPED_TRACE(s[0] + " " + s[1]);
    const Result got = run("double", s);
    EXPECT_LT(test::max_force_error(got.f0, ref.f0), 1e-10);
    EXPECT_LT(rel(got.t10.etotal, ref.t10.etotal), 1e-10);
  }
}

TEST(RemapMdVariants, SharingReportsSplitsWhenSharedMemoryIsSmall) {
  auto e = md::create_engine(params(
      "inputs/lj_melt.yaml", {"remap.mode=sharing", "remap.smem_bytes=8192", "system.shuffle=true",
                              "neighbor.sort=none", "run.precision=double"}));
  e->setup();
  const auto st = e->remap_stats(true);
  EXPECT_GT(st.report.splits, 0);  // shuffled: 128 atoms x ~70 neighbours >> 256 elements
  EXPECT_LE(st.report.max_block_set * 32, 8192);
  EXPECT_TRUE(st.have_tx);
  EXPECT_GT(st.tx.seg32, 0);
}

TEST(RemapMdVariants, PaddingRefusesTheForceKernelWithItsReason) {
  try {
    md::create_engine(params("inputs/lj_melt.yaml", {"remap.mode=padding"}));
    FAIL() << "padding accepted the MD force kernel";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("padding does not apply: the MD force kernel"), std::string::npos) << m;
    EXPECT_NE(m.find("pos[i]"), std::string::npos) << m;
  }
}

// Padding shown on the single-pattern gather-reduce over the same neighbour list.
TEST(RemapMdVariants, PaddingGatherReduceEqualsPlainGatherReduce) {
  const auto p = params("inputs/lj_melt.yaml", {"remap.mode=gather", "neighbor.list=full",
                                                "neighbor.layout=column", "run.precision=double"});
  auto e = md::create_engine(p);
  e->setup();
  const md::ForcePattern fp = e->force_probe().force_pattern();
  const auto pad = compare::gather_reduce(fp, "padding", md::remap_options(p), 1);
  EXPECT_LT(pad.max_rel_err, 1e-12);
  EXPECT_GT(pad.stats.report.extra_bytes, 0);  // space overhead reported
  const auto gat = compare::gather_reduce(fp, "gather", md::remap_options(p), 1);
  EXPECT_NEAR(pad.checksum, gat.checksum, 1e-9 * std::abs(gat.checksum));
  // Padding's point: no more segments than the gather touches.
  EXPECT_LE(pad.stats.tx.seg128, gat.stats.tx.seg128);
}

TEST(RemapMdVariants, HalfListWithARemapModeIsRefused) {
  EXPECT_THROW(params("inputs/lj_melt.yaml", {"remap.mode=dup", "neighbor.list=half"}), InputError);
  EXPECT_THROW(params("inputs/lj_melt.yaml", {"remap.mode=sharing", "neighbor.layout=row"}),
               InputError);
  const auto p = params("inputs/lj_melt.yaml", {"remap.mode=dup"});
  EXPECT_EQ(p.list, neighbor::ListKind::Full);
  EXPECT_EQ(p.layout, neighbor::ListLayout::Column);
}

// remap.plan_overlap: each list's sharing plan runs in the background while the next
// plan_overlap_steps force evaluations read through the index; the trajectory matches the
// foreground plan's to rounding, and the counts say how many evaluations were bridged: plans at
// setup and at steps 5 and 10 (neighbor.every=5); the setup's evaluation and steps 1-2, steps
// 5-7, and step 10 (the run ends there).
TEST(RemapMdVariants, SharingPlanOverlapBridgesAFixedCountAndMatches) {
  for (const std::string prec : {"double", "single"}) {
    SCOPED_TRACE(prec);
    const Tol tol = kTol.at(prec);
    const Result ref = run(prec, {"remap.mode=sharing", "remap.plan_overlap=off"});
    auto sets = std::vector<std::string>{
        "remap.mode=sharing",    "remap.plan_overlap=on", "remap.plan_overlap_steps=3",
        "run.precision=" + prec, "neighbor.list=full",    "neighbor.layout=column",
        "system.shuffle=true",   "neighbor.sort=none",    "neighbor.every=5"};
    auto e = md::create_engine(params("inputs/lj_melt.yaml", sets));
    e->setup();
    const ThermoSample t10 = e->run(10).last;
    const Frame f = e->snapshot(true);
    EXPECT_LT(test::max_force_error(f, ref.f0), tol.force);
    EXPECT_LT(rel(t10.etotal, ref.t10.etotal), 10 * tol.energy);
    const auto st = e->remap_stats(false);
    EXPECT_EQ(st.report.plans, 3);
    EXPECT_EQ(st.report.executions, 11);
    EXPECT_EQ(st.report.bridged_executions, 3 + 3 + 1);
    EXPECT_GT(st.report.overlapped_plan_ms, 0.0);
  }
}

// remap.index_bits=16: the gather reads the neighbour list delta-encoded in 16 bits, decoded in
// list order: the same pairs summed in the same order. On CUDA both walks run the same pair
// arithmetic in that order, so forces and thermo are bit-identical; the host's plain loop is its
// own vector walk (another order), so there the tolerances above apply. Shuffled atoms, 32,000
// of them and their ghosts, so that many differences need escapes; and atoms in the default
// order.
TEST(RemapMdVariants, SixteenBitIndexMatchesTheGather) {
  for (const std::string prec : {"double", "single"}) {
    for (const bool shuffled : {true, false}) {
      SCOPED_TRACE(prec + (shuffled ? " shuffled" : " sorted"));
      std::vector<std::string> sets = {"remap.mode=gather", "remap.lanes=1"};
      if (shuffled)
        sets.push_back("system.lattice.cells=[20,20,20]");
      else  // atoms in lattice order, the list's rows in stencil order: few escapes
        sets.insert(sets.end(), {"system.shuffle=false", "neighbor.sort=auto"});
      const Result ref = run(prec, sets);
      sets.push_back("remap.index_bits=16");
      const Result got = run(prec, sets);
      const double ferr = test::max_force_error(got.f0, ref.f0);
#if defined(KOKKOS_ENABLE_CUDA)
      EXPECT_EQ(ferr, 0.0);
      EXPECT_EQ(got.t10.etotal, ref.t10.etotal);
      EXPECT_EQ(got.t0.press, ref.t0.press);
#else
      EXPECT_LT(ferr, kTol.at(prec).force);
      EXPECT_LT(rel(got.t10.etotal, ref.t10.etotal), 10 * kTol.at(prec).energy);
#endif
    }
  }
  // The report: the references of the list, and escapes (shuffled ids over 32,000 atoms and
  // their ghosts: differences beyond int16 occur).
  auto e = md::create_engine(params(
      "inputs/lj_melt.yaml", {"remap.index_bits=16", "system.shuffle=true", "neighbor.sort=none",
                              "neighbor.layout=column", "system.lattice.cells=[20,20,20]"}));
  e->setup();
  const auto st = e->remap_stats(false);
  EXPECT_EQ(st.report.strategy, "gather(index16)");
  EXPECT_GT(st.report.index_references, 32000 * 50);
  EXPECT_GT(st.report.index_escapes, 0);
  EXPECT_LT(st.report.index_escapes, st.report.index_references);
}

TEST(RemapMdVariants, SixteenBitIndexRefusedWhereItCannotServe) {
  EXPECT_THROW(params("inputs/lj_melt.yaml", {"remap.index_bits=8"}), InputError);
  EXPECT_THROW(params("inputs/lj_melt.yaml", {"remap.index_bits=16", "remap.mode=dup"}),
               InputError);
  EXPECT_THROW(params("inputs/lj_melt.yaml", {"remap.index_bits=16", "neighbor.list=half"}),
               InputError);
  EXPECT_THROW(params("inputs/lj_melt.yaml", {"remap.index_bits=16", "neighbor.list=cluster"}),
               InputError);
  EXPECT_THROW(params("inputs/lj_melt.yaml", {"remap.index_bits=16", "remap.gather_path=auto"}),
               InputError);
  const auto p = params("inputs/lj_melt.yaml", {"remap.index_bits=16"});
  EXPECT_EQ(p.list, neighbor::ListKind::Full);
  EXPECT_EQ(p.remap.options.index_bits, 16);
}

// remap.gather_path=split (the default on CUDA): the read-only path's values through both of
// the L1's data pipes, so the same sums in the same order as readonly: bit-identical forces,
// energies and trajectories, with one lane an atom and with two. Refused on a host backend.
TEST(RemapMdVariants, SplitPathSumsWhatTheReadOnlyPathSums) {
#if defined(KOKKOS_ENABLE_CUDA)
  for (const std::string prec : {"double", "single"}) {
    for (const std::string lanes : {"1", "2"}) {
      SCOPED_TRACE(prec + " lanes " + lanes);
      const Result ref =
          run(prec, {"remap.mode=gather", "remap.gather_path=readonly", "remap.lanes=" + lanes});
      const Result got =
          run(prec, {"remap.mode=gather", "remap.gather_path=split", "remap.lanes=" + lanes});
      EXPECT_EQ(test::max_force_error(got.f0, ref.f0), 0.0);
      EXPECT_EQ(got.f0.x, ref.f0.x);  // the trajectory after 10 steps
      EXPECT_EQ(got.t0.e_pair, ref.t0.e_pair);
      EXPECT_EQ(got.t0.press, ref.t0.press);
      EXPECT_EQ(got.t10.etotal, ref.t10.etotal);
    }
  }
  // The default on CUDA with the 32-bit index; the 16-bit index decodes through readonly.
  EXPECT_EQ(params("inputs/lj_melt.yaml", {}).remap.options.path, remap::GatherPath::Split);
  EXPECT_EQ(params("inputs/lj_melt.yaml", {"remap.index_bits=16"}).remap.options.path,
            remap::GatherPath::ReadOnly);
  EXPECT_THROW(params("inputs/lj_melt.yaml", {"remap.index_bits=16", "remap.gather_path=split"}),
               InputError);
  auto e = md::create_engine(params("inputs/lj_melt.yaml", {"remap.lanes=1"}));
  e->setup();
  EXPECT_EQ(e->remap_stats(false).report.strategy, "gather(split)");
#else
  EXPECT_EQ(params("inputs/lj_melt.yaml", {}).remap.options.path, remap::GatherPath::ReadOnly);
  EXPECT_THROW(params("inputs/lj_melt.yaml", {"remap.gather_path=split"}), InputError);
  remap::RemapOptions o;
  o.path = remap::GatherPath::Split;
  EXPECT_THROW(remap::GatherStrategy<Vec4<double>>{o}, Error);
#endif
}

// remap.lanes: each atom's neighbours split over L lanes of a warp (remap/lanes.hpp), the lanes'
// forces added by shuffles. Another summation order than one lane's: the tolerances above. Every
// split a GPU takes, through the read-only and texture paths and under auto; the strategy's name
// says which ran.
TEST(RemapMdVariants, LanesMatchOneLane) {
#if defined(KOKKOS_ENABLE_CUDA)
  for (const std::string prec : {"double", "single"}) {
    const Tol tol = kTol.at(prec);
    const Result ref = run(prec, {"remap.mode=gather", "remap.lanes=1"});
    for (const std::vector<std::string>& s :
         {std::vector<std::string>{"remap.mode=gather", "remap.lanes=2"},
          {"remap.mode=gather", "remap.lanes=8"},
          {"remap.mode=gather", "remap.lanes=32"},
          {"remap.mode=gather", "remap.lanes=4", "remap.gather_path=texture"},
          {"remap.mode=auto", "remap.lanes=16", "remap.profile_steps=1"}}) {
      SCOPED_TRACE(prec + " " + s[0] + " " + s[1]);
      const Result got = run(prec, s);
      EXPECT_LT(test::max_force_error(got.f0, ref.f0), tol.force);
      EXPECT_LT(rel(got.t0.e_pair, ref.t0.e_pair), tol.energy);
      EXPECT_LT(rel(got.t0.press, ref.t0.press), 10 * tol.energy);
      EXPECT_LT(rel(got.t10.etotal, ref.t10.etotal), 10 * tol.energy);
    }
  }
  auto e = md::create_engine(params("inputs/lj_melt.yaml", {"remap.lanes=8"}));
  e->setup();
  EXPECT_EQ(e->remap_stats(false).report.strategy, "gather(split)(lanes 8)");
#else
  // A host backend has no warp to split over: the layer refuses, whoever asks.
  remap::RemapOptions o;
  o.lanes = 2;
  EXPECT_THROW(remap::GatherStrategy<Vec4<double>>{o}, Error);
#endif
}

// auto: the fewest lanes (at most md::kAutoMaxLanes) that give the GPU as many threads as it
// keeps resident; one on a host backend, and one with the 16-bit index (decoded in order by one
// lane).
TEST(RemapMdVariants, LanesAutoFillTheDevice) {
  EXPECT_EQ(remap::lanes_for(32000, 270336, 8), 8);
  EXPECT_EQ(remap::lanes_for(100000, 270336, 8), 4);
  EXPECT_EQ(remap::lanes_for(256000, 270336, 8), 2);
  EXPECT_EQ(remap::lanes_for(4000000, 270336, 8), 1);
  EXPECT_EQ(remap::lanes_for(10, 270336, 4), 4);
  auto strategy = [](const std::vector<std::string>& sets) {
    auto e = md::create_engine(params("inputs/lj_melt.yaml", sets));
    e->setup();
    return e->remap_stats(false).report.strategy;
  };
  const std::int64_t resident = Kokkos::DefaultExecutionSpace().concurrency();
#if defined(KOKKOS_ENABLE_CUDA)
  const int want = remap::lanes_for(4000, resident, md::kAutoMaxLanes);  // lj_melt: 4,000 atoms
  EXPECT_GT(want, 1);
  EXPECT_EQ(strategy({}),
            want > 1 ? "gather(split)(lanes " + std::to_string(want) + ")" : "gather(split)");
#else
  (void)resident;
  EXPECT_EQ(strategy({}), "gather");
#endif
  EXPECT_EQ(strategy({"remap.index_bits=16"}), "gather(index16)");
#if defined(KOKKOS_ENABLE_CUDA)
  EXPECT_EQ(strategy({"remap.lanes=1"}), "gather(split)");
#else
  EXPECT_EQ(strategy({"remap.lanes=1"}), "gather");
#endif
}

TEST(RemapMdVariants, LanesRefusedWhereTheyCannotServe) {
  EXPECT_THROW(params("inputs/lj_melt.yaml", {"remap.lanes=3"}), InputError);
  EXPECT_THROW(params("inputs/lj_melt.yaml", {"remap.lanes=64"}), InputError);
  EXPECT_THROW(params("inputs/lj_melt.yaml", {"remap.lanes=2", "remap.mode=dup"}), InputError);
  EXPECT_THROW(params("inputs/lj_melt.yaml", {"remap.lanes=2", "remap.index_bits=16"}), InputError);
  EXPECT_THROW(params("inputs/lj_melt.yaml", {"remap.lanes=2", "neighbor.list=half"}), InputError);
  EXPECT_THROW(params("inputs/lj_melt.yaml", {"remap.lanes=2", "neighbor.list=cluster"}),
               InputError);
#if defined(KOKKOS_ENABLE_CUDA)
  EXPECT_EQ(params("inputs/lj_melt.yaml", {"remap.lanes=2"}).remap.options.lanes, 2);
#else
  EXPECT_THROW(params("inputs/lj_melt.yaml", {"remap.lanes=2"}), InputError);
#endif
  EXPECT_EQ(params("inputs/lj_melt.yaml", {"remap.lanes=1"}).remap.options.lanes, 1);
  EXPECT_FALSE(params("inputs/lj_melt.yaml", {"remap.lanes=1"}).remap.lanes_auto);
  EXPECT_TRUE(params("inputs/lj_melt.yaml", {}).remap.lanes_auto);  // auto
  // The layer refuses what the deck reader would (another app, or a direct caller).
  remap::RemapOptions o;
  o.lanes = 2;
  o.index_bits = 16;
  EXPECT_THROW(remap::GatherStrategy<Vec4<double>>{o}, Error);
  o.index_bits = 32;
  o.lanes = 6;
  EXPECT_THROW(remap::GatherStrategy<Vec4<double>>{o}, Error);
}

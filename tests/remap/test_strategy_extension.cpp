// Adding a strategy takes its header, one entry in a registry's type list and its keys: a copy of
// the gather under another name (copy_gather_strategy.hpp), registered in this binary only,
// appears in every command's --help, is accepted as remap.mode by every app's deck with its key
// read, and is one of auto's candidates, with no app file edited (the commands, deck readers and
// flags are the ones the mdremap binary links). The apps' compute dispatch is compiled for the
// default list, so the copy runs here through the layer (auto and make_strategy), not in an app.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cg/params.hpp"
#include "cli/cg_command.hpp"
#include "cli/compare_command.hpp"
#include "cli/md_command.hpp"
#include "cli/sp_command.hpp"
#include "io/deck.hpp"
#include "md/params.hpp"
#include "mdremap/remap/gather_reduce.hpp"
#include "remap/copy_gather_strategy.hpp"
#include "remap_test_util.hpp"
#include "sp/params.hpp"

using namespace mdremap;
using remap::testing::CopyGatherStrategy;
using remap::testing::WithCopyGather;

namespace {

// This binary's strategies: the default registry's and the copy.
void install() {
  static const bool done = [] {
    remap::install_strategy_catalogue(remap::catalogue_of<WithCopyGather>());
    return true;
  }();
  (void)done;
}

io::Deck deck(const std::string& file, const std::vector<std::string>& sets) {
  auto d = io::Deck::from_file(std::string(MDREMAP_SOURCE_DIR) + "/" + file);
  for (const auto& s : sets) d.apply_override(s);
  return d;
}

// The --help of `mdremap NAME`, as the binary's commands define it.
std::string help(const std::string& name) {
  CLI::App app("mdremap");
  cli::MdOptions md;
  cli::CompareOptions compare;
  cli::CgCommandOptions cg;
  cli::SpOptions sp;
  cli::add_md_command(app, md);
  cli::add_compare_command(app, compare);
  cli::add_cg_command(app, cg);
  cli::add_sp_command(app, sp);
  return app.get_subcommand(name)->help();
}

const std::vector<std::string> kCopy = {"remap.mode=copy-gather", "remap.copy_label=7"};

struct Same {
  KOKKOS_INLINE_FUNCTION double operator()(const double& e) const { return e; }
};

// The pattern on the device (rows-by-threads), with data A[e] = 0.5 e + 1.
struct Device {
  remap::PatternView pv;
  Kokkos::View<double*> data;
  explicit Device(const remap::IrregularPattern& p) {
    Kokkos::View<int*> idx("idx", p.index.size()), len("len", p.threads);
    auto hi = Kokkos::create_mirror_view(idx);
    auto hl = Kokkos::create_mirror_view(len);
    for (std::size_t k = 0; k < p.index.size(); ++k) hi(k) = p.index[k];
    for (std::int64_t t = 0; t < p.threads; ++t) hl(t) = p.len[t];
    Kokkos::deep_copy(idx, hi);
    Kokkos::deep_copy(len, hl);
    pv.index = idx;
    pv.len = len;
    pv.threads = p.threads;
    pv.rows = p.rows;
    pv.stride_j = p.threads;
    pv.stride_t = 1;
    pv.data_count = p.data_count;
    data = Kokkos::View<double*>("A", p.data_count);
    auto hd = Kokkos::create_mirror_view(data);
    for (std::int64_t e = 0; e < p.data_count; ++e) hd(e) = 0.5 * e + 1.0;
    Kokkos::deep_copy(data, hd);
  }
};

}  // namespace

TEST(StrategyExtension, InEveryAppsHelp) {
  install();
  for (const char* cmd : {"md", "cg", "sp"}) {
    const std::string h = help(cmd);
    EXPECT_NE(h.find("| copy-gather"), std::string::npos) << h;  // --remap's list
    EXPECT_NE(h.find("--copy-label"), std::string::npos) << h;   // its key's flag
  }
  const std::string h = help("compare");
  EXPECT_NE(h.find(",copy-gather"), std::string::npos) << h;  // --modes' list
  EXPECT_NE(h.find("--copy-label"), std::string::npos) << h;
}

TEST(StrategyExtension, InEveryAppsDeckWithItsKey) {
  install();
  {
    auto d = deck("inputs/lj_melt.yaml", kCopy);
    const md::MdParams p = md::read_md_params(d);
    EXPECT_EQ(p.remap.mode.name(), "copy-gather");
    EXPECT_EQ(p.remap.options.named.at("copy_label"), 7);
    EXPECT_FALSE(p.remap.mode.is_gather());  // MD's rule for any other strategy: a full list
    EXPECT_EQ(p.list, neighbor::ListKind::Full);
  }
  {
    auto d = deck("inputs/cg_laplace2d.yaml", kCopy);
    const cg::CgParams p = cg::read_cg_params(d);
    EXPECT_EQ(p.spmv.remap.name(), "copy-gather");
    EXPECT_EQ(p.spmv.remap_opt.named.at("copy_label"), 7);
  }
  {
    auto d = deck("inputs/sp_random3sat.yaml", kCopy);
    const sp::SpParams p = sp::read_sp_params(d);
    EXPECT_EQ(p.solve.survey.remap.mode.name(), "copy-gather");
    EXPECT_EQ(p.solve.survey.remap.options.named.at("copy_label"), 7);
  }
  // Its key is checked like any other, in every app, and set by its flag.
  for (const char* file :
       {"inputs/lj_melt.yaml", "inputs/cg_laplace2d.yaml", "inputs/sp_random3sat.yaml"}) {
    auto d = deck(file, {"remap.copy_label=100"});
    try {
      if (std::string(file).find("lj_") != std::string::npos)
        md::read_md_params(d);
      else if (std::string(file).find("cg_") != std::string::npos)
        cg::read_cg_params(d);
      else
        sp::read_sp_params(d);
      ADD_FAILURE() << file << ": copy_label=100 accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("remap.copy_label"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("must be 1..99"), std::string::npos) << e.what();
    }
  }
  // The md command's own flags set it.
  CLI::App app("mdremap");
  cli::MdOptions o;
  cli::add_md_command(app, o);
  app.parse("md inputs/lj_melt.yaml --copy-label 3 --remap copy-gather", false);
  auto d = deck("inputs/lj_melt.yaml", {});
  cli::apply_remap_flags(o.remap, d);
  EXPECT_EQ(md::read_md_params(d).remap.options.named.at("copy_label"), 3);
}

// auto profiles it beside the others on a pattern, and every execution, its own included, gives
// the gather's result.
TEST(StrategyExtension, InAutosCandidates) {
  install();
  using Elem = double;
  const remap::IrregularPattern host = remap::testing::make_shuffled_lattice(8, 5).pattern;
  const Device dev(host);
  std::vector<double> ref(host.threads, 0.0);
  for (std::int64_t t = 0; t < host.threads; ++t)
    for (int j = 0; j < host.len[t]; ++j) ref[t] += 0.5 * host.at(j, t) + 1.0;
  remap::RemapOptions o;
  o.profile_steps = 1;
  o.reference_patterns = 1;
  o.horizon.executions = 1000000;  // a long run planned once: every candidate is profiled
  o.data_changes = false;
  auto s = remap::make_strategy<Elem, WithCopyGather>("auto", o);
  auto& a = static_cast<remap::AutoStrategy<Elem, WithCopyGather>&>(*s);
  s->plan(dev.pv, nullptr);
  Kokkos::View<double*> out("out", dev.pv.threads);
  const remap::GatherReduceBody<Elem, Same> body{out, Same{}};
  remap::Sums2 sums;
  for (int calls = 0; !a.decided() && calls < 100; ++calls) {
    s->set_data(dev.data, false);
    remap::execute<Elem, WithCopyGather>(*s, body, false, sums);
    Kokkos::fence();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    const auto& perm = s->thread_perm();
    for (std::int64_t t = 0; t < host.threads; ++t)
      ASSERT_DOUBLE_EQ(h(t), ref[perm.empty() ? t : perm[t]]) << calls;
  }
  ASSERT_TRUE(a.decided());
  bool profiled = false;
  for (const auto& p : s->report().predictions)
    if (p.name == "copy-gather") profiled = p.profiled;
  EXPECT_TRUE(profiled);
  // Made by name like any other, and named by its key.
  auto c = remap::make_strategy<Elem, WithCopyGather>("copy-gather", o);
  EXPECT_EQ(c->name(), "copy-gather(1)");
}

// The one reader gives every app the keys of every strategy it accepts: throttle's reach MD and
// SP as they reach CG, and each app keeps its own defaults.
TEST(RemapFrontDoor, ThrottleKeysReachEveryApp) {
  const std::vector<std::string> sets = {"remap.mode=throttle",    "remap.schedule=sj",
                                         "remap.chunk_threads=64", "remap.queue_unit=warp",
                                         "remap.pack=false",       "remap.bisector=kd"};
  auto check = [](const remap::RemapOptions& o) {
    EXPECT_EQ(o.throttle.schedule, remap::ThrottleSchedule::SJ);
    EXPECT_EQ(o.throttle.chunk_threads, 64);
    EXPECT_EQ(o.throttle.queue_unit, remap::ThrottleOptions::QueueUnit::Warp);
    EXPECT_FALSE(o.throttle.pack);
    EXPECT_TRUE(o.throttle.bisector_set);
    EXPECT_EQ(o.throttle.bisector, remap::Bisector::kd_tiling);
  };
  auto dm = deck("inputs/lj_melt.yaml", sets);
  const md::MdParams m = md::read_md_params(dm);
  check(m.remap.options);
  EXPECT_EQ(m.remap.options.chunks, 4);
  auto dc = deck("inputs/cg_laplace2d.yaml", sets);
  const cg::CgParams c = cg::read_cg_params(dc);
  check(c.spmv.remap_opt);
  EXPECT_EQ(c.spmv.remap_opt.chunks, 1);
  auto ds = deck("inputs/sp_random3sat.yaml", sets);
  const sp::SpParams s = sp::read_sp_params(ds);
  check(s.solve.survey.remap.options);
  EXPECT_EQ(s.solve.survey.remap.options.streams, 1);
  EXPECT_EQ(s.solve.survey.remap.partition_bytes, 2 << 20);
  // A key an app's kernel cannot serve stays unknown to its decks.
  auto bad = deck("inputs/cg_laplace2d.yaml", {"remap.lanes=2"});
  EXPECT_THROW(cg::read_cg_params(bad), InputError);
}

// Device-side strategies of the remap layer on a generic pattern (no MD): every strategy gives
// the gather's result, the remap cache counts hits and invalidations, padding refuses multi-
// pattern kernels, sharing splits oversize blocks, auto decides after profiling.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <future>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "mdremap/remap/impl/cost_model.hpp"
#include "mdremap/remap/gather_reduce.hpp"
#include "mdremap/remap/registry.hpp"
#include "remap_test_util.hpp"

using namespace mdremap;
using namespace mdremap::remap;
using mdremap::remap::testing::make_pattern;
using mdremap::remap::testing::make_shuffled_lattice;

namespace {

using Elem = Kokkos::Array<double, 2>;  // 16-byte elements (like a float4 position)

struct First {
  KOKKOS_INLINE_FUNCTION double operator()(const Elem& e) const { return e[0]; }
};

// Outputs of the last execution in the old thread order (the contract: thread_perm(), new -> old).
std::vector<double> back_to_old_order(const RemapStrategy<Elem>& s, std::vector<double> v) {
  const ThreadPermutation& perm = s.thread_perm();
  if (perm.empty()) return v;
  std::vector<double> back(v.size());
  for (std::size_t nt = 0; nt < v.size(); ++nt) back[perm[nt]] = v[nt];
  return back;
}

// A pattern on the device plus its data A[e] = (e * 0.5 + 1, -e).
struct Fixture {
  IrregularPattern host;
  PatternView pv;
  Kokkos::View<Elem*> data;
  explicit Fixture(const IrregularPattern& p) : host(p) {
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
    data = Kokkos::View<Elem*>("A", p.data_count);
    auto hd = Kokkos::create_mirror_view(data);
    for (std::int64_t e = 0; e < p.data_count; ++e) hd(e) = Elem{{e * 0.5 + 1.0, -double(e)}};
    Kokkos::deep_copy(data, hd);
  }
  // out[t] for the old thread order.
  std::vector<double> run(RemapStrategy<Elem>& s, int times = 1, double* total = nullptr) {
    s.plan(pv, &host);
    Kokkos::View<double*> out("out", pv.threads);
    const GatherReduceBody<Elem, First> body{out, First{}};
    Sums2 sums;
    for (int k = 0; k < times; ++k) {
      s.set_data(data, false);
      remap::execute(s, body, k == times - 1, sums);
    }
    Kokkos::fence();
    if (total) *total = sums.s0;
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    return back_to_old_order(s, std::vector<double>(h.data(), h.data() + h.extent(0)));
  }
};

std::vector<double> reference(const IrregularPattern& p) {
  std::vector<double> out(p.threads, 0.0);
  for (std::int64_t t = 0; t < p.threads; ++t)
    for (int j = 0; j < p.len[t]; ++j) out[t] += p.at(j, t) * 0.5 + 1.0;
  return out;
}

}  // namespace

// Every strategy and option variant computes exactly what the plain gather computes (same values
// summed in the same order: bitwise equal).
TEST(RemapStrategies, AllStrategiesMatchGatherOnShuffledLattice) {
  Fixture fx(make_shuffled_lattice(12, 7).pattern);  // 1728 threads, 18 refs each
  const auto ref = reference(fx.host);
  struct Case {
    std::string mode;
    RemapOptions o;
  };
  std::vector<Case> cases;
  RemapOptions base;
  cases.push_back({"gather", base});
  RemapOptions g = base;
  g.path = GatherPath::Global;
  cases.push_back({"gather", g});
  // seed 003 Algorithm 3's texture path, and split (the read-only cache through both of the L1's
  // data pipes; 16-byte elements alternate between __ldg and texture fetches): CUDA texture
  // objects where they exist, a clear refusal (never a silent fallback) elsewhere.
  for (const GatherPath path : {GatherPath::Texture, GatherPath::Split}) {
    RemapOptions tex = base;
    tex.path = path;
    if (texture_path_available()) {
      cases.push_back({"gather", tex});
    } else {
      try {
        make_strategy<Elem>("gather", tex);
        ADD_FAILURE() << to_string(path) << " path accepted on a backend without textures";
      } catch (const mdremap::Error& e) {
        EXPECT_NE(std::string(e.what()).find("texture"), std::string::npos) << e.what();
      }
    }
  }
  cases.push_back({"dup", base});
  RemapOptions d = base;
  d.chunks = 7;
  d.streams = 3;
  cases.push_back({"dup", d});
  d.dup_fraction = 0.4;  // partial duplication: rows >= 8 gathered
  cases.push_back({"dup", d});
  d.cache = false;
  cases.push_back({"dup", d});
  cases.push_back({"padding", base});
  cases.push_back({"sharing", base});
  RemapOptions sm = base;
  sm.smem_bytes = 64 * 16;  // 64 elements: forces splits
  cases.push_back({"sharing", sm});
  // seed 002 §3: every schedule over parts small enough that there are several (16-byte
  // elements: 2 KB = 128 of them a part).
  for (const auto sc :
       {ThrottleSchedule::CF, ThrottleSchedule::CFQ, ThrottleSchedule::SJ, ThrottleSchedule::SJQ}) {
    RemapOptions th = base;
    th.throttle.schedule = sc;
    th.throttle.cache_bytes = 2048;
    th.throttle.chunk_threads = 40;
    cases.push_back({"throttle", th});
    th.throttle.pack = false;  // x read in place in the parts' order
    cases.push_back({"throttle", th});
  }
  RemapOptions au = base;
  au.profile_steps = 1;
  cases.push_back({"auto", au});
  for (const auto& c : cases) {
    SCOPED_TRACE(c.mode);
    auto s = make_strategy<Elem>(c.mode, c.o);
    double total = 0;
    const auto out = fx.run(*s, 6, &total);  // 6 executions: auto profiles then decides
    ASSERT_EQ(out.size(), ref.size());
    for (std::size_t t = 0; t < ref.size(); ++t) ASSERT_DOUBLE_EQ(out[t], ref[t]) << "thread " << t;
    EXPECT_NEAR(total, std::accumulate(ref.begin(), ref.end(), 0.0), 1e-9 * total);
  }
}

// seed 000 §5.2: unchanged data hit the cache (no remap), changed data invalidate every line.
TEST(RemapStrategies, DupCacheHitsOnStaticDataAndInvalidatesOnChange) {
  Fixture fx(make_shuffled_lattice(8, 3).pattern);  // 512 threads
  RemapOptions o;
  o.chunks = 4;
  o.streams = 2;
  DuplicationStrategy<Elem> s(o);
  s.plan(fx.pv, &fx.host);
  ASSERT_EQ(s.chunks(), 4);
  Kokkos::View<double*> out("out", fx.pv.threads);
  const GatherReduceBody<Elem, First> body{out, First{}};
  Sums2 sums;
  auto exec = [&](bool changed) {
    s.set_data(fx.data, changed);
    s.execute(body, false, sums);
  };
  exec(false);  // first use: 4 misses
  EXPECT_EQ(s.report().cache_misses, 4);
  EXPECT_EQ(s.report().cache_hits, 0);
  EXPECT_EQ(s.report().remapped_chunks, 4);
  exec(false);  // static data (CG matrix, SP graph): every chunk hits
  exec(false);
  EXPECT_EQ(s.report().cache_hits, 8);
  EXPECT_EQ(s.report().remapped_chunks, 4);
  exec(true);  // data changed (MD positions): 4 lines invalidated, 4 remaps
  EXPECT_EQ(s.report().invalidations, 4);
  EXPECT_EQ(s.report().cache_misses, 8);
  EXPECT_EQ(s.report().remapped_chunks, 8);
  // A changed value must reach the output: without invalidation it would be stale.
  auto hd = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fx.data);
  for (std::int64_t e = 0; e < fx.host.data_count; ++e) hd(e)[0] += 1.0;
  Kokkos::deep_copy(fx.data, hd);
  exec(true);
  Kokkos::fence();
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  const auto ref = reference(fx.host);
  for (std::int64_t t = 0; t < fx.host.threads; ++t)
    ASSERT_DOUBLE_EQ(h(t), ref[t] + fx.host.len[t]);
  // A new plan clears the cache.
  s.plan(fx.pv, &fx.host);
  exec(false);
  EXPECT_EQ(s.report().cache_misses, 16);  // 8 before + 4 after the change + 4 after re-plan
}

TEST(RemapStrategies, PaddingRefusesKernelsWithSeveralReferencePatterns) {
  RemapOptions o;
  o.reference_patterns = 3;
  o.kernel = "the test kernel";
  try {
    make_strategy<Elem>("padding", o);
    FAIL() << "padding accepted a kernel with three reference patterns";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("padding does not apply: the test kernel has 3 reference patterns"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("seed 001 §3.3"), std::string::npos) << m;
  }
  o.reference_patterns = 1;
  EXPECT_NO_THROW(make_strategy<Elem>("padding", o));
}

// Hand-computed: 4 threads in one block, each reading 2 distinct elements (8 unique); a block
// can stage 4 elements, so the block is halved once (2 threads, 4 elements each) -> 1 split.
TEST(RemapStrategies, SharingSplitsOversizeBlocksAndStillComputes) {
  Fixture fx(make_pattern({{0, 1}, {2, 3}, {4, 5}, {6, 7}}, 8, 16));
  RemapOptions o;
  o.block_threads = 4;
  o.smem_bytes = 4 * 16;
  SharingStrategy<Elem> s(o);
  const auto out = fx.run(s);
  EXPECT_EQ(s.report().splits, 1);
  EXPECT_EQ(s.report().blocks, 2);
  EXPECT_EQ(s.report().max_block_set, 4);
  const auto ref = reference(fx.host);
  for (std::size_t t = 0; t < ref.size(); ++t) EXPECT_DOUBLE_EQ(out[t], ref[t]);
  // Without the limit: one block of 8 elements, no split.
  o.smem_bytes = 1 << 20;
  SharingStrategy<Elem> big(o);
  fx.run(big);
  EXPECT_EQ(big.report().splits, 0);
  EXPECT_EQ(big.report().blocks, 1);
}

TEST(RemapStrategies, AutoDecidesAfterProfilingEveryCandidate) {
  Fixture fx(make_shuffled_lattice(8, 5).pattern);
  RemapOptions o;
  o.profile_steps = 2;
  o.reference_patterns = 1;
  // A long run planned once over static data (CG-like): no candidate's plan can exceed the
  // gather's whole run, and every candidate is profiled to the end.
  o.horizon.executions = 1000000;
  o.data_changes = false;
  auto s = make_strategy<Elem>("auto", o);
  auto& a = static_cast<AutoStrategy<Elem>&>(*s);
  s->plan(fx.pv, nullptr);  // auto makes the host copy itself, timed, when a candidate needs it
  Kokkos::View<double*> out("out", fx.pv.threads);
  const GatherReduceBody<Elem, First> body{out, First{}};
  Sums2 sums;
  int calls = 0;
  const auto ref = reference(fx.host);
  while (!a.decided() && calls < 100) {
    s->set_data(fx.data, false);
    remap::execute(*s, body, false, sums);
    ++calls;
    // Every profiled execution computes the right result, in the order thread_perm() says.
    Kokkos::fence();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    const auto got = back_to_old_order(*s, std::vector<double>(h.data(), h.data() + h.extent(0)));
    for (std::size_t t = 0; t < ref.size(); ++t) ASSERT_DOUBLE_EQ(got[t], ref[t]) << calls;
  }
  ASSERT_TRUE(a.decided());
  const RemapReport r = s->report();
  ASSERT_EQ(r.predictions.size(), 5u);  // gather, dup, padding, sharing, throttle
  // Each candidate: one first execution + profile_steps (one fewer for a clear loser, stopped
  // after its first sample); the decision comes at the next call.
  EXPECT_LE(calls, 3 * 5 + 1);
  EXPECT_GE(calls, 2 * 5 + 1);
  const std::string chosen = a.chosen()->name();
  double best = 1e300;
  for (const auto& p : r.predictions) {
    EXPECT_TRUE(p.profiled) << p.name << ": " << p.note;
    EXPECT_NEAR(p.run_ms, predict_run_ms(p, o.horizon), 1e-9 * p.run_ms) << p.name;
    best = std::min(best, p.run_ms);
  }
  for (const auto& p : r.predictions)
    if (p.name == chosen) EXPECT_EQ(p.run_ms, best);
  EXPECT_EQ(r.predicted_run_ms, best);
  EXPECT_NE(r.decision.find("auto chose " + chosen), std::string::npos);
}

// seed 001 §4 with every cost counted, on injected costs: a candidate with an expensive plan and a
// cheap execution loses a short run re-planned often and wins a long run planned once.
TEST(RemapCostModel, ShortAndLongHorizonsChooseDifferently) {
  std::vector<CandidatePrediction> c(3);
  c[0] = {"gather", 0.0, 0.0, 2.0, 0, true, ""};     // no plan, 2 ms an execution
  c[1] = {"sharing", 400.0, 0.0, 0.5, 0, true, ""};  // a 400 ms host plan, 0.5 ms an execution
  c[2] = {"dup", 1.0, 30.0, 1.9, 0, true, ""};       // a one-time 30 ms remap per plan
  RunHorizon shortrun{100, 20};                      // MD: 100 steps, a list build every 20
  RunHorizon longrun{100000, 0};                     // CG: planned once, 100,000 executions
  EXPECT_EQ(shortrun.plans(), 5);
  EXPECT_EQ(longrun.plans(), 1);
  const int s = choose_candidate(c, shortrun);
  EXPECT_EQ(c[s].name, "gather");
  EXPECT_DOUBLE_EQ(c[1].run_ms, 5 * 400.0 + 100 * 0.5);  // 2050 ms against the gather's 200
  EXPECT_DOUBLE_EQ(c[2].run_ms, 5 * 31.0 + 100 * 1.9);
  const int l = choose_candidate(c, longrun);
  EXPECT_EQ(c[l].name, "sharing");
  EXPECT_DOUBLE_EQ(c[1].run_ms, 400.0 + 100000 * 0.5);
  // Plans alone are what auto compares before profiling a candidate at all.
  EXPECT_GT(predict_plans_ms(400.0, shortrun), 100 * 2.0);
  EXPECT_LT(predict_plans_ms(400.0, longrun), 100000 * 2.0);
  // The most a candidate can save is every execution at the floor instead of the best one's time:
  // a 400 ms plan cannot pay for itself over 100 executions of a 2 ms gather with a 0.5 ms floor.
  EXPECT_DOUBLE_EQ(max_saving_ms(2.0, 0.5, shortrun), 100 * 1.5);
  EXPECT_GT(predict_plans_ms(400.0, shortrun), max_saving_ms(2.0, 0.5, shortrun));
  EXPECT_LT(predict_plans_ms(400.0, longrun), max_saving_ms(2.0, 0.5, longrun));
  EXPECT_DOUBLE_EQ(max_saving_ms(0.4, 0.5, longrun), 0.0);  // at the floor already: nothing
  // What a profiled candidate kept alive has spent on its first plan and remap is sunk: over 100
  // executions dup (31 ms spent, 1.9 ms an execution) then beats the gather (2 ms).
  RunHorizon hundred{100, 0};
  EXPECT_EQ(c[choose_candidate(c, hundred)].name, "gather");  // 2 x 100 < 31 + 1.9 x 100
  EXPECT_EQ(c[choose_candidate(c, hundred, {0.0, 0.0, 31.0})].name, "dup");  // sharing released
  // A candidate that was not profiled is never chosen.
  c[0].profiled = false;
  c[1].profiled = false;
  EXPECT_EQ(c[choose_candidate(c, longrun)].name, "dup");
}

// A 100-step run re-planned every 20 steps where the only cheap execution needs an expensive
// plan: auto must not pick it. Sharing's plan (two passes over every reference, a hash set and a
// sort per block) costs far more than one gather, so at a horizon of 1 execution its plans alone
// exceed the gather's whole run.
TEST(RemapStrategies, AutoDoesNotProfileACandidateWhosePlansExceedTheBestRun) {
  Fixture fx(make_shuffled_lattice(24, 9).pattern);  // 13,824 threads
  RemapOptions o;
  o.profile_steps = 1;
  o.reference_patterns = 3;  // padding does not apply
  o.horizon = RunHorizon{1, 0};
  auto s = make_strategy<Elem>("auto", o);
  auto& a = static_cast<AutoStrategy<Elem>&>(*s);
  s->plan(fx.pv, nullptr);
  Kokkos::View<double*> out("out", fx.pv.threads);
  const GatherReduceBody<Elem, First> body{out, First{}};
  Sums2 sums;
  for (int k = 0; k < 20 && !a.decided(); ++k) {
    s->set_data(fx.data, true);
    remap::execute(*s, body, false, sums);
  }
  ASSERT_TRUE(a.decided());
  const RemapReport r = s->report();
  bool saw_sharing = false;
  for (const auto& p : r.predictions) {
    if (p.name == "padding") EXPECT_NE(p.note.find("does not apply"), std::string::npos);
    if (p.name != "sharing") continue;
    saw_sharing = true;
    // One execution of the gather takes microseconds; sharing's plan takes far longer.
    EXPECT_FALSE(p.profiled);
    EXPECT_NE(p.note.find("not profiled"), std::string::npos) << p.note;
  }
  EXPECT_TRUE(saw_sharing);
  EXPECT_NE(a.chosen()->name(), "sharing");
}

// The exploration budget: with none to spend, auto stops after its first candidate (the gather,
// no plan) and says why for every other one.
TEST(RemapStrategies, AutoStopsExploringWhenItsBudgetIsSpent) {
  Fixture fx(make_shuffled_lattice(8, 5).pattern);
  RemapOptions o;
  o.profile_steps = 2;
  o.reference_patterns = 1;
  o.horizon.executions = 1000000;
  o.explore_budget = 1e-12;
  auto s = make_strategy<Elem>("auto", o);
  auto& a = static_cast<AutoStrategy<Elem>&>(*s);
  s->plan(fx.pv, nullptr);
  Kokkos::View<double*> out("out", fx.pv.threads);
  const GatherReduceBody<Elem, First> body{out, First{}};
  Sums2 sums;
  int calls = 0;
  for (; calls < 100 && !a.decided(); ++calls) {
    s->set_data(fx.data, false);
    remap::execute(*s, body, false, sums);
  }
  ASSERT_TRUE(a.decided());
  EXPECT_EQ(calls, 3 + 1);  // the gather's first execution and 2 samples, then the decision
  EXPECT_EQ(a.chosen()->name(), "gather");
  int skipped = 0;
  for (const auto& p : s->report().predictions)
    if (p.note.find("exploration budget") != std::string::npos) ++skipped;
  EXPECT_GE(skipped, 3) << s->report().decision;  // dup, sharing, throttle (padding may apply)
}

// Candidates the app measured itself: one of auto's own (the gather) stands for its profile, an
// outside one (another kernel, a vendor library) competes and, where it is the fastest, is
// chosen without auto running anything; executing through auto then refuses.
TEST(RemapStrategies, AutoWeighsTheAppsOwnMeasurements) {
  Fixture fx(make_shuffled_lattice(8, 5).pattern);
  for (const bool outside_wins : {true, false}) {
    RemapOptions o;
    o.profile_steps = 2;
    o.reference_patterns = 1;
    o.horizon.executions = 1000;
    auto s = make_strategy<Elem>("auto", o);
    auto& a = static_cast<AutoStrategy<Elem>&>(*s);
    s->plan(fx.pv, nullptr);
    a.add_measured("gather", 1.0, 0.0);  // 1 ms an execution, as the app timed it
    a.add_measured("vendor", outside_wins ? 1e-9 : 1e9, 0.5);
    ASSERT_TRUE(a.prepare() || !outside_wins);  // nothing can beat 1e-9 ms: no profiling
    Kokkos::View<double*> out("out", fx.pv.threads);
    const GatherReduceBody<Elem, First> body{out, First{}};
    Sums2 sums;
    int calls = 0;
    for (; calls < 100 && !a.prepare(); ++calls) {
      s->set_data(fx.data, false);
      remap::execute(*s, body, false, sums);
    }
    ASSERT_TRUE(a.decided());
    const auto rep = s->report();
    if (outside_wins) {
      EXPECT_EQ(a.chosen_outside(), "vendor");
      EXPECT_EQ(a.chosen(), nullptr);
      EXPECT_EQ(s->name(), "auto:vendor");
      EXPECT_EQ(calls, 0);
      EXPECT_NE(rep.decision.find("the app's own"), std::string::npos) << rep.decision;
      s->set_data(fx.data, false);
      EXPECT_THROW(remap::execute(*s, body, false, sums), Error);
    } else {
      EXPECT_TRUE(a.chosen_outside().empty());
      ASSERT_NE(a.chosen(), nullptr);
      // The gather's profile came from the app: auto's own executions went to the others.
      for (const auto& p : rep.predictions)
        if (p.name == "gather") EXPECT_EQ(p.exec_ms, 1.0);
      remap::execute(*s, body, false, sums);  // runs its choice
    }
  }
}

// The CSR (offsets) layout with per-reference weights, as SpMV describes x[col[rowptr[t]+j]]
// with val[rowptr[t]+j]: every strategy computes out[t] = sum_j w[t][j] * A[P[t][j]] exactly as
// the serial reference does; dup duplicates the references (ELL) once and serves every later
// execution from the remap cache.
namespace {
struct WeightedFirst {
  static constexpr PatternLayout kLayout = PatternLayout::Offsets;
  static constexpr int kReferencePatterns = 1;
  Kokkos::View<double*> out;
  template <bool EV, class Access>
  KOKKOS_INLINE_FUNCTION void thread(const std::int64_t t, const Access& a, Sums2& s) const {
    double sum = 0;
    for (int j = 0; j < a.count(t); ++j) sum += a.weight(j, t) * a(j, t)[0];
    out(t) = sum;
    if constexpr (EV) s.s0 += sum;
  }
};
}  // namespace

TEST(RemapStrategies, OffsetsLayoutWithWeightsMatchesSerialReference) {
  // Rows of 0..40 entries (one row longer than a warp, some empty), random columns.
  std::mt19937 rng(11);
  const std::int64_t T = 3000, Z = 2500;
  std::vector<std::int64_t> start(T), off(T + 1, 0);
  std::vector<int> len(T), col;
  std::vector<double> w;
  for (std::int64_t t = 0; t < T; ++t) {
    len[t] = t == 17 ? 200 : static_cast<int>(rng() % 41);
    start[t] = static_cast<std::int64_t>(col.size());
    for (int j = 0; j < len[t]; ++j) {
      col.push_back(static_cast<int>(rng() % Z));
      w.push_back(0.25 + (rng() % 1000) / 997.0);
    }
  }
  Kokkos::View<int*> dcol("col", col.size()), dlen("len", T);
  Kokkos::View<std::int64_t*> dstart("start", T);
  Kokkos::View<double*> dw("w", w.size());
  Kokkos::deep_copy(dcol, Kokkos::View<int*, Kokkos::HostSpace>(col.data(), col.size()));
  Kokkos::deep_copy(dlen, Kokkos::View<int*, Kokkos::HostSpace>(len.data(), T));
  Kokkos::deep_copy(dstart, Kokkos::View<std::int64_t*, Kokkos::HostSpace>(start.data(), T));
  Kokkos::deep_copy(dw, Kokkos::View<double*, Kokkos::HostSpace>(w.data(), w.size()));
  PatternView pv;
  pv.layout = PatternLayout::Offsets;
  pv.index = dcol;
  pv.len = dlen;
  pv.start = dstart;
  pv.weight = dw;
  pv.threads = T;
  pv.rows = *std::max_element(len.begin(), len.end());
  pv.data_count = Z;
  Kokkos::View<Elem*> data("A", Z);
  auto hd = Kokkos::create_mirror_view(data);
  for (std::int64_t e = 0; e < Z; ++e) hd(e) = Elem{{e * 0.5 + 1.0, -double(e)}};
  Kokkos::deep_copy(data, hd);
  std::vector<double> ref(T, 0.0);
  for (std::int64_t t = 0; t < T; ++t)
    for (int j = 0; j < len[t]; ++j) ref[t] += w[start[t] + j] * (col[start[t] + j] * 0.5 + 1.0);
  const IrregularPattern host = host_pattern(pv, sizeof(Elem));
  ASSERT_TRUE(host.csr());
  for (const std::string mode :
       {"gather", "dup", "padding", "sharing", "throttle", "throttle-inplace", "auto"}) {
    for (int variant = 0; variant < 2; ++variant) {
      SCOPED_TRACE(mode + " variant " + std::to_string(variant));
      const bool in_place = mode == "throttle-inplace";  // weights read through the pattern
      RemapOptions o;
      o.profile_steps = 1;
      o.horizon.executions = 100;
      o.chunks = variant ? 5 : 1;
      o.streams = variant ? 3 : 1;
      o.dup_fraction = variant ? 0.3 : 1.0;
      o.smem_bytes = variant ? 256 * 16 : 0;  // sharing: force splits (thread 17 alone: 200)
      o.path = variant ? GatherPath::Global : GatherPath::ReadOnly;
      // throttle: several parts either way (thread 17 reads 200 elements: 3.2 KB), Split-Join
      // queues (profiled over the first executions) or plain parts.
      o.throttle.cache_bytes = variant ? 8192 : 16384;
      o.throttle.schedule = variant ? ThrottleSchedule::SJQ : ThrottleSchedule::CF;
      o.throttle.chunk_threads = variant ? 7 : 256;
      o.throttle.pack = !in_place;
      auto s = make_strategy<Elem>(in_place ? "throttle" : mode, o);
      s->plan(pv, s->needs_host_pattern() ? &host : nullptr);
      Kokkos::View<double*> out("out", T);
      const WeightedFirst body{out};
      Sums2 sums;
      for (int k = 0; k < 8; ++k) {
        s->set_data(data, false);  // static data (CG's matrix in the references)
        remap::execute(*s, body, k == 7, sums);
        Kokkos::fence();
        auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
        const auto got =
            back_to_old_order(*s, std::vector<double>(h.data(), h.data() + h.extent(0)));
        for (std::int64_t t = 0; t < T; ++t) ASSERT_DOUBLE_EQ(got[t], ref[t]) << "thread " << t;
      }
      const RemapReport r = s->report();
      if (mode == "dup") {
        EXPECT_EQ(r.dup_target, "references");
        EXPECT_EQ(r.remapped_chunks, r.chunks);  // remapped once...
        EXPECT_EQ(r.cache_hits, 7 * r.chunks);   // ...then served by the cache
      }
      if (mode == "sharing" && variant) EXPECT_GT(r.splits, 0);
      if (mode == "throttle" || in_place) {
        const auto& th = static_cast<const ThrottleStrategy<Elem>&>(*s);
        EXPECT_GT(th.throttle_plan().parts(), 1);
        // static data: packed once (Algorithm 5), then cached; in place never
        EXPECT_EQ(r.remapped_chunks, in_place ? 0 : 1);
        if (variant) EXPECT_FALSE(th.cover().empty());  // profiled, then the cover ran
      }
    }
  }
}

// What auto's byte bound uses: duplicated data that change every execution are written and read
// back every time (R x T elements of A'); duplicated references and static data cost nothing per
// execution beyond the gather.
// auto times a host planner on the pattern's first threads, gathered on the device: those
// threads' references in CSR, their data renumbered densely in the original order.
TEST(RemapPattern, HeadIsTheFirstThreadsWithTheirDataRenumberedDensely) {
  std::mt19937 rng(11);
  const std::int64_t T = 1000, Z = 5000, n = 300;
  const int R = 9;
  std::vector<int> len(T);
  for (auto& l : len) l = static_cast<int>(rng() % (R + 1));
  // Offsets: thread segments stored in a shuffled order (start[t] not monotonic, as SP's).
  std::vector<std::int64_t> order(T), start(T);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<int> col;
  for (const std::int64_t t : order) {
    start[t] = static_cast<std::int64_t>(col.size());
    for (int j = 0; j < len[t]; ++j) col.push_back(static_cast<int>(rng() % Z));
  }
  // Strided: the same references column-major, index[j * T + t].
  std::vector<int> strided(static_cast<std::size_t>(R) * T, -1);
  for (std::int64_t t = 0; t < T; ++t)
    for (int j = 0; j < len[t]; ++j) strided[j * T + t] = col[start[t] + j];
  auto to_device = [](const auto& v, const std::string& name) {
    using E = typename std::decay_t<decltype(v)>::value_type;
    Kokkos::View<E*> d(name, v.size());
    Kokkos::deep_copy(d, Kokkos::View<const E*, Kokkos::HostSpace>(v.data(), v.size()));
    return d;
  };
  // Expected: the first n threads' references, data renumbered in sorted order.
  std::vector<int> refs;
  for (std::int64_t t = 0; t < n; ++t)
    for (int j = 0; j < len[t]; ++j) refs.push_back(col[start[t] + j]);
  std::vector<int> distinct(refs);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  for (const PatternLayout layout : {PatternLayout::Offsets, PatternLayout::Strided}) {
    PatternView pv;
    pv.layout = layout;
    pv.len = to_device(len, "len");
    pv.threads = T;
    pv.rows = R;
    pv.data_count = Z;
    if (layout == PatternLayout::Offsets) {
      pv.index = to_device(col, "col");
      pv.start = to_device(start, "start");
    } else {
      pv.index = to_device(strided, "idx");
      pv.stride_j = T;
      pv.stride_t = 1;
    }
    const IrregularPattern h = host_pattern_head(pv, 8, n);
    ASSERT_EQ(h.threads, n);
    ASSERT_TRUE(h.csr());
    EXPECT_EQ(h.data_count, static_cast<std::int64_t>(distinct.size()));
    std::size_t k = 0;
    for (std::int64_t t = 0; t < n; ++t) {
      ASSERT_EQ(h.len[t], len[t]);
      for (int j = 0; j < len[t]; ++j, ++k)
        EXPECT_EQ(distinct[h.at(j, t)], refs[k]) << "thread " << t << " entry " << j;
    }
    EXPECT_EQ(h.references(), static_cast<std::int64_t>(refs.size()));
  }
}

TEST(RemapStrategies, DupReportsTheBytesAnExecutionMustMove) {
  Fixture fx(make_shuffled_lattice(8, 3).pattern);  // 512 threads, 18 rows
  RemapOptions o;
  DuplicationStrategy<Elem> s(o);
  EXPECT_DOUBLE_EQ(s.min_exec_bytes(fx.pv), 2.0 * 18 * 512 * sizeof(Elem));
  o.dup_fraction = 0.5;
  EXPECT_DOUBLE_EQ(DuplicationStrategy<Elem>(o).min_exec_bytes(fx.pv),
                   2.0 * 9 * 512 * sizeof(Elem));
  o.data_changes = false;
  EXPECT_DOUBLE_EQ(DuplicationStrategy<Elem>(o).min_exec_bytes(fx.pv), 0.0);
  PatternView csr = fx.pv;
  csr.layout = PatternLayout::Offsets;
  o.data_changes = true;
  EXPECT_DOUBLE_EQ(DuplicationStrategy<Elem>(o).min_exec_bytes(csr), 0.0);
}

// A part of the threads at a time (ThreadSelection): gather runs the first threads, then the
// rest, and together they give the whole execution's outputs and sums; threads outside a part
// are not touched; a copying strategy refuses a part (it would copy data the app has not
// written yet).
TEST(RemapStrategies, GatherRunsThreadSelectionsThatTogetherMakeTheWholeExecution) {
  const IrregularPattern p = make_shuffled_lattice(12, 5).pattern;
  Fixture fx(p);
  auto s = make_strategy<Elem>("gather", RemapOptions{});
  ASSERT_TRUE(runs_selections(*s));
  s->plan(fx.pv, &fx.host);
  s->set_data(fx.data, true);
  const std::int64_t split = p.threads / 3 + 7;  // not a multiple of a warp or a block
  Kokkos::View<double*> out("out", p.threads);
  Kokkos::deep_copy(out, -7.0);
  const GatherReduceBody<Elem, First> body{out, First{}};
  ThreadSelection first;
  first.count = split;
  Sums2 part1;
  execute_selected(*s, body, true, part1, first, false);
  Kokkos::fence();
  const std::vector<double> ref = reference(p);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  double want1 = 0;
  for (std::int64_t t = 0; t < p.threads; ++t) {
    if (t >= split) {
      ASSERT_EQ(h(t), -7.0) << "thread " << t << " ran in the part that does not hold it";
    } else {
      ASSERT_EQ(h(t), ref[t]) << t;
      want1 += ref[t];
    }
  }
  EXPECT_NEAR(part1.s0, want1, 1e-9 * std::abs(want1));
  ThreadSelection second;
  second.first = split;
  second.count = p.threads - split;
  Sums2 part2;
  execute_selected(*s, body, true, part2, second, true);
  Kokkos::fence();
  Kokkos::deep_copy(h, out);
  double total = 0;
  for (std::int64_t t = 0; t < p.threads; ++t) {
    ASSERT_EQ(h(t), ref[t]) << t;
    total += ref[t];
  }
  EXPECT_NEAR(part1.s0 + part2.s0, total, 1e-9 * std::abs(total));
  EXPECT_EQ(s->report().executions, 1);  // the two parts are one execution

  auto dup = make_strategy<Elem>("dup", RemapOptions{});
  EXPECT_FALSE(runs_selections(*dup));
  dup->plan(fx.pv, &fx.host);
  dup->set_data(fx.data, true);
  Sums2 none;
  EXPECT_THROW(execute_selected(*dup, body, false, none, first, true), Error);
}

TEST(RemapStrategies, UnknownModeNamesTheValidOnes) {
  try {
    make_strategy<Elem>("duplication", RemapOptions{});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("gather, dup, padding, sharing, throttle, auto"),
              std::string::npos)
        << e.what();
  }
}

// ---- sharing: the device planner and the launch classes ----
namespace {

// A host pattern on the device as an app describes it: Strided (index[j*T + t]) for the
// rows-by-threads copy, Offsets (start = row starts) for the CSR copy.
struct DevicePattern {
  PatternView pv;
  explicit DevicePattern(const IrregularPattern& p) {
    Kokkos::View<int*> idx("idx", p.index.size()), len("len", p.threads);
    Kokkos::deep_copy(idx,
                      Kokkos::View<const int*, Kokkos::HostSpace>(p.index.data(), p.index.size()));
    Kokkos::deep_copy(len, Kokkos::View<const int*, Kokkos::HostSpace>(p.len.data(), p.threads));
    pv.index = idx;
    pv.len = len;
    pv.threads = p.threads;
    pv.rows = p.rows;
    pv.data_count = p.data_count;
    if (p.csr()) {
      Kokkos::View<std::int64_t*> start("start", p.threads);
      Kokkos::deep_copy(
          start, Kokkos::View<const std::int64_t*, Kokkos::HostSpace>(p.offset.data(), p.threads));
      pv.layout = PatternLayout::Offsets;
      pv.start = start;
    } else {
      pv.layout = PatternLayout::Strided;
      pv.stride_j = p.threads;
      pv.stride_t = 1;
    }
  }
};

IrregularPattern random_rows(std::mt19937& rng, std::int64_t threads, int max_len,
                             std::int32_t data_count) {
  std::vector<std::vector<std::int32_t>> rows(threads);
  for (auto& r : rows) {
    r.resize(rng() % (max_len + 1));
    for (auto& e : r) e = static_cast<std::int32_t>(rng() % data_count);
  }
  return make_pattern(rows, data_count, 16);
}

// Every sub-block in exactly one launch class, in thread order inside it; a class's teams are as
// wide as its sub-blocks rounded up to the granule (0: backend's choice), and its scratch holds
// each of its sets but is less than twice the larger of the set and 1 KB (sized per block, not
// for the largest).
void expect_classes_fit(const DeviceSharingPlan& d, const SharingPlan& h, int granule,
                        int elem_bytes) {
  auto order = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.order);
  std::vector<int> seen(h.blocks(), 0);
  for (const SharingLaunchClass& c : d.classes) {
    ASSERT_GT(c.count, 0);
    for (std::int64_t i = c.first; i < c.first + c.count; ++i) {
      const int leaf = order(i);
      ASSERT_GE(leaf, 0);
      ASSERT_LT(leaf, h.blocks());
      ++seen[leaf];
      if (i > c.first) EXPECT_LT(order(i - 1), leaf);
      const std::int64_t bytes = std::int64_t{h.block_sizes[leaf]} * elem_bytes;
      const std::int64_t nt = h.block_begin[leaf + 1] - h.block_begin[leaf];
      EXPECT_GE(c.scratch_bytes, bytes);
      EXPECT_LT(c.scratch_bytes, 2 * std::max<std::int64_t>(1024, bytes));
      if (granule == 0) {
        EXPECT_EQ(c.team, 0);
      } else {
        EXPECT_EQ(c.team % granule, 0);
        EXPECT_GE(c.team, nt);
        EXPECT_LT(c.team, nt + granule);
      }
    }
  }
  for (std::int64_t b = 0; b < h.blocks(); ++b) EXPECT_EQ(seen[b], 1) << "block " << b;
}

}  // namespace

constexpr bool kHostBackend =
    std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::DefaultHostExecutionSpace>;

// The device planner gives exactly the serial host planner's plan (same sub-blocks, sets sorted by
// element id, same local indices, laid out like each pattern) on random patterns in both layouts,
// with splits several levels deep, alignment, partial last blocks, and the second pass 1 round
// (a hash set too small to decide a block in level-0 scratch); where a thread alone exceeds the
// capacity, both refuse.
TEST(SharingDevicePlan, MatchesTheHostPlannerExactly) {
  std::mt19937 rng(7001);
  int planned = 0, refused = 0, split = 0, second_round = 0;
  SharingDevicePlanner planner;  // reused: its arrays grow and are overwritten plan after plan
  for (int round = 0; round < 40; ++round) {
    const std::int64_t T = 1 + rng() % 700;
    const int max_len = 1 + static_cast<int>(rng() % 14);
    const IrregularPattern rows = random_rows(rng, T, max_len, 1 + rng() % 600);
    SharingDevicePlanOptions o;
    o.sharing.block_threads = std::vector<int>{1, 5, 32, 50, 128, 256}[rng() % 6];
    o.sharing.capacity_elems = std::vector<std::int64_t>{0, 7, 14, 45, 160}[rng() % 5];
    o.sharing.align_elems = std::vector<int>{1, 4, 8}[rng() % 3];
    o.elem_bytes = 16;
    o.team_granule = round % 2 ? 32 : 0;
    o.scratch_break = round % 3 ? 0 : 1500;
    // A first round too small for the capacity (it must leave room for a team's inserts past its
    // limit: a GPU planner's team is 128 threads wide, a host one's 1).
    o.first_round_slots = round % 4 == 1 ? (kHostBackend ? 32 : 256) : 0;
    for (const IrregularPattern& p : {rows, to_csr(rows)}) {
      SCOPED_TRACE("round " + std::to_string(round) + (p.csr() ? " csr" : " rows"));
      const DevicePattern dp(p);
      SharingPlan ref;
      bool host_refused = false;
      try {
        ref = make_sharing_plan_serial(p, o.sharing);
      } catch (const Error&) {
        host_refused = true;
      }
      try {
        const DeviceSharingPlan d = planner.plan(dp.pv, o);
        ASSERT_FALSE(host_refused) << "the device planner accepted what the host refused";
        const SharingPlan got = to_host(d);
        EXPECT_EQ(got.block_begin, ref.block_begin);
        EXPECT_EQ(got.block_pos, ref.block_pos);
        EXPECT_EQ(got.block_sizes, ref.block_sizes);
        EXPECT_EQ(got.packed_src, ref.packed_src);
        EXPECT_EQ(got.local, ref.local);
        EXPECT_EQ(got.splits, ref.splits);
        EXPECT_EQ(got.max_block_set, ref.max_block_set);
        EXPECT_EQ(got.packed_elems, ref.packed_elems);
        EXPECT_EQ(got.dup_elems, ref.dup_elems);
        EXPECT_EQ(got.extra_bytes_vs_data, ref.extra_bytes_vs_data);
        expect_classes_fit(d, ref, o.team_granule, o.elem_bytes);
        ++planned;
        split += ref.splits > 0;
        second_round += d.count_rounds == 2;
      } catch (const Error& e) {
        EXPECT_TRUE(host_refused) << e.what();
        EXPECT_NE(std::string(e.what()).find("alone references"), std::string::npos) << e.what();
        ++refused;
      }
    }
  }
  EXPECT_GT(planned, 30);
  EXPECT_GT(refused, 0);
  EXPECT_GT(split, 10);
  EXPECT_GT(second_round, 2);
}

TEST(SharingDevicePlan, RefusesReferencesOutsideTheData) {
  const IrregularPattern p = make_pattern({{0, 1}, {2, 9}}, 8, 16);  // 9 >= data_count 8
  const DevicePattern dp(p);
  SharingDevicePlanner planner;
  SharingDevicePlanOptions o;
  o.sharing.block_threads = 2;
  try {
    planner.plan(dp.pv, o);
    FAIL() << "planned a reference outside the data";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("thread 1 references an element outside [0, 8)"),
              std::string::npos)
        << e.what();
  }
  // A strategy whose plan failed has no plan: it refuses to run rather than use a stale one.
  Fixture fx(make_pattern({{0, 1}, {2, 3}}, 8, 16));
  RemapOptions ro;
  ro.block_threads = 2;
  SharingStrategy<Elem> s(ro);
  fx.run(s);
  EXPECT_THROW(s.plan(dp.pv, nullptr), Error);
  Kokkos::View<double*> out("out", 2);
  Sums2 sums;
  s.set_data(fx.data, true);
  EXPECT_THROW(s.execute(GatherReduceBody<Elem, First>{out, First{}}, false, sums), Error);
}

// Blocks whose working set is larger than a Kokkos team's scratch (48 KB on a GPU, less Kokkos'
// reserve; 32 KB on the OpenMP backend): on CUDA they are staged whole through the opt-in shared
// memory kernel (227 KB a block on Hopper), elsewhere they are split. Either way every thread
// computes exactly the serial reference, with and without the reduction.
TEST(RemapStrategies, SharingLargeBlockSetsUseTheDeviceLimit) {
  std::mt19937 rng(3);
  std::vector<std::vector<std::int32_t>> rows(1024);
  for (auto& r : rows) {
    r.resize(40);
    for (auto& e : r) e = static_cast<std::int32_t>(rng() % 200000);
  }
  Fixture fx(make_pattern(rows, 200000, 16));
  RemapOptions o;
  o.block_threads = 128;  // about 5,100 distinct elements (80 KB) a block
  SharingStrategy<Elem> s(o);
  const std::int64_t team_max = SharingStrategy<Elem>::Policy::scratch_size_max(0);
  double total = 0;
  const auto out = fx.run(s, 3, &total);
  const auto ref = reference(fx.host);
  for (std::size_t t = 0; t < ref.size(); ++t) ASSERT_DOUBLE_EQ(out[t], ref[t]) << "thread " << t;
  EXPECT_NEAR(total, std::accumulate(ref.begin(), ref.end(), 0.0), 1e-9 * total);
  const RemapReport r = s.report();
  bool beyond_team = false;
  for (const SharingLaunchClass& c : s.device_plan().classes)
    beyond_team = beyond_team || c.scratch_bytes > team_max;
#ifdef MDREMAP_SHARING_OPTIN
  EXPECT_EQ(s.capacity_bytes(), device_optin_shared_bytes());
  if (device_optin_shared_bytes() >= 128 * 1024) {  // Hopper, Ampere: no block needs splitting
    EXPECT_EQ(r.splits, 0);
    EXPECT_GT(r.max_block_set * 16, team_max);
    EXPECT_TRUE(beyond_team);
  }
#else
  EXPECT_EQ(s.capacity_bytes(), team_max);
  EXPECT_GT(r.splits, 0);
  EXPECT_LE(r.max_block_set * 16, team_max);
  EXPECT_FALSE(beyond_team);
#endif
}

// Block sizes that are not warp multiples, rows of very different lengths and a capacity that
// splits blocks into sub-blocks of several widths: sets of many sizes, several launch classes, and
// every one computes exactly the serial reference.
TEST(RemapStrategies, SharingLaunchClassesOfSeveralTeamSizes) {
  std::mt19937 rng(12);
  Fixture fx(random_rows(rng, 3000, 36, 20000));
  const auto ref = reference(fx.host);
  for (const int bt : {100, 128, 200}) {
    SCOPED_TRACE(bt);
    RemapOptions o;
    o.block_threads = bt;
    o.smem_bytes = 700 * 16;  // splits blocks of long rows, not those of short ones
    SharingStrategy<Elem> s(o);
    double total = 0;
    const auto out = fx.run(s, 2, &total);
    for (std::size_t t = 0; t < ref.size(); ++t) ASSERT_DOUBLE_EQ(out[t], ref[t]) << t;
    EXPECT_NEAR(total, std::accumulate(ref.begin(), ref.end(), 0.0), 1e-9 * total);
    EXPECT_GT(s.report().splits, 0);
    const SharingPlan h = to_host(s.device_plan());
    expect_classes_fit(s.device_plan(), h, kHostBackend ? 0 : 32, 16);
    EXPECT_GT(s.device_plan().classes.size(), 1u);
  }
}

#if defined(KOKKOS_ENABLE_CUDA)
// seed 000 §5.1, Fig. 5 on the device: each chunk's remap runs on a remap stream of its own and
// overlaps the compute of the chunk before it, read from device timestamps of every chunk (not
// inferred from totals). Fails if the streams are not distinct or no remap overlaps a compute.
TEST(RemapStrategies, DupPipelineOverlapsRemapsWithComputesOnDistinctStreams) {
  const std::int64_t T = std::int64_t(1) << 20;
  const int R = 32;
  std::mt19937 rng(5);
  IrregularPattern p;
  p.threads = T;
  p.rows = R;
  p.data_count = T;
  p.elem_bytes = sizeof(Elem);
  p.len.assign(T, R);
  p.index.resize(static_cast<std::size_t>(R) * T);
  for (auto& e : p.index) e = static_cast<std::int32_t>(rng() % T);
  Fixture fx(p);
  RemapOptions o;
  o.chunks = 8;
  o.streams = 4;
  o.cache = false;
  DuplicationStrategy<Elem> s(o);
  s.plan(fx.pv, nullptr);
  ASSERT_TRUE(s.pipeline().distinct_streams());
  Kokkos::View<double*> out("out", T);
  const GatherReduceBody<Elem, First> body{out, First{}};
  Sums2 sums;
  s.pipeline().set_timing(true);
  double best = 0;
  for (int k = 0; k < 5; ++k) {
    s.set_data(fx.data, true);
    s.execute(body, false, sums);
    const PipelineTimeline tl = s.pipeline().timeline();
    ASSERT_EQ(tl.remaps.size(), 8u);
    ASSERT_EQ(tl.computes.size(), 8u);
    for (const auto& r : tl.remaps) {
      EXPECT_EQ(r.stream, 1 + r.chunk % 4);
      EXPECT_LE(r.begin, r.end);
    }
    // Chunk c's compute starts after its remap ended (the event dependency).
    for (int c = 0; c < 8; ++c) EXPECT_GE(tl.computes[c].begin + 1e-3, tl.remaps[c].end);
    best = std::max(best, tl.overlap());
  }
  RecordProperty("overlap", std::to_string(best));
  EXPECT_GT(best, 0.0) << "no remap overlapped a compute";
}
#endif

// remap.plan_overlap (seed 001 §4, planning off the critical path): plan() starts the plan in
// the background and returns; the next overlap_executions executions read through the index
// (the gather's kernel) and give the reference results; the one after waits for the plan and
// runs staged. A planning error surfaces on the app's thread.
TEST(RemapStrategies, SharingOverlappedPlanBridgesUntilReady) {
  Fixture fx(make_shuffled_lattice(8, 5).pattern);
  RemapOptions o;
  o.block_threads = 32;
  o.plan_overlap = true;
  o.overlap_executions = 2;
  SharingStrategy<Elem> s(o);
  std::promise<void> open;
  s.hold_plans_for_test(open.get_future().share());
  s.plan(fx.pv, nullptr);
  EXPECT_FALSE(s.plan_ready());
  Kokkos::View<double*> out("out", fx.pv.threads);
  const GatherReduceBody<Elem, First> body{out, First{}};
  auto host_out = [&] {
    Kokkos::fence();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    return std::vector<double>(h.data(), h.data() + h.extent(0));
  };
  Sums2 bridged_sums;
  for (int k = 0; k < 2; ++k) {
    s.set_data(fx.data, true);
    remap::execute(s, body, k == 1, bridged_sums);
  }
  EXPECT_EQ(s.bridged_executions(), 2);
  EXPECT_FALSE(s.plan_ready());
  const std::vector<double> bridged = host_out();
  const auto ref = reference(fx.host);
  for (std::size_t t = 0; t < ref.size(); ++t) ASSERT_DOUBLE_EQ(bridged[t], ref[t]) << t;

  open.set_value();
  s.release_pattern();  // waits for the plan (as MD does before its next list build)
  EXPECT_TRUE(s.plan_ready());
  Kokkos::deep_copy(out, 0.0);
  Sums2 staged_sums;
  s.set_data(fx.data, true);
  remap::execute(s, body, true, staged_sums);
  EXPECT_EQ(s.bridged_executions(), 2);
  const RemapReport r = s.report();
  EXPECT_EQ(r.executions, 3);
  EXPECT_EQ(r.bridged_executions, 2);
  EXPECT_GT(r.blocks, 0);
  EXPECT_GT(r.overlapped_plan_ms, 0.0);
  // This kernel sums one neighbour row per thread in list order either way: bit for bit.
  EXPECT_EQ(host_out(), bridged);
  EXPECT_NEAR(staged_sums.s0, bridged_sums.s0, 1e-12 * std::abs(bridged_sums.s0));

  // An index outside the data: the background plan fails, the next execution says why.
  Fixture bad(make_pattern({{0, 1}, {2, 3}}, 8, 16));
  bad.pv.data_count = 3;
  SharingStrategy<Elem> b(o);
  b.plan(bad.pv, nullptr);
  Kokkos::View<double*> out2("out2", 2);
  Sums2 sums;
  b.set_data(bad.data, true);
  try {
    b.release_pattern();
    FAIL() << "a failed background plan must throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("outside [0, 3)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(b.execute(GatherReduceBody<Elem, First>{out2, First{}}, false, sums), Error);
}

// throttle with pack false (x read in place, the parts' order alone): no pass over A, no packed
// copy, the gather's outputs; with pack true every execution on changed data packs once.
TEST(RemapStrategies, ThrottleInPlaceNeverPacks) {
  Fixture fx(make_shuffled_lattice(8, 5).pattern);
  std::vector<double> ref;
  {
    auto g = make_strategy<Elem>("gather", RemapOptions{});
    ref = fx.run(*g);
  }
  std::int64_t extra[2] = {0, 0};
  for (const bool pack : {true, false}) {
    SCOPED_TRACE(pack ? "packed" : "in place");
    RemapOptions o;
    o.throttle.schedule = ThrottleSchedule::CF;
    o.throttle.cache_bytes = 2048;
    o.throttle.pack = pack;
    ThrottleStrategy<Elem> s(o);
    s.plan(fx.pv, &fx.host);
    EXPECT_GT(s.throttle_plan().parts(), 1);
    Kokkos::View<double*> out("out", fx.pv.threads);
    Sums2 sums;
    for (int k = 0; k < 3; ++k) {
      s.set_data(fx.data, true);
      s.execute(GatherReduceBody<Elem, First>{out, First{}}, false, sums);
    }
    Kokkos::fence();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    for (std::size_t t = 0; t < ref.size(); ++t) ASSERT_DOUBLE_EQ(h(t), ref[t]) << "thread " << t;
    const RemapReport r = s.report();
    EXPECT_EQ(r.remapped_chunks, pack ? 3 : 0);
    EXPECT_EQ(s.name(), pack ? "throttle(cf)" : "throttle(cf,in-place)");
    EXPECT_EQ(s.min_exec_bytes(fx.pv) > 0, pack);
    extra[pack ? 0 : 1] = r.extra_bytes;
  }
  // In place: no packed copy of A, no renumbered index or its starts; the order and chunks stay.
  EXPECT_GT(extra[1], 0);
  EXPECT_LT(extra[1], extra[0] - static_cast<std::int64_t>(fx.pv.data_count * sizeof(Elem)));
}

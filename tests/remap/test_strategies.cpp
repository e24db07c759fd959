// Device-side strategies of the remap layer on a generic pattern (no MD): every strategy gives
// the gather's result, the remap cache counts hits and invalidations, padding refuses multi-
// pattern kernels, sharing splits oversize blocks, auto decides after profiling.
#include <gtest/gtest.h>

#include <numeric>

#include "remap/gather_reduce.hpp"
#include "remap/registry.hpp"
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
    pv = PatternView{idx, len, p.threads, p.rows, p.threads, 1, p.data_count};
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
      visit(s, [&](auto& st) { st.execute(body, k == times - 1, sums); });
    }
    Kokkos::fence();
    if (total) *total = sums.s0;
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    std::vector<double> v(h.data(), h.data() + h.extent(0));
    RemapStrategy<Elem>* ran = &s;
    if (auto* a = dynamic_cast<AutoStrategy<Elem>*>(&s); a && a->decided()) ran = a->chosen();
    if (auto* pad = dynamic_cast<PaddingStrategy<Elem>*>(ran)) {
      std::vector<double> back(v.size());
      for (std::size_t nt = 0; nt < v.size(); ++nt) back[pad->thread_perm()[nt]] = v[nt];
      return back;
    }
    return v;
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
  // seed 003 Algorithm 3's texture path: CUDA texture objects where they exist, a clear refusal
  // (never a silent fallback) elsewhere.
  RemapOptions tex = base;
  tex.path = GatherPath::Texture;
  if (texture_path_available()) {
    cases.push_back({"gather", tex});
  } else {
    try {
      make_strategy<Elem>("gather", tex);
      ADD_FAILURE() << "texture path accepted on a backend without textures";
    } catch (const mdremap::Error& e) {
      EXPECT_NE(std::string(e.what()).find("texture"), std::string::npos) << e.what();
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
    EXPECT_NE(m.find("padding does not apply to the test kernel"), std::string::npos) << m;
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
  AutoStrategy<Elem> s(o);
  s.plan(fx.pv, &fx.host);
  Kokkos::View<double*> out("out", fx.pv.threads);
  const GatherReduceBody<Elem, First> body{out, First{}};
  Sums2 sums;
  int calls = 0;
  while (!s.decided() && calls < 100) {
    s.set_data(fx.data, true);
    s.execute(body, false, sums);
    ++calls;
  }
  ASSERT_TRUE(s.decided());
  const auto prof = s.profile();
  EXPECT_EQ(calls, 2 * static_cast<int>(prof.size()));  // gather, dup, sharing, padding
  EXPECT_EQ(prof.size(), 4u);
  const std::string chosen = s.chosen()->name();
  double best = 1e300;
  for (const auto& [name, ms] : prof) best = std::min(best, ms);
  for (const auto& [name, ms] : prof)
    if (name == chosen) EXPECT_EQ(ms, best);
  EXPECT_NE(s.report().decision.find("auto chose " + chosen), std::string::npos);
}

TEST(RemapStrategies, UnknownModeNamesTheValidOnes) {
  try {
    make_strategy<Elem>("duplication", RemapOptions{});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("gather dup padding sharing auto"), std::string::npos);
  }
}

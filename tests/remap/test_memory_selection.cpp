// seed 003 §4.2, Algorithm 3: memory selection from real index arrays. Expected properties are
// derived by hand (segment arithmetic) or by a brute-force recount in the test.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "mdremap/error.hpp"
#include "mdremap/remap/memory_selection.hpp"
#include "remap_test_util.hpp"

namespace mdremap::remap {
namespace {

using testing::make_pattern;
using testing::single_row;

const MemoryBackend kCuda{"Cuda", true, true};
const MemoryBackend kHost{"OpenMP", false, false};

ReferenceDesc thread_indexed(const std::string& array, std::int64_t elements, int elem_bytes,
                             std::int64_t shift = 0, std::int64_t stride = 1) {
  ReferenceDesc d;
  d.array = array;
  d.elements = elements;
  d.elem_bytes = elem_bytes;
  d.kind = AccessKind::ThreadIndexed;
  d.shift = shift;
  d.stride = stride;
  return d;
}

ReferenceDesc irregular(const std::string& array, const IrregularPattern& p) {
  ReferenceDesc d;
  d.array = array;
  d.elements = p.data_count;
  d.elem_bytes = p.elem_bytes;
  d.kind = AccessKind::Irregular;
  d.pattern = &p;
  return d;
}

ReferenceDesc uniform(const std::string& array, std::int64_t elements, int elem_bytes,
                      std::int64_t count) {
  ReferenceDesc d;
  d.array = array;
  d.elements = elements;
  d.elem_bytes = elem_bytes;
  d.kind = AccessKind::Uniform;
  d.first = 0;
  d.count = count;
  return d;
}

MemorySelectionOptions options(std::int64_t threads) {
  MemorySelectionOptions o;
  o.threads = threads;
  return o;
}

// Thread t of block b (128 threads) reads `per_thread` random elements of the block's own pool
// [pool_base + b * pool, pool_base + (b + 1) * pool): a gather with in-block reuse.
IrregularPattern block_pool_gather(std::int64_t threads, int per_thread, std::int32_t pool,
                                   std::int32_t pool_base, std::int64_t data_count, int elem_bytes,
                                   std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::int32_t>> rows(threads);
  for (std::int64_t t = 0; t < threads; ++t) {
    std::uniform_int_distribution<std::int32_t> pick(0, pool - 1);
    const std::int32_t base = pool_base + static_cast<std::int32_t>(t / 128) * pool;
    for (int j = 0; j < per_thread; ++j) rows[t].push_back(base + pick(rng));
  }
  return make_pattern(rows, data_count, elem_bytes);
}

// Brute force: per block of B threads, accesses (by every listed pattern) of the elements
// pattern `self` touches, over the count of those elements; summed over blocks.
double brute_reuse(const std::vector<const IrregularPattern*>& ps, std::size_t self,
                   std::int64_t B) {
  const std::int64_t T = ps[self]->threads;
  std::int64_t acc = 0, elems = 0;
  for (std::int64_t t0 = 0; t0 < T; t0 += B) {
    std::map<std::int32_t, std::int64_t> count;
    std::set<std::int32_t> mine;
    for (std::size_t k = 0; k < ps.size(); ++k)
      for (std::int64_t t = t0; t < std::min(T, t0 + B); ++t)
        for (int j = 0; j < ps[k]->len[t]; ++j) {
          ++count[ps[k]->at(j, t)];
          if (k == self) mine.insert(ps[k]->at(j, t));
        }
    for (std::int32_t e : mine) acc += count[e];
    elems += static_cast<std::int64_t>(mine.size());
  }
  return static_cast<double>(acc) / static_cast<double>(elems);
}

TEST(MemorySelection, CoalescedLinearReadIsGlobal) {
  // 256 threads read float t: each warp-load covers bytes [128w, 128w + 128), one segment, the
  // minimum. Each element is read once: no reuse. Algorithm 3 line 10.
  const MemorySelection sel = select_memory({thread_indexed("y", 256, 4)}, options(256));
  const ReferenceClass& c = sel.references[0];
  EXPECT_EQ(c.pattern, "linear");
  EXPECT_EQ(c.warp_loads, 8);
  EXPECT_DOUBLE_EQ(c.segments_per_load, 1.0);
  EXPECT_DOUBLE_EQ(c.min_segments_per_load, 1.0);
  EXPECT_DOUBLE_EQ(c.distinct_per_load, 32.0);
  EXPECT_TRUE(c.coalesced);
  EXPECT_FALSE(c.same_address);
  EXPECT_DOUBLE_EQ(c.reuse, 1.0);
  EXPECT_FALSE(c.temporal_reuse);
  EXPECT_EQ(c.max_block_set_bytes, 128 * 4);
  EXPECT_TRUE(c.chunkable);
  EXPECT_TRUE(c.small);  // 1 KiB, but not the same address: not constant
  EXPECT_EQ(c.space, MemorySpace::Global);
  EXPECT_EQ(sel.array("y").space, MemorySpace::Global);

  // The same access written as an index array (index[t] = t) measures the same.
  std::vector<std::int32_t> iota(256);
  std::iota(iota.begin(), iota.end(), 0);
  const IrregularPattern p = single_row(iota, 256, 4);
  const ReferenceClass ci = select_memory({irregular("y", p)}, options(256)).references[0];
  EXPECT_DOUBLE_EQ(ci.segments_per_load, 1.0);
  EXPECT_TRUE(ci.coalesced);
  EXPECT_DOUBLE_EQ(ci.reuse, 1.0);
  EXPECT_EQ(ci.space, MemorySpace::Global);

  const GatherPathDecision d = decide_gather_path(sel.array("y"), kCuda);
  EXPECT_EQ(d.path, GatherPath::Global);
  EXPECT_TRUE(d.honoured);
  EXPECT_FALSE(d.suggests_sharing);

  // Reverse linear (element 255 - t) fills the same aligned segments: coalesced (seed 003
  // §4.2.1 counts it). Stride 2 spreads a warp over 256 B: 2 segments against 1.
  const ReferenceClass rev =
      select_memory({thread_indexed("y", 256, 4, 255, -1)}, options(256)).references[0];
  EXPECT_EQ(rev.pattern, "reverse linear");
  EXPECT_DOUBLE_EQ(rev.segments_per_load, 1.0);
  EXPECT_EQ(rev.space, MemorySpace::Global);
  const ReferenceClass s2 =
      select_memory({thread_indexed("y", 512, 4, 0, 2)}, options(256)).references[0];
  EXPECT_EQ(s2.pattern, "non-unit stride 2");
  EXPECT_DOUBLE_EQ(s2.segments_per_load, 2.0);
  EXPECT_FALSE(s2.coalesced);
  EXPECT_EQ(s2.space, MemorySpace::Texture);
}

TEST(MemorySelection, ShiftedReadNotOnASegmentIsTexture) {
  // Shift by 1 float: warp w reads bytes [128w + 4, 128w + 132): 2 segments against 1.
  // seed 003 §4.2.3's example (X[i] = Y[i + shift]).
  const MemorySelection s1 = select_memory({thread_indexed("y", 300, 4, 1)}, options(256));
  EXPECT_EQ(s1.references[0].pattern, "linear, shifted 1");
  EXPECT_DOUBLE_EQ(s1.references[0].segments_per_load, 2.0);
  EXPECT_DOUBLE_EQ(s1.references[0].min_segments_per_load, 1.0);
  EXPECT_FALSE(s1.references[0].coalesced);
  EXPECT_EQ(s1.references[0].space, MemorySpace::Texture);
  EXPECT_EQ(s1.array("y").space, MemorySpace::Texture);
  // Shift by a whole segment (32 floats = 128 B) stays coalesced: global.
  const MemorySelection s32 = select_memory({thread_indexed("y", 300, 4, 32)}, options(256));
  EXPECT_TRUE(s32.references[0].coalesced);
  EXPECT_EQ(s32.references[0].space, MemorySpace::Global);
  // The paper's half-warp shift (16 floats = 64 B, coalesced on its G200) straddles a 128-byte
  // line here: not coalesced.
  const MemorySelection s16 = select_memory({thread_indexed("y", 300, 4, 16)}, options(256));
  EXPECT_FALSE(s16.references[0].coalesced);
  EXPECT_EQ(s16.references[0].space, MemorySpace::Texture);

  // 16-byte elements shifted by one: 512 B from byte 16 touch 5 segments against 4 (ratio
  // 1.25): not coalesced at tolerance 0, coalesced at tolerance 0.25.
  MemorySelectionOptions o = options(256);
  const ReferenceClass c4 = select_memory({thread_indexed("p", 300, 16, 1)}, o).references[0];
  EXPECT_DOUBLE_EQ(c4.segments_per_load, 5.0);
  EXPECT_DOUBLE_EQ(c4.min_segments_per_load, 4.0);
  EXPECT_FALSE(c4.coalesced);
  o.coalesce_tolerance = 0.25;
  EXPECT_TRUE(select_memory({thread_indexed("p", 300, 16, 1)}, o).references[0].coalesced);

  const GatherPathDecision d = decide_gather_path(s1.array("y"), kCuda);
  EXPECT_EQ(d.path, GatherPath::ReadOnly);  // texture served by the read-only data cache
  EXPECT_TRUE(d.honoured);
  EXPECT_NE(d.explanation.find("read-only data cache"), std::string::npos);

  // Known 16- or 32-byte elements: the same cache through both of the L1's data pipes (split);
  // other sizes, or a backend without texture objects, the read-only path.
  for (const int bytes : {16, 32}) {
    const GatherPathDecision sd = decide_gather_path(s1.array("y"), kCuda, bytes);
    EXPECT_EQ(sd.path, GatherPath::Split) << bytes;
    EXPECT_TRUE(sd.honoured);
    EXPECT_NE(sd.explanation.find("both of the L1's data pipes"), std::string::npos);
  }
  EXPECT_EQ(decide_gather_path(s1.array("y"), kCuda, 8).path, GatherPath::ReadOnly);
  const MemoryBackend no_textures{"Cuda", true, false};
  EXPECT_EQ(decide_gather_path(s1.array("y"), no_textures, 32).path, GatherPath::ReadOnly);
}

TEST(MemorySelection, RandomGatherWithReuseIsSharedWhenItFitsAndTextureWhenNot) {
  // 256 threads, 8 reads each from their block's pool of 32 float4 (512 B): 1024 accesses per
  // block over at most 32 elements.
  const IrregularPattern p = block_pool_gather(256, 8, 32, 0, 64, 16, 7);
  std::int64_t max_set = 0;
  for (std::int64_t t0 = 0; t0 < 256; t0 += 128) {
    std::set<std::int32_t> s;
    for (std::int64_t t = t0; t < t0 + 128; ++t)
      for (int j = 0; j < 8; ++j) s.insert(p.at(j, t));
    max_set = std::max<std::int64_t>(max_set, static_cast<std::int64_t>(s.size()));
  }
  MemorySelectionOptions o = options(256);
  o.shared_bytes = 4096;
  const MemorySelection fit = select_memory({irregular("a", p)}, o);
  const ReferenceClass& c = fit.references[0];
  EXPECT_EQ(c.max_block_set_bytes, max_set * 16);
  EXPECT_DOUBLE_EQ(c.reuse, brute_reuse({&p}, 0, 128));
  EXPECT_GE(c.reuse, 32.0);
  EXPECT_TRUE(c.temporal_reuse);
  EXPECT_TRUE(c.chunkable);
  EXPECT_FALSE(c.same_address);
  EXPECT_EQ(c.space, MemorySpace::Shared);
  const GatherPathDecision d = decide_gather_path(fit.array("a"), kCuda);
  EXPECT_TRUE(d.suggests_sharing);
  EXPECT_TRUE(d.honoured);
  EXPECT_EQ(d.path, GatherPath::ReadOnly);

  // The same gather with less shared memory than one block's set: not chunkable -> texture.
  o.shared_bytes = max_set * 16 - 1;
  const MemorySelection nofit = select_memory({irregular("a", p)}, o);
  EXPECT_FALSE(nofit.references[0].chunkable);
  EXPECT_TRUE(nofit.references[0].temporal_reuse);
  EXPECT_EQ(nofit.references[0].space, MemorySpace::Texture);
  EXPECT_FALSE(decide_gather_path(nofit.array("a"), kCuda).suggests_sharing);
}

TEST(MemorySelection, UniformSmallTableIsConstant) {
  // Every thread reads the 4 doubles of a coefficient table: one element per warp-load.
  const MemorySelection sel = select_memory({uniform("coef", 4, 8, 4)}, options(256));
  const ReferenceClass& c = sel.references[0];
  EXPECT_EQ(c.warp_loads, 8 * 4);
  EXPECT_TRUE(c.same_address);
  EXPECT_TRUE(c.small);
  EXPECT_TRUE(c.coalesced);
  EXPECT_DOUBLE_EQ(c.reuse, 128.0);  // each element read by the block's 128 threads
  EXPECT_EQ(c.space, MemorySpace::Constant);
  const GatherPathDecision d = decide_gather_path(sel.array("coef"), kCuda);
  EXPECT_TRUE(d.suggests_constant);
  EXPECT_TRUE(d.honoured);

  // Too big for constant memory but chunkable and reused: shared (seed 003 §4.2.4, second rule).
  MemorySelectionOptions o = options(256);
  o.constant_bytes = 16;
  EXPECT_EQ(select_memory({uniform("coef", 4, 8, 4)}, o).references[0].space, MemorySpace::Shared);
  // Neither small nor chunkable: coalesced but reused -> texture.
  o.shared_bytes = 16;
  const ReferenceClass big = select_memory({uniform("coef", 4, 8, 4)}, o).references[0];
  EXPECT_EQ(big.space, MemorySpace::Texture);
  EXPECT_NE(big.rule.find("reused and not chunkable"), std::string::npos);

  // Same address per warp measured on real indices: thread t reads element t / 32.
  std::vector<std::int32_t> idx(256);
  for (int t = 0; t < 256; ++t) idx[t] = t / 32;
  const IrregularPattern p = single_row(idx, 8, 4);
  const ReferenceClass cw = select_memory({irregular("w", p)}, options(256)).references[0];
  EXPECT_TRUE(cw.same_address);
  EXPECT_DOUBLE_EQ(cw.distinct_per_load, 1.0);
  EXPECT_EQ(cw.space, MemorySpace::Constant);
}

TEST(MemorySelection, ReadWriteRandomIsGlobal) {
  // Each thread updates one distinct random element of a large array: no reuse.
  std::vector<std::int32_t> perm(100000);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), std::mt19937_64(3));
  perm.resize(256);
  const IrregularPattern p = single_row(perm, 100000, 8);
  ReferenceDesc d = irregular("acc", p);
  d.use = ReferenceUse::ReadWrite;
  const MemorySelection sel = select_memory({d}, options(256));
  EXPECT_FALSE(sel.array("acc").read_only);
  EXPECT_FALSE(sel.references[0].coalesced);
  EXPECT_DOUBLE_EQ(sel.references[0].reuse, 1.0);
  EXPECT_EQ(sel.references[0].space, MemorySpace::Global);
  const GatherPathDecision g = decide_gather_path(sel.array("acc"), kCuda);
  EXPECT_EQ(g.path, GatherPath::Global);
  EXPECT_TRUE(g.honoured);

  // Read-write with in-block reuse that fits: shared (line 18), which the runtime cannot serve.
  const IrregularPattern q = block_pool_gather(256, 8, 32, 0, 64, 8, 5);
  ReferenceDesc dq = irregular("acc", q);
  dq.use = ReferenceUse::ReadWrite;
  const MemorySelection sq = select_memory({dq}, options(256));
  EXPECT_EQ(sq.references[0].space, MemorySpace::Shared);
  const GatherPathDecision h = decide_gather_path(sq.array("acc"), kCuda);
  EXPECT_FALSE(h.honoured);
  EXPECT_FALSE(h.suggests_sharing);
  EXPECT_EQ(h.path, GatherPath::Global);
  EXPECT_NE(h.explanation.find("not honoured"), std::string::npos);
}

TEST(MemorySelection, TwoInstancesLinearAndRandomAreTextureBySecondaryCriteria) {
  // y[t] (elements 0..255) and y[idx[t]] with idx distinct random in [2048, 4096): no element is
  // shared, so the linear instance keeps no reuse (global) and the random one is not coalesced
  // (texture). Read-only order texture, global, shared, constant: texture.
  std::vector<std::int32_t> idx(2048);
  std::iota(idx.begin(), idx.end(), 2048);
  std::shuffle(idx.begin(), idx.end(), std::mt19937_64(11));
  idx.resize(256);
  const IrregularPattern p = single_row(idx, 4096, 4);
  const MemorySelection sel =
      select_memory({thread_indexed("y", 4096, 4), irregular("y", p)}, options(256));
  ASSERT_EQ(sel.arrays.size(), 1u);
  EXPECT_EQ(sel.references[0].space, MemorySpace::Global);
  EXPECT_EQ(sel.references[1].space, MemorySpace::Texture);
  const ArrayChoice& y = sel.array("y");
  EXPECT_EQ(y.candidates, (std::vector<MemorySpace>{MemorySpace::Global, MemorySpace::Texture}));
  EXPECT_EQ(y.space, MemorySpace::Texture);
  EXPECT_NE(y.reason.find("secondary criteria"), std::string::npos);
  EXPECT_EQ(decide_gather_path(y, kCuda).path, GatherPath::ReadOnly);
}

TEST(MemorySelection, SecondaryCriteriaOrder) {
  // Linear over [0, 256) plus a pooled gather in [2048, 2112): {global, shared}. Read-only
  // order puts global before shared; read-write order too (global, shared).
  const IrregularPattern p = block_pool_gather(256, 8, 32, 2048, 4096, 4, 13);
  const MemorySelection ro =
      select_memory({thread_indexed("y", 4096, 4), irregular("y", p)}, options(256));
  EXPECT_EQ(ro.array("y").candidates,
            (std::vector<MemorySpace>{MemorySpace::Global, MemorySpace::Shared}));
  EXPECT_EQ(ro.array("y").space, MemorySpace::Global);

  ReferenceDesc w = thread_indexed("y", 4096, 4);
  w.use = ReferenceUse::Write;
  const MemorySelection rw = select_memory({w, irregular("y", p)}, options(256));
  EXPECT_FALSE(rw.array("y").read_only);
  EXPECT_EQ(rw.array("y").candidates,
            (std::vector<MemorySpace>{MemorySpace::Global, MemorySpace::Shared}));
  EXPECT_EQ(rw.array("y").space, MemorySpace::Global);
}

TEST(MemorySelection, OtherInstancesCountAsReuse) {
  // seed 003 §4.2.1: "multiple appearances of the array" are reuse. y[t] and y[g[t]] with g in
  // the thread's own block: each element of y[t] is also read by the gather in the same block,
  // so the linear instance is reused (~9 accesses per element) and goes shared with the gather.
  const IrregularPattern g = block_pool_gather(256, 8, 128, 0, 256, 16, 17);
  std::vector<std::int32_t> iota(256);
  std::iota(iota.begin(), iota.end(), 0);
  const IrregularPattern lin = single_row(iota, 256, 16);
  const MemorySelection sel =
      select_memory({thread_indexed("pos", 256, 16), irregular("pos", g)}, options(256));
  EXPECT_DOUBLE_EQ(sel.references[0].reuse, brute_reuse({&lin, &g}, 0, 128));
  EXPECT_DOUBLE_EQ(sel.references[1].reuse, brute_reuse({&lin, &g}, 1, 128));
  EXPECT_TRUE(sel.references[0].temporal_reuse);
  EXPECT_EQ(sel.references[0].space, MemorySpace::Shared);
  EXPECT_EQ(sel.references[1].space, MemorySpace::Shared);
  EXPECT_EQ(sel.array("pos").space, MemorySpace::Shared);
  EXPECT_NE(sel.array("pos").reason.find("every instance"), std::string::npos);
  // The linear instance alone has no reuse.
  EXPECT_FALSE(
      select_memory({thread_indexed("pos", 256, 16)}, options(256)).references[0].temporal_reuse);
}

TEST(MemorySelection, CsrRowsAreNotCoalescedAcrossAWarp) {
  // SpMV's val[rowptr[t] + j]: 64 rows of 8 floats. Warp-load j reads elements 8t + j, bytes
  // 32t + 4j: 4 lanes per 128-byte segment, 8 segments against 1.
  std::vector<std::int64_t> rowptr(65);
  for (int t = 0; t <= 64; ++t) rowptr[t] = 8 * t;
  const IrregularPattern val = csr_row_pattern(rowptr, 4);
  ASSERT_TRUE(val.csr());
  EXPECT_EQ(val.threads, 64);
  EXPECT_EQ(val.rows, 8);
  EXPECT_EQ(val.at(3, 5), 43);
  const MemorySelection sel = select_memory({irregular("val", val)}, options(64));
  const ReferenceClass& c = sel.references[0];
  EXPECT_EQ(c.warp_loads, 2 * 8);
  EXPECT_DOUBLE_EQ(c.segments_per_load, 8.0);
  EXPECT_DOUBLE_EQ(c.min_segments_per_load, 1.0);
  EXPECT_FALSE(c.coalesced);
  EXPECT_DOUBLE_EQ(c.reuse, 1.0);
  EXPECT_EQ(c.space, MemorySpace::Texture);
  EXPECT_NE(c.pattern.find("CSR"), std::string::npos);

  // Rows of different lengths (0 and 3 alternate): only active lanes count.
  std::vector<std::int64_t> ragged(33, 0);
  for (int t = 0; t < 32; ++t) ragged[t + 1] = ragged[t] + (t % 2 ? 3 : 0);
  const IrregularPattern r = csr_row_pattern(ragged, 4);
  const ReferenceClass cr = select_memory({irregular("val", r)}, options(32)).references[0];
  // Warp-load j: 16 active lanes read elements 3k + j (k < 16), bytes 12k + 4j within 192 B:
  // 2 segments; minimum ceil(16 * 4 / 128) = 1.
  EXPECT_EQ(cr.warp_loads, 3);
  EXPECT_DOUBLE_EQ(cr.distinct_per_load, 16.0);
  EXPECT_DOUBLE_EQ(cr.segments_per_load, 2.0);
  EXPECT_DOUBLE_EQ(cr.min_segments_per_load, 1.0);

  EXPECT_THROW(csr_row_pattern({0, 4, 2}, 4), Error);
}

TEST(MemorySelection, HostBackendHasOneMemoryPath) {
  const MemorySelection sel = select_memory({thread_indexed("y", 300, 4, 1)}, options(256));
  const GatherPathDecision d = decide_gather_path(sel.array("y"), kHost);
  EXPECT_EQ(d.space, MemorySpace::Texture);
  EXPECT_FALSE(d.honoured);
  EXPECT_EQ(d.path, GatherPath::ReadOnly);
  EXPECT_NE(d.explanation.find("one memory path"), std::string::npos);
  EXPECT_NE(d.explanation.find("OpenMP"), std::string::npos);
  ReferenceDesc w = thread_indexed("f", 256, 4);
  w.use = ReferenceUse::Write;
  const GatherPathDecision dw =
      decide_gather_path(select_memory({w}, options(256)).array("f"), kHost);
  EXPECT_FALSE(dw.honoured);
  EXPECT_EQ(dw.path, GatherPath::Global);
}

TEST(MemorySelection, TextHasOneLinePerReferenceAndArray) {
  std::vector<std::int32_t> idx(256);
  for (int t = 0; t < 256; ++t) idx[t] = (t * 37) % 256;
  const IrregularPattern p = single_row(idx, 256, 16);
  ReferenceDesc gather = irregular("pos", p);
  gather.label = "pos[nbr[t]]";
  ReferenceDesc own = thread_indexed("pos", 256, 16);
  own.label = "pos[t]";
  ReferenceDesc f = thread_indexed("f", 256, 16);
  f.use = ReferenceUse::Write;
  const MemorySelection sel =
      select_memory({gather, own, f, uniform("coef", 4, 8, 1)}, options(256));
  const std::string text = sel.text();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4 + 3);
  EXPECT_NE(text.find("pos[nbr[t]]: read, random (index array)"), std::string::npos);
  EXPECT_NE(text.find("f#2: write, linear"), std::string::npos);  // default label
  EXPECT_NE(text.find("pos (read-only, 4.0 KiB, 2 instances {"), std::string::npos);
  for (const ReferenceClass& c : sel.references)
    EXPECT_NE(c.line().find(std::string("=> ") + memory_space_name(c.space)), std::string::npos);
  EXPECT_EQ(sel.array("f").space, MemorySpace::Global);
  EXPECT_EQ(sel.array("coef").space, MemorySpace::Constant);
}

TEST(MemorySelection, BadInputNamesTheReference) {
  auto message = [](const std::vector<ReferenceDesc>& refs, std::int64_t threads) {
    try {
      select_memory(refs, options(threads));
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // Instances disagree on the array's size.
  EXPECT_NE(message({thread_indexed("y", 256, 4), thread_indexed("y", 512, 4)}, 256)
                .find("reference 'y#1' (array 'y'): another instance"),
            std::string::npos);
  // Thread-indexed elements outside the array.
  EXPECT_NE(message({thread_indexed("y", 256, 4, 1)}, 256).find("fall outside [0, 256)"),
            std::string::npos);
  // Stride 0 is a uniform access.
  EXPECT_NE(message({thread_indexed("y", 256, 4, 0, 0)}, 256).find("Uniform"), std::string::npos);
  // Irregular without its index; with a thread count other than the kernel's; with a bad entry.
  ReferenceDesc none;
  none.array = "x";
  none.elements = 8;
  none.kind = AccessKind::Irregular;
  EXPECT_NE(message({none}, 4).find("needs its index"), std::string::npos);
  const IrregularPattern p = single_row({0, 1, 2, 3}, 8, 4);
  EXPECT_NE(message({irregular("x", p)}, 5).find("4 threads, the kernel 5"), std::string::npos);
  const IrregularPattern bad = single_row({0, 1, 9, 3}, 8, 4);
  EXPECT_NE(message({irregular("x", bad)}, 4).find("outside [0, data_count = 8)"),
            std::string::npos);
  // Unknown array in the result.
  const MemorySelection sel = select_memory({thread_indexed("y", 256, 4)}, options(256));
  try {
    sel.array("z");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no array 'z' among the references (known: y)"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace mdremap::remap

// seed 002 Algorithm 1 (data-balanced recursive bisection, k-d tiling) and Algorithm 5.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "mdremap/error.hpp"
#include "mdremap/remap/impl/partition.hpp"
#include "mdremap/remap/impl/sharing.hpp"
#include "mdremap/remap/transactions.hpp"
#include "remap_test_util.hpp"

namespace mdremap::remap {
namespace {

using testing::make_csr_pattern;
using testing::make_grid_laplacian;
using testing::make_pattern;
using testing::make_shuffled_lattice;

// A chain: thread t reads elements t and t+1 (t = 0..7, 9 elements of 4 bytes), at x = t.
IrregularPattern chain() {
  std::vector<std::vector<std::int32_t>> rows;
  for (int t = 0; t < 8; ++t) rows.push_back({t, t + 1});
  return make_pattern(rows, 9, 4);
}

void check_chain_result(const CacheFitPartition& cp) {
  // Capacity 12 bytes = 3 elements. Root: 9 elements > 3 -> median split on x: threads 0..3
  // ({0..4}, 5 > 3) and 4..7 (5 > 3); each splits again into pairs {0,1},{2,3},{4,5},{6,7},
  // reading {0,1,2},{2,3,4},{4,5,6},{6,7,8}: 3 elements each, cache-fit. 7 tree nodes.
  EXPECT_EQ(cp.capacity_elems, 3);
  EXPECT_EQ(cp.thread_perm, (ThreadPermutation{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(cp.part_begin, (std::vector<std::int64_t>{0, 2, 4, 6, 8}));
  EXPECT_EQ(cp.part_unique, (std::vector<std::int64_t>{3, 3, 3, 3}));
  EXPECT_EQ(cp.tree.size(), 7u);
  // Boundary elements 2, 4, 6 are each in 2 parts: replication (eq. 2) = 3.
  EXPECT_EQ(cp.boundary_elems, 3);
  EXPECT_EQ(cp.replication, 3);
  // Algorithm 5: private elements per part: P0 {0,1} 2, P1 {3} 1, P2 {5} 1, P3 {7,8} 2.
  // Rank ascending (stable): P1, P2, P0, P3. Private pass: 3, 5, 0, 1, 7, 8 -> new 0..5.
  // Boundary pass in the same order: P1 brings 2 then 4 -> 6, 7; P2 brings 6 -> 8.
  // old -> new: 0->2 1->3 2->6 3->0 4->7 5->1 6->8 7->4 8->5.
  EXPECT_EQ(cp.data_old_to_new, (DataPermutation{2, 3, 6, 0, 7, 1, 8, 4, 5}));
}

TEST(CacheFitPartition, HandWorkedChainWithCoordinates) {
  std::vector<float> coords;
  for (int t = 0; t < 8; ++t) coords.insert(coords.end(), {float(t), 0.f, 0.f});
  PartitionOptions opt;
  opt.cache_bytes = 12;
  check_chain_result(partition_cache_fit(chain(), opt, coords));
}

TEST(CacheFitPartition, HandWorkedChainWithoutCoordinates) {
  // Fallback keys (thread id, mean element) = (t, t + 0.5): both extents are 7, the first
  // dimension (thread id) wins the tie, so the splits are the same as with x = t.
  PartitionOptions opt;
  opt.cache_bytes = 12;
  check_chain_result(partition_cache_fit(chain(), opt));
  // The CSR layout of the same pattern gives the same partition.
  check_chain_result(partition_cache_fit(to_csr(chain()), opt));
}

TEST(CacheFitPartition, HandWorkedChainCoarsenedBisection) {
  // 8 threads of 2 references, capacity 3 elements. The chain's only partitions into 4 parts of
  // 2 threads with 3 boundary elements are the consecutive pairs, and a balanced bisection of a
  // chain (4 + 4 threads, cut at one shared element) must cut in the middle; so coarsened
  // bisection finds the same parts, tree and packing as k-d tiling on x = t.
  PartitionOptions opt;
  opt.cache_bytes = 12;
  opt.bisector = Bisector::coarsened;
  const CacheFitPartition cp = partition_cache_fit(chain(), opt);
  EXPECT_EQ(cp.part_begin, (std::vector<std::int64_t>{0, 2, 4, 6, 8}));
  EXPECT_EQ(cp.replication, 3);
  check_chain_result(cp);
}

TEST(CacheFitPartition, CacheSmallerThanOneThreadThrows) {
  PartitionOptions opt;
  opt.cache_bytes = 4;  // one element, but every thread reads two
  EXPECT_THROW(partition_cache_fit(chain(), opt), Error);
  opt.cache_bytes = 12;
  EXPECT_THROW(partition_cache_fit(chain(), opt, std::vector<float>(5, 0.f)), Error);
}

TEST(CacheFitPartition, ShuffledLatticeFitsCacheAndRegainsLocality) {
  const auto lat = make_shuffled_lattice(10, 5);
  const IrregularPattern& p = lat.pattern;
  PartitionOptions opt;
  opt.cache_bytes = 150 * 16;  // 150 positions of 16 bytes
  const CacheFitPartition cp = partition_cache_fit(p, opt, lat.coords);
  ASSERT_TRUE(is_permutation(cp.thread_perm));
  ASSERT_TRUE(is_permutation(cp.data_old_to_new));
  ASSERT_EQ(cp.part_begin.front(), 0);
  ASSERT_EQ(cp.part_begin.back(), p.threads);
  // Every part's footprint, recounted here from the permuted pattern, fits the cache.
  const IrregularPattern permuted = apply_thread_permutation(p, cp.thread_perm);
  for (std::int64_t q = 0; q < cp.parts(); ++q) {
    std::vector<char> seen(p.data_count, 0);
    std::int64_t n = 0;
    for (std::int64_t t = cp.part_begin[q]; t < cp.part_begin[q + 1]; ++t)
      for (int j = 0; j < permuted.len[t]; ++j) n += !seen[permuted.at(j, t)]++;
    EXPECT_EQ(n, cp.part_unique[q]);
    EXPECT_LE(n * p.elem_bytes, opt.cache_bytes) << "part " << q;
  }
  // Locality: fewer distinct elements per block, and (after Algorithm 5 packing) fewer
  // 128-byte segments per warp-load than the shuffled ids.
  const IrregularPattern remapped = apply_data_permutation(permuted, cp.data_old_to_new);
  for (int B : {32, 64, 128})
    EXPECT_LT(mean_block_working_set(remapped, B), mean_block_working_set(p, B)) << "B=" << B;
  EXPECT_LT(count_transactions(remapped).seg128, count_transactions(p).seg128);
}

TEST(CacheFitPartition, TilingOrdersThreadsInsideAPart) {
  // The cache holds all 1000 elements, so the root is already cache-fit: one part, a one-node
  // tree, no replication. With tile_threads = 0 the part keeps the given (shuffled) order, so the
  // permutation is the identity; with tiles of 32 the k-d order must shrink block working sets.
  const auto lat = make_shuffled_lattice(10, 8);
  PartitionOptions opt;
  opt.cache_bytes = 1000 * 16;
  opt.tile_threads = 0;
  const CacheFitPartition flat = partition_cache_fit(lat.pattern, opt, lat.coords);
  EXPECT_EQ(flat.parts(), 1);
  EXPECT_EQ(flat.tree.size(), 1u);
  EXPECT_EQ(flat.replication, 0);
  for (std::int64_t t = 0; t < lat.pattern.threads; ++t) ASSERT_EQ(flat.thread_perm[t], t);
  opt.tile_threads = 32;
  const CacheFitPartition tiled = partition_cache_fit(lat.pattern, opt, lat.coords);
  EXPECT_EQ(tiled.parts(), 1);
  const auto ordered = apply_thread_permutation(lat.pattern, tiled.thread_perm);
  EXPECT_LT(mean_block_working_set(ordered, 64), mean_block_working_set(lat.pattern, 64));
}

}  // namespace
}  // namespace mdremap::remap

namespace mdremap::remap {
namespace {

// Everything a partition promises, recounted from p with std::set / std::map: the references in
// partition order are exactly p's (each once); parts are cache-fit with the reported counts;
// inside a part (edges) references are in (thread, j) order; the tree's children split their
// parent's range; replication (seed 002 eq. 2) and Algorithm 5's permutation are consistent.
// Returns the largest side / (parent / 2) over all bisections (1 = perfect balance).
double expect_valid_partition(const IrregularPattern& p, const CacheFitPartition& cp,
                              const PartitionOptions& opt) {
  const bool edges = cp.granularity == PartitionGranularity::edges;
  const std::int64_t nref = p.references();
  // (thread, j, element) of partition-order reference k.
  struct Ref {
    std::int64_t t;
    int j;
    std::int32_t e;
  };
  std::vector<Ref> refs;
  if (edges) {
    std::map<std::int64_t, std::pair<std::int64_t, int>> at;  // pos -> (thread, j)
    for (std::int64_t t = 0; t < p.threads; ++t)
      for (int j = 0; j < p.len[t]; ++j) at[static_cast<std::int64_t>(p.pos(j, t))] = {t, j};
    EXPECT_EQ(static_cast<std::int64_t>(cp.edge_pos.size()), nref);
    std::set<std::int64_t> seen;
    for (std::size_t k = 0; k < cp.edge_pos.size(); ++k) {
      const auto it = at.find(cp.edge_pos[k]);
      if (it == at.end()) {
        ADD_FAILURE() << "edge_pos " << cp.edge_pos[k] << " is no active reference";
        return 0;
      }
      EXPECT_TRUE(seen.insert(cp.edge_pos[k]).second) << "reference listed twice";
      EXPECT_EQ(cp.edge_thread[k], it->second.first);
      refs.push_back({it->second.first, it->second.second, p.index[cp.edge_pos[k]]});
    }
  } else {
    EXPECT_TRUE(is_permutation(cp.thread_perm));
    for (std::int64_t t : cp.thread_perm)
      for (int j = 0; j < p.len[t]; ++j) refs.push_back({t, j, p.at(j, t)});
    EXPECT_EQ(cp.part_begin.size(), cp.part_edge_begin.size());
  }
  EXPECT_EQ(static_cast<std::int64_t>(refs.size()), nref);
  EXPECT_EQ(cp.part_edge_begin.front(), 0);
  EXPECT_EQ(cp.part_edge_begin.back(), nref);
  std::map<std::int32_t, std::set<std::int64_t>> parts_of_elem;
  std::map<std::int64_t, std::set<std::int64_t>> parts_of_thread;
  for (std::int64_t q = 0; q < cp.parts(); ++q) {
    std::set<std::int32_t> elems;
    std::set<std::int64_t> threads;
    for (std::int64_t k = cp.part_edge_begin[q]; k < cp.part_edge_begin[q + 1]; ++k) {
      elems.insert(refs[k].e);
      threads.insert(refs[k].t);
      parts_of_elem[refs[k].e].insert(q);
      parts_of_thread[refs[k].t].insert(q);
      if (edges && k > cp.part_edge_begin[q])
        EXPECT_TRUE(std::make_pair(refs[k - 1].t, refs[k - 1].j) <
                    std::make_pair(refs[k].t, refs[k].j))
            << "part " << q << " is not in (thread, j) order at " << k;
    }
    std::int64_t nthreads = static_cast<std::int64_t>(threads.size());
    if (!edges) nthreads = cp.part_begin[q + 1] - cp.part_begin[q];
    EXPECT_EQ(cp.part_unique[q], static_cast<std::int64_t>(elems.size())) << "part " << q;
    EXPECT_EQ(cp.part_threads[q], nthreads) << "part " << q;
    EXPECT_LE(static_cast<std::int64_t>(elems.size()) * p.elem_bytes + nthreads * opt.out_bytes,
              opt.cache_bytes)
        << "part " << q << " is not cache-fit";
  }
  std::int64_t rep = 0, trep = 0;
  for (const auto& [e, s] : parts_of_elem) rep += static_cast<std::int64_t>(s.size()) - 1;
  for (const auto& [t, s] : parts_of_thread) trep += static_cast<std::int64_t>(s.size()) - 1;
  EXPECT_EQ(cp.replication, rep);
  EXPECT_EQ(cp.thread_replication, trep);
  if (!edges) EXPECT_EQ(trep, 0);
  EXPECT_TRUE(is_permutation(cp.data_old_to_new));
  EXPECT_EQ(static_cast<std::int64_t>(cp.data_old_to_new.size()), p.data_count);
  // Tree: root covers everything, children split the parent's edge range and part range.
  EXPECT_EQ(cp.tree[0].edge_begin, 0);
  EXPECT_EQ(cp.tree[0].edge_end, nref);
  double worst = 1.0;
  std::int64_t leaves = 0;
  for (const PartitionNode& x : cp.tree) {
    if (x.leaf()) {
      ++leaves;
      EXPECT_EQ(x.part_end, x.part_begin + 1);
      EXPECT_EQ(cp.part_edge_begin[x.part_begin], x.edge_begin);
      EXPECT_EQ(cp.part_edge_begin[x.part_end], x.edge_end);
      continue;
    }
    const PartitionNode &l = cp.tree[x.left], &r = cp.tree[x.right];
    EXPECT_EQ(l.edge_begin, x.edge_begin);
    EXPECT_EQ(l.edge_end, r.edge_begin);
    EXPECT_EQ(r.edge_end, x.edge_end);
    EXPECT_EQ(l.part_begin, x.part_begin);
    EXPECT_EQ(l.part_end, r.part_begin);
    EXPECT_EQ(r.part_end, x.part_end);
    EXPECT_EQ(l.depth, x.depth + 1);
    const double half = 0.5 * static_cast<double>(x.edge_end - x.edge_begin);
    const double big =
        static_cast<double>(std::max(l.edge_end - l.edge_begin, r.edge_end - r.edge_begin));
    worst = std::max(worst, big / half);
  }
  EXPECT_EQ(leaves, cp.parts());
  return worst;
}

// The balance partition.hpp states: the larger side of a bisection of w edges holds at most
// max((1 + imbalance) * w/2, w/2 + m/2) edges, m the heaviest work item (k-d tiling: imbalance 0).
bool balanced(const CacheFitPartition& cp, double imbalance, std::int64_t max_item) {
  bool ok = true;
  for (const PartitionNode& x : cp.tree) {
    if (x.leaf()) continue;
    const double w = static_cast<double>(x.edge_end - x.edge_begin);
    const double big =
        static_cast<double>(std::max(cp.tree[x.left].edge_end - cp.tree[x.left].edge_begin,
                                     cp.tree[x.right].edge_end - cp.tree[x.right].edge_begin));
    const double bound = std::max((1.0 + imbalance) * 0.5 * w, 0.5 * w + 0.5 * max_item);
    if (big > bound) {
      ADD_FAILURE() << "bisection of " << w << " edges leaves " << big << " > " << bound;
      ok = false;
    }
  }
  return ok;
}

PartitionOptions edge_options(Bisector b, std::int64_t cache_bytes, std::int64_t out_bytes) {
  PartitionOptions o;
  o.granularity = PartitionGranularity::edges;
  o.bisector = b;
  o.cache_bytes = cache_bytes;
  o.out_bytes = out_bytes;
  return o;
}

// seed 002 Algorithm 1 over edges (V-EP), both bisectors, on the grid Laplacian in natural and
// shuffled numbering: parts cache-fit, references each once, balance within the stated bound.
TEST(EdgePartition, GridLaplacianBothBisectorsCacheFitAndBalanced) {
  for (std::uint64_t shuffle : {0u, 7u}) {
    const IrregularPattern p = make_grid_laplacian(32, shuffle);  // 1024 rows, 4992 references
    for (Bisector b : {Bisector::kd_tiling, Bisector::coarsened}) {
      const PartitionOptions opt = edge_options(b, 96 * 8 + 48 * 8, 8);  // 96 x + 48 y, doubles
      const CacheFitPartition cp = partition_cache_fit(p, opt);
      SCOPED_TRACE(::testing::Message() << "shuffle " << shuffle << " bisector " << int(b));
      EXPECT_EQ(cp.granularity, PartitionGranularity::edges);
      EXPECT_TRUE(cp.thread_perm.empty());
      EXPECT_GT(cp.parts(), 8);
      expect_valid_partition(p, cp, opt);
      // k-d tiling halves exactly; coarsened bisection within imbalance (default 2%).
      if (b == Bisector::kd_tiling)
        EXPECT_TRUE(balanced(cp, 0.0, 1));
      else  // rows of <= 5 references: first-level entities are whole rows
        EXPECT_TRUE(balanced(cp, opt.coarsened.imbalance, 5));
    }
  }
}

// The claim of seed 002 §4.1: k-d tiling ignores connectivity, coarsened bisection does not.
// With shuffled ids the (row, column) points carry no locality, so k-d tiles replicate far more.
TEST(EdgePartition, CoarsenedBisectionReplicatesLessOnShuffledGrid) {
  for (std::uint64_t shuffle : {3u, 11u, 29u}) {
    const IrregularPattern p = make_grid_laplacian(40, shuffle);
    const CacheFitPartition kd = partition_cache_fit(p, edge_options(Bisector::kd_tiling, 1536, 8));
    const CacheFitPartition cb = partition_cache_fit(p, edge_options(Bisector::coarsened, 1536, 8));
    EXPECT_LT(cb.replication + cb.thread_replication, kd.replication + kd.thread_replication)
        << "shuffle " << shuffle << ": coarsened " << cb.replication << "+" << cb.thread_replication
        << " in " << cb.parts() << " parts, k-d " << kd.replication << "+" << kd.thread_replication
        << " in " << kd.parts() << " parts";
    // Fewer replicas also means fewer (or as few) parts for the same capacity.
    EXPECT_LE(cb.parts(), kd.parts());
  }
}

// Both layouts of the same pattern give the same partition (same references in the same order).
TEST(EdgePartition, SameResultInBothLayouts) {
  const IrregularPattern csr = make_grid_laplacian(12, 5);
  const IrregularPattern rbt = to_rows_by_threads(csr);
  for (Bisector b : {Bisector::kd_tiling, Bisector::coarsened}) {
    const PartitionOptions opt = edge_options(b, 40 * 8, 0);
    const CacheFitPartition x = partition_cache_fit(csr, opt), y = partition_cache_fit(rbt, opt);
    expect_valid_partition(rbt, y, opt);
    EXPECT_EQ(x.edge_thread, y.edge_thread);
    EXPECT_EQ(x.part_edge_begin, y.part_edge_begin);
    EXPECT_EQ(x.data_old_to_new, y.data_old_to_new);
    for (std::size_t k = 0; k < x.edge_pos.size(); ++k)
      ASSERT_EQ(csr.index[x.edge_pos[k]], rbt.index[y.edge_pos[k]]);
  }
}

// Threads granularity with coarsened bisection: a thread is never split, parts fit, the thread
// count balance follows len; on the shuffled lattice it regains locality like k-d tiling does.
TEST(ThreadPartition, CoarsenedBisectionOnShuffledLattice) {
  const auto lat = make_shuffled_lattice(10, 5);
  PartitionOptions opt;
  opt.cache_bytes = 150 * 16;
  opt.bisector = Bisector::coarsened;
  const CacheFitPartition cp = partition_cache_fit(lat.pattern, opt);
  expect_valid_partition(lat.pattern, cp, opt);
  EXPECT_TRUE(balanced(cp, opt.coarsened.imbalance, 18));  // every thread has 18 references
  opt.bisector = Bisector::kd_tiling;
  const CacheFitPartition kd = partition_cache_fit(lat.pattern, opt, lat.coords);
  expect_valid_partition(lat.pattern, kd, opt);
  EXPECT_TRUE(balanced(kd, 0.0, 18));
  opt.bisector = Bisector::coarsened;
  const IrregularPattern remapped = apply_data_permutation(
      apply_thread_permutation(lat.pattern, cp.thread_perm), cp.data_old_to_new);
  EXPECT_LT(mean_block_working_set(remapped, 64), mean_block_working_set(lat.pattern, 64));
  EXPECT_LT(count_transactions(remapped).seg128, count_transactions(lat.pattern).seg128);
  // Same parts from the CSR layout.
  const CacheFitPartition c2 = partition_cache_fit(to_csr(lat.pattern), opt);
  EXPECT_EQ(c2.thread_perm, cp.thread_perm);
  EXPECT_EQ(c2.part_begin, cp.part_begin);
}

// Threads granularity balances references, not threads: k-d tiling splits at the weighted
// median. 8 threads on a line: thread 0 reads 6 elements, the others 1 each (13 references).
TEST(ThreadPartition, KdTilingSplitsAtTheWeightedMedian) {
  std::vector<std::vector<std::int32_t>> rows = {{0, 1, 2, 3, 4, 5}};
  for (int t = 1; t < 8; ++t) rows.push_back({5 + t});
  const IrregularPattern p = make_pattern(rows, 13, 4);
  std::vector<float> coords;
  for (int t = 0; t < 8; ++t) coords.insert(coords.end(), {float(t), 0.f, 0.f});
  PartitionOptions opt;
  opt.cache_bytes = 10 * 4;  // 13 elements do not fit, so the root is bisected
  opt.tile_threads = 0;
  const CacheFitPartition cp = partition_cache_fit(p, opt, coords);
  // Weights 6,1,1,1,1,1,1,1 along x: halves of 6.5: {0} (6) or {0,1} (7): both 0.5 away; the
  // lower one wins. A count median would give {0..3} = 9 references against 4.
  ASSERT_GE(cp.tree.size(), 3u);
  EXPECT_EQ(cp.tree[cp.tree[0].left].thread_end, 1);
  EXPECT_EQ(cp.tree[cp.tree[0].left].edge_end, 6);
  expect_valid_partition(p, cp, opt);
  EXPECT_TRUE(balanced(cp, 0.0, 6));
}

// seed 002 §4.1: refinement is skipped at the finest unrefined_levels levels.
TEST(EdgePartition, UnrefinedLevelsOption) {
  const IrregularPattern p = make_grid_laplacian(40, 3);
  PartitionOptions opt = edge_options(Bisector::coarsened, 1536, 8);
  opt.coarsened.first_level_refs = 1;  // start from single references: more levels
  const CacheFitPartition def = partition_cache_fit(p, opt);
  expect_valid_partition(p, def, opt);
  ASSERT_GT(def.coarsen_levels, 5);
  EXPECT_EQ(def.refined_levels, def.coarsen_levels + 1 - 5);  // levels 5..L (L = coarsest)
  opt.coarsened.unrefined_levels = 0;
  const CacheFitPartition all = partition_cache_fit(p, opt);
  EXPECT_EQ(all.refined_levels, all.coarsen_levels + 1);
  expect_valid_partition(p, all, opt);
  opt.coarsened.unrefined_levels = 100;
  const CacheFitPartition none = partition_cache_fit(p, opt);
  EXPECT_EQ(none.refined_levels, 0);
  expect_valid_partition(p, none, opt);
}

// seed 002 Algorithm 5 over edge parts: each part's private elements are packed contiguously,
// parts ranked by their private count, all private elements before all boundary ones.
TEST(EdgePartition, DataPackingGroupsPrivateElementsByPart) {
  const IrregularPattern p = make_grid_laplacian(24, 9);
  const PartitionOptions opt = edge_options(Bisector::coarsened, 64 * 8, 0);
  const CacheFitPartition cp = partition_cache_fit(p, opt);
  ASSERT_GT(cp.parts(), 4);
  std::map<std::int32_t, std::set<std::int64_t>> parts_of;
  for (std::int64_t q = 0; q < cp.parts(); ++q)
    for (std::int64_t k = cp.part_edge_begin[q]; k < cp.part_edge_begin[q + 1]; ++k)
      parts_of[p.index[cp.edge_pos[k]]].insert(q);
  std::map<std::int64_t, std::vector<std::int32_t>> private_new;  // part -> new ids
  std::int32_t max_private = -1, min_boundary = p.data_count;
  for (const auto& [e, s] : parts_of) {
    const std::int32_t ne = cp.data_old_to_new[e];
    if (s.size() == 1) {
      private_new[*s.begin()].push_back(ne);
      max_private = std::max(max_private, ne);
    } else {
      min_boundary = std::min(min_boundary, ne);
    }
  }
  EXPECT_LT(max_private, min_boundary);
  std::vector<std::pair<std::int32_t, std::int64_t>> first_of;  // (first new id, count)
  for (auto& [q, ids] : private_new) {
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(ids.back() - ids.front() + 1, static_cast<std::int32_t>(ids.size())) << "part " << q;
    first_of.emplace_back(ids.front(), static_cast<std::int64_t>(ids.size()));
  }
  std::sort(first_of.begin(), first_of.end());
  for (std::size_t i = 1; i < first_of.size(); ++i)
    EXPECT_LE(first_of[i - 1].second, first_of[i].second) << "parts not ranked by private count";
  // The same permutation from the stand-alone Algorithm 5 entry point.
  EXPECT_EQ(remap_data_by_partition(p, cp), cp.data_old_to_new);
}

TEST(EdgePartition, RejectsBadInput) {
  const IrregularPattern p = make_grid_laplacian(4);
  PartitionOptions opt = edge_options(Bisector::kd_tiling, 12, 8);  // < one x + one y
  EXPECT_THROW(partition_cache_fit(p, opt), Error);
  opt.cache_bytes = 1024;
  EXPECT_THROW(partition_cache_fit(p, opt, std::vector<float>(48, 0.f)), Error);  // coords: threads
  opt.out_bytes = -1;
  EXPECT_THROW(partition_cache_fit(p, opt), Error);
  opt.out_bytes = 0;
  opt.bisector = Bisector::coarsened;
  opt.coarsened.imbalance = 1.5;
  EXPECT_THROW(partition_cache_fit(p, opt), Error);
  // Empty pattern: no references, no parts.
  IrregularPattern empty;
  empty.data_count = 3;
  empty.elem_bytes = 8;
  opt.coarsened.imbalance = 0.02;
  const CacheFitPartition cp = partition_cache_fit(empty, opt);
  EXPECT_EQ(cp.parts(), 0);
  EXPECT_EQ(cp.data_old_to_new, (DataPermutation{0, 1, 2}));
}

TEST(PermuteData, MovesElementsToTheirNewPlace) {
  EXPECT_EQ(permute_data(std::vector<double>{10, 11, 12}, {2, 0, 1}),
            (std::vector<double>{11, 12, 10}));
  EXPECT_THROW(permute_data(std::vector<double>{1, 2}, {0, 0}), Error);
}

}  // namespace
}  // namespace mdremap::remap

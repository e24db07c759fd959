// seed 001 §3.4: graph clustering by label propagation.
#include <gtest/gtest.h>

#include <set>

#include "mdremap/remap/impl/clustering.hpp"
#include "mdremap/remap/impl/sharing.hpp"
#include "remap_test_util.hpp"

namespace mdremap::remap {
namespace {

using testing::make_pattern;
using testing::make_shuffled_lattice;

void expect_consistent(const IrregularPattern& p, const ThreadClustering& cl) {
  ASSERT_EQ(static_cast<std::int64_t>(cl.thread_perm.size()), p.threads);
  ASSERT_TRUE(is_permutation(cl.thread_perm));
  ASSERT_EQ(cl.cluster_begin.front(), 0);
  ASSERT_EQ(cl.cluster_begin.back(), p.threads);
  for (std::int64_t c = 0; c < cl.clusters(); ++c) {
    EXPECT_LT(cl.cluster_begin[c], cl.cluster_begin[c + 1]) << "empty cluster " << c;
    for (std::int64_t nt = cl.cluster_begin[c]; nt < cl.cluster_begin[c + 1]; ++nt)
      EXPECT_EQ(cl.label[cl.thread_perm[nt]], c) << "cluster threads must be consecutive";
  }
}

TEST(LabelPropagation, ReducesBlockWorkingSetOnShuffledLattice) {
  // 10^3 periodic lattice, 18 neighbours each, thread and data ids shuffled. A random block of
  // B threads reads about 1000 * (1 - exp(-18 B / 1000)) distinct elements (~440 for B = 32); a
  // compact cluster of B lattice points reads about its own region plus a one-site shell, so
  // clustering must cut the mean working set.
  const auto lat = make_shuffled_lattice(10, 42);
  for (int B : {32, 64, 128}) {
    LabelPropagationOptions opt;
    opt.cluster_threads = B;
    const ThreadClustering cl = LabelPropagationClustering(opt).cluster(lat.pattern);
    expect_consistent(lat.pattern, cl);
    const double before = mean_block_working_set(lat.pattern, B);
    const double after =
        mean_block_working_set(apply_thread_permutation(lat.pattern, cl.thread_perm), B);
    EXPECT_LT(after, before) << "B=" << B;
    EXPECT_LT(after, 0.8 * before) << "B=" << B << " before " << before << " after " << after;
  }
}

TEST(LabelPropagation, DeterministicForASeed) {
  const auto lat = make_shuffled_lattice(6, 1);
  LabelPropagationOptions opt;
  opt.cluster_threads = 16;
  opt.seed = 9;
  const auto x = LabelPropagationClustering(opt).cluster(lat.pattern);
  const auto y = LabelPropagationClustering(opt).cluster(lat.pattern);
  EXPECT_EQ(x.thread_perm, y.thread_perm);
  EXPECT_EQ(x.label, y.label);
}

TEST(LabelPropagation, ComponentsNeverShareAClusterAndIdleThreadsGoLast) {
  // Threads 0..3 read only {0,1}; threads 4..7 read only {2,3}; thread 8 reads nothing.
  // Labels cannot cross between the two components, so no cluster mixes them; the idle thread
  // forms the last cluster.
  const auto p = make_pattern({{0, 1}, {1}, {0}, {1, 0}, {2}, {3, 2}, {3}, {2}, {}}, 4, 16);
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    LabelPropagationOptions opt;
    opt.cluster_threads = 2;
    opt.seed = seed;
    const auto cl = LabelPropagationClustering(opt).cluster(p);
    expect_consistent(p, cl);
    std::set<std::int32_t> left, right;
    for (int t = 0; t < 4; ++t) left.insert(cl.label[t]);
    for (int t = 4; t < 8; ++t) right.insert(cl.label[t]);
    for (std::int32_t l : left) EXPECT_EQ(right.count(l), 0u) << "seed " << seed;
    EXPECT_EQ(cl.thread_perm.back(), 8);
    EXPECT_EQ(cl.label[8], cl.clusters() - 1);
  }
}

TEST(LabelPropagation, SameClustersFromCsr) {
  const auto lat = make_shuffled_lattice(8, 3);
  LabelPropagationOptions opt;
  opt.cluster_threads = 32;
  const auto x = LabelPropagationClustering(opt).cluster(lat.pattern);
  const auto y = LabelPropagationClustering(opt).cluster(to_csr(lat.pattern));
  EXPECT_EQ(x.thread_perm, y.thread_perm);
  EXPECT_EQ(x.cluster_begin, y.cluster_begin);
}

}  // namespace
}  // namespace mdremap::remap

#include "mdremap/remap/impl/clustering.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>

#include "mdremap/error.hpp"

#include "omp.hpp"

namespace mdremap::remap {

namespace {

// Most frequent value of `labels` (ties: smallest); -1 when empty. Sorts `labels` in place.
std::int32_t majority(std::vector<std::int32_t>& labels) {
  if (labels.empty()) return -1;
  std::sort(labels.begin(), labels.end());
  std::int32_t best = labels[0];
  std::size_t best_n = 0;
  for (std::size_t i = 0; i < labels.size();) {
    std::size_t k = i;
    while (k < labels.size() && labels[k] == labels[i]) ++k;
    if (k - i > best_n) {
      best_n = k - i;
      best = labels[i];
    }
    i = k;
  }
  return best;
}

}  // namespace

// seed 001 §3.4 (graph clustering for the sharing algorithm): seeded label propagation.
ThreadClustering LabelPropagationClustering::cluster(const IrregularPattern& p) const {
  validate_pattern(p);
  if (opt_.cluster_threads <= 0) throw Error("labelprop: cluster_threads must be > 0");
  const std::int64_t T = p.threads;
  const std::int64_t D = p.data_count;

  // Readers of each element (transpose of the index): the element side of the bipartite graph.
  std::vector<std::int64_t> roff(D + 1, 0);
  // Sweeps in storage order read the index contiguously: row-major for rows-by-threads,
  // thread-major for CSR (where a row-major sweep would cost rows * threads for one long row).
  auto for_each_ref = [&p, T](auto&& f) {
    if (p.csr()) {
      for (std::int64_t t = 0; t < T; ++t)
        for (int j = 0; j < p.len[t]; ++j) f(j, t);
    } else {
      for (int j = 0; j < p.rows; ++j)
        for (std::int64_t t = 0; t < T; ++t)
          if (j < p.len[t]) f(j, t);
    }
  };
  for_each_ref([&](int j, std::int64_t t) { ++roff[p.at(j, t) + 1]; });
  std::partial_sum(roff.begin(), roff.end(), roff.begin());
  if (T > std::numeric_limits<std::int32_t>::max())
    throw Error("labelprop: more than 2^31 threads are not supported");
  std::vector<std::int32_t> readers(roff[D]);
  {
    std::vector<std::int64_t> fill(roff.begin(), roff.end() - 1);
    for_each_ref(
        [&](int j, std::int64_t t) { readers[fill[p.at(j, t)]++] = static_cast<std::int32_t>(t); });
  }

  // Seed nodes: a random order of the threads that read anything; seeds are taken from its front.
  std::vector<std::int64_t> order;
  for (std::int64_t t = 0; t < T; ++t)
    if (p.len[t] > 0) order.push_back(t);
  std::mt19937_64 rng(opt_.seed);
  std::shuffle(order.begin(), order.end(), rng);
  const std::int64_t nactive = static_cast<std::int64_t>(order.size());

  ThreadClustering out;
  std::vector<std::int32_t>& label = out.label;
  label.assign(T, -1);
  std::vector<int> hop(T, 0);
  std::vector<std::int32_t> elem_label(D, -1);
  std::int32_t nlabels = 0;
  std::int64_t labelled = 0;
  std::size_t next_seed = 0;
  auto add_seeds = [&](std::int64_t count) {
    for (; count > 0 && next_seed < order.size(); ++next_seed) {
      const std::int64_t t = order[next_seed];
      if (label[t] >= 0) continue;
      label[t] = nlabels++;
      hop[t] = out.hops;
      ++labelled;
      --count;
    }
  };
  if (nactive > 0)
    add_seeds(
        std::max<std::int64_t>(1, (nactive + opt_.cluster_threads - 1) / opt_.cluster_threads));

  while (labelled < nactive) {
    ++out.hops;
    // Element step: an unlabelled element takes the majority label of its labelled readers.
    MDREMAP_OMP(omp parallel) {
      std::vector<std::int32_t> tmp;
      MDREMAP_OMP(omp for schedule(dynamic, 1024))
      for (std::int64_t e = 0; e < D; ++e) {
        if (elem_label[e] >= 0) continue;
        tmp.clear();
        for (std::int64_t k = roff[e]; k < roff[e + 1]; ++k)
          if (label[readers[k]] >= 0) tmp.push_back(label[readers[k]]);
        elem_label[e] = majority(tmp);
      }
    }
    // Thread step: an unlabelled thread takes the majority label of its labelled elements.
    std::int64_t gained = 0;
    MDREMAP_OMP(omp parallel reduction(+ : gained)) {
      std::vector<std::int32_t> tmp;
      MDREMAP_OMP(omp for schedule(dynamic, 1024))
      for (std::int64_t t = 0; t < T; ++t) {
        if (label[t] >= 0 || p.len[t] == 0) continue;
        tmp.clear();
        for (int j = 0; j < p.len[t]; ++j) {
          const std::int32_t l = elem_label[p.at(j, t)];
          if (l >= 0) tmp.push_back(l);
        }
        const std::int32_t l = majority(tmp);
        if (l >= 0) {
          label[t] = l;
          hop[t] = out.hops;
          ++gained;
        }
      }
    }
    labelled += gained;
    // No seed reaches the rest (another component): seed it in proportion to what is left.
    if (gained == 0)
      add_seeds(std::max<std::int64_t>(
          1, (nactive - labelled + opt_.cluster_threads - 1) / opt_.cluster_threads));
  }
  const bool has_idle = nactive < T;  // threads with no reference: one last cluster
  const std::int32_t nclusters = nlabels + (has_idle ? 1 : 0);
  for (std::int64_t t = 0; t < T; ++t)
    if (label[t] < 0) label[t] = nlabels;

  // Cluster adjacency: clusters whose threads read a common element, weighted by such elements.
  std::vector<std::pair<std::int32_t, std::int32_t>> links;
  {
    std::vector<std::int32_t> ls;
    for (std::int64_t e = 0; e < D; ++e) {
      ls.clear();
      for (std::int64_t k = roff[e]; k < roff[e + 1]; ++k) ls.push_back(label[readers[k]]);
      std::sort(ls.begin(), ls.end());
      ls.erase(std::unique(ls.begin(), ls.end()), ls.end());
      if (ls.size() <= 16) {
        for (std::size_t a = 0; a < ls.size(); ++a)
          for (std::size_t b = a + 1; b < ls.size(); ++b) links.emplace_back(ls[a], ls[b]);
      } else {  // a hub element: chaining its clusters is enough to connect them
        for (std::size_t a = 0; a + 1 < ls.size(); ++a) links.emplace_back(ls[a], ls[a + 1]);
      }
    }
  }
  std::sort(links.begin(), links.end());
  std::vector<std::vector<std::pair<std::int64_t, std::int32_t>>> adj(nclusters);  // (-weight, c)
  for (std::size_t i = 0; i < links.size();) {
    std::size_t k = i;
    while (k < links.size() && links[k] == links[i]) ++k;
    const std::int64_t w = static_cast<std::int64_t>(k - i);
    adj[links[i].first].emplace_back(-w, links[i].second);
    adj[links[i].second].emplace_back(-w, links[i].first);
    i = k;
  }
  for (auto& a : adj) std::sort(a.begin(), a.end());

  // Depth-first walk over clusters, strongest link first; the idle cluster stays last.
  std::vector<std::int32_t> rank(nclusters, -1);
  std::int32_t placed = 0;
  std::vector<std::pair<std::int32_t, std::size_t>> stack;
  for (std::int32_t c0 = 0; c0 < nlabels; ++c0) {
    if (rank[c0] >= 0) continue;
    rank[c0] = placed++;
    stack.emplace_back(c0, 0);
    while (!stack.empty()) {
      auto& [c, next] = stack.back();
      if (next == adj[c].size()) {
        stack.pop_back();
        continue;
      }
      const std::int32_t d = adj[c][next++].second;
      if (d < nlabels && rank[d] < 0) {
        rank[d] = placed++;
        stack.emplace_back(d, 0);
      }
    }
  }
  if (has_idle) rank[nlabels] = placed++;

  out.thread_perm.resize(T);
  std::iota(out.thread_perm.begin(), out.thread_perm.end(), 0);
  std::sort(out.thread_perm.begin(), out.thread_perm.end(), [&](std::int64_t a, std::int64_t b) {
    if (rank[label[a]] != rank[label[b]]) return rank[label[a]] < rank[label[b]];
    if (hop[a] != hop[b]) return hop[a] < hop[b];
    return a < b;
  });
  for (std::int64_t t = 0; t < T; ++t) label[t] = rank[label[t]];
  out.cluster_begin.assign(nclusters + 1, 0);
  for (std::int64_t t = 0; t < T; ++t) ++out.cluster_begin[label[t] + 1];
  std::partial_sum(out.cluster_begin.begin(), out.cluster_begin.end(), out.cluster_begin.begin());
  return out;
}

}  // namespace mdremap::remap

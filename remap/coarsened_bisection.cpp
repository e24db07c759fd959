// seed 002 §4.1, Algorithm 4 (Coarsened Bisection): a multilevel edge bisection after SPAC (Li
// et al.): coarsen by merging entities (sets of edges) with their heaviest neighbour, bisect the
// coarsest graph, project back, and refine only the coarser levels.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>
#include <utility>

#include "bisection.hpp"
#include "omp.hpp"

namespace mdremap::remap::detail {

namespace {

// vertex -> entities touching it (ascending entity ids).
struct Transpose {
  std::vector<std::int64_t> off;
  std::vector<std::int32_t> ent;
};

Transpose transpose(const EntityGraph& g) {
  Transpose tr;
  tr.off.assign(g.nvertices + 1, 0);
  for (std::int32_t v : g.vtx) ++tr.off[v + 1];
  std::partial_sum(tr.off.begin(), tr.off.end(), tr.off.begin());
  tr.ent.resize(g.vtx.size());
  std::vector<std::int64_t> fill(tr.off.begin(), tr.off.end() - 1);
  for (std::int64_t c = 0; c < g.size(); ++c)
    for (std::int64_t k = g.off[c]; k < g.off[c + 1]; ++k)
      tr.ent[fill[g.vtx[k]]++] = static_cast<std::int32_t>(c);
  return tr;
}

constexpr int kCandidates = 4;  // neighbours remembered per entity for the matching
// Below this many entities a level is merged serially: a parallel region costs more than it
// saves (and much more on an oversubscribed host).
constexpr std::int64_t kParallelEntities = 1 << 14;

// One level of Algorithm 4 (lines 5-9): heavy-neighbour matching, then the coarsened graph.
// Entities heavier than `cap` together are not merged (keeps the bisection balanceable).
// Returns false when nothing could be merged.
bool coarsen_once(const EntityGraph& g, std::int64_t cap, int max_scan, EntityGraph& coarse,
                  std::vector<std::int32_t>& cmap) {
  const std::int64_t n = g.size();
  const Transpose tr = transpose(g);

  // Line 5: "sort L by entity degree" (degree counted with multiplicity through the vertices).
  std::vector<std::int64_t> deg(n);
  MDREMAP_OMP(omp parallel for schedule(static) if (n >= kParallelEntities))
  for (std::int64_t c = 0; c < n; ++c) {
    std::int64_t d = 0;
    for (std::int64_t k = g.off[c]; k < g.off[c + 1]; ++k)
      d += tr.off[g.vtx[k] + 1] - tr.off[g.vtx[k]] - 1;
    deg[c] = d;
  }
  std::vector<std::int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::int32_t a, std::int32_t b) { return deg[a] < deg[b]; });

  // Each entity's heaviest neighbours (most shared vertices; ties: lighter, then a hash of the
  // pair, the same from both ends, so that tied entities tend to choose each other instead of
  // all choosing the lowest id), found in parallel; the greedy matching below takes the first one
  // still available.
  std::vector<std::int32_t> cand(static_cast<std::size_t>(n) * kCandidates, -1);
  auto pair_hash = [](std::int64_t x, std::int64_t y) {
    const std::uint64_t lo = static_cast<std::uint64_t>(std::min(x, y));
    const std::uint64_t hi = static_cast<std::uint64_t>(std::max(x, y));
    std::uint64_t h = (lo * 0x9E3779B97F4A7C15ull) ^ (hi + 0x632BE59BD9B4E019ull + (lo << 6));
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 29);
  };
  // Shared-vertex counts: a dense counter per thread (n ints) while that stays small, else a
  // sort of the scanned neighbours.
  const bool dense = n <= (std::int64_t{1} << 22);
  MDREMAP_OMP(omp parallel if (n >= kParallelEntities)) {
    std::vector<std::int32_t> seen, acc(dense ? n : 0, 0);
    struct Cand {
      std::int32_t shared = 0, id = -1;
      std::int64_t weight = 0;
      std::uint64_t tie = 0;
    };
    Cand best[kCandidates];
    MDREMAP_OMP(omp for schedule(dynamic, 256))
    for (std::int64_t c = 0; c < n; ++c) {
      seen.clear();
      for (std::int64_t k = g.off[c]; k < g.off[c + 1]; ++k) {
        const std::int32_t v = g.vtx[k];
        const std::int64_t b = tr.off[v], d = tr.off[v + 1] - b;
        if (d <= 1) continue;
        // A hub vertex: scan a window of max_scan readers that depends on c, so different
        // entities see different readers of the hub.
        std::int64_t i = 0, m = d;
        if (d > max_scan) {
          i = static_cast<std::int64_t>((static_cast<std::uint64_t>(c) * 0x9E3779B97F4A7C15ull) %
                                        static_cast<std::uint64_t>(d));
          m = max_scan;
        }
        for (; m > 0; --m, i = (i + 1 == d ? 0 : i + 1)) {
          const std::int32_t c2 = tr.ent[b + i];
          if (c2 == c || g.weight[c] + g.weight[c2] > cap) continue;
          if (!dense || acc[c2]++ == 0) seen.push_back(c2);
        }
      }
      if (seen.empty()) continue;
      for (Cand& x : best) x = Cand{};
      // Insert a neighbour into the sorted top list (better: more shared, lighter, smaller hash).
      auto offer = [&](std::int32_t c2, std::int32_t shared) {
        Cand x{shared, c2, g.weight[c2], pair_hash(c, c2)};
        for (Cand& y : best) {
          const bool better = y.id < 0 || x.shared > y.shared ||
                              (x.shared == y.shared &&
                               (x.weight < y.weight || (x.weight == y.weight && x.tie < y.tie)));
          if (better) std::swap(x, y);
          if (x.id < 0) break;
        }
      };
      if (dense) {
        for (std::int32_t c2 : seen) {
          offer(c2, acc[c2]);
          acc[c2] = 0;
        }
      } else {
        std::sort(seen.begin(), seen.end());
        for (std::size_t i = 0; i < seen.size();) {
          std::size_t k = i;
          while (k < seen.size() && seen[k] == seen[i]) ++k;
          offer(seen[i], static_cast<std::int32_t>(k - i));
          i = k;
        }
      }
      for (int i = 0; i < kCandidates; ++i) cand[c * kCandidates + i] = best[i].id;
    }
  }

  // Lines 6-8: merge e with its heaviest available neighbour, in degree order.
  std::vector<std::int32_t> match(n, -1);
  for (std::int32_t c : order) {
    if (match[c] >= 0) continue;
    match[c] = c;
    for (int i = 0; i < kCandidates; ++i) {
      const std::int32_t c2 = cand[static_cast<std::size_t>(c) * kCandidates + i];
      if (c2 < 0) break;
      if (match[c2] < 0) {
        match[c] = c2;
        match[c2] = c;
        break;
      }
    }
  }
  cmap.assign(n, -1);
  std::vector<std::int32_t> first, second;
  for (std::int64_t c = 0; c < n; ++c) {
    if (cmap[c] >= 0) continue;
    const auto k = static_cast<std::int32_t>(first.size());
    cmap[c] = k;
    first.push_back(static_cast<std::int32_t>(c));
    second.push_back(match[c] != c ? match[c] : -1);
    if (match[c] != c) cmap[match[c]] = k;
  }
  const std::int64_t nc = static_cast<std::int64_t>(first.size());
  if (nc == n) return false;

  // Line 9: the coarsened lists, built in parallel (seed 002 §4.1: "we also parallelize the
  // merging phase"): a coarse entity's vertices are the sorted union of its members'.
  coarse.nvertices = g.nvertices;
  coarse.weight.assign(nc, 0);
  coarse.off.assign(nc + 1, 0);
  auto members = [&](std::int64_t k, const std::int32_t*& a0, const std::int32_t*& a1,
                     const std::int32_t*& b0, const std::int32_t*& b1) {
    a0 = g.vtx.data() + g.off[first[k]];
    a1 = g.vtx.data() + g.off[first[k] + 1];
    b0 = b1 = a1;
    if (second[k] >= 0) {
      b0 = g.vtx.data() + g.off[second[k]];
      b1 = g.vtx.data() + g.off[second[k] + 1];
    }
  };
  MDREMAP_OMP(omp parallel for schedule(dynamic, 1024) if (nc >= kParallelEntities))
  for (std::int64_t k = 0; k < nc; ++k) {
    const std::int32_t *a0, *a1, *b0, *b1;
    members(k, a0, a1, b0, b1);
    std::int64_t u = 0;
    while (a0 != a1 && b0 != b1) {
      if (*a0 < *b0) {
        ++a0;
      } else if (*b0 < *a0) {
        ++b0;
      } else {
        ++a0;
        ++b0;
      }
      ++u;
    }
    u += (a1 - a0) + (b1 - b0);
    coarse.off[k + 1] = u;
    coarse.weight[k] = g.weight[first[k]] + (second[k] >= 0 ? g.weight[second[k]] : 0);
  }
  std::partial_sum(coarse.off.begin(), coarse.off.end(), coarse.off.begin());
  coarse.vtx.resize(coarse.off[nc]);
  MDREMAP_OMP(omp parallel for schedule(dynamic, 1024) if (nc >= kParallelEntities))
  for (std::int64_t k = 0; k < nc; ++k) {
    const std::int32_t *a0, *a1, *b0, *b1;
    members(k, a0, a1, b0, b1);
    std::set_union(a0, a1, b0, b1, coarse.vtx.begin() + coarse.off[k]);
  }
  return true;
}

// Breadth-first search over entities (through shared vertices) from `start`; returns the entity
// reached last: a pseudo-peripheral start for graph growing.
std::int32_t farthest(const EntityGraph& g, const Transpose& tr, std::int32_t start) {
  std::vector<char> seen_e(g.size(), 0), seen_v(g.nvertices, 0);
  std::queue<std::int32_t> q;
  q.push(start);
  seen_e[start] = 1;
  std::int32_t last = start;
  while (!q.empty()) {
    const std::int32_t c = q.front();
    q.pop();
    last = c;
    for (std::int64_t k = g.off[c]; k < g.off[c + 1]; ++k) {
      const std::int32_t v = g.vtx[k];
      if (seen_v[v]) continue;
      seen_v[v] = 1;
      for (std::int64_t i = tr.off[v]; i < tr.off[v + 1]; ++i)
        if (!seen_e[tr.ent[i]]) {
          seen_e[tr.ent[i]] = 1;
          q.push(tr.ent[i]);
        }
    }
  }
  return last;
}

// Greedy graph growing (GGGP): side 0 grows from `start`, always taking the outside entity that
// shares the most vertices with it, until it holds half of the weight. Returns side per entity.
std::vector<std::uint8_t> grow(const EntityGraph& g, const Transpose& tr, std::int32_t start,
                               double half) {
  const std::int64_t n = g.size();
  std::vector<std::uint8_t> side(n, 1);
  std::vector<char> vin(g.nvertices, 0);
  std::vector<std::int64_t> conn(n, 0);
  std::priority_queue<std::pair<std::int64_t, std::int32_t>> heap;  // (conn, -id)
  std::int64_t w = 0, count = 0, next_free = 0;
  std::int32_t last = -1;
  auto add = [&](std::int32_t c) {
    side[c] = 0;
    w += g.weight[c];
    ++count;
    last = c;
    for (std::int64_t k = g.off[c]; k < g.off[c + 1]; ++k) {
      const std::int32_t v = g.vtx[k];
      if (vin[v]) continue;
      vin[v] = 1;
      for (std::int64_t i = tr.off[v]; i < tr.off[v + 1]; ++i) {
        const std::int32_t c2 = tr.ent[i];
        if (side[c2] == 1) heap.emplace(++conn[c2], -c2);
      }
    }
  };
  add(start);
  while (static_cast<double>(w) < half && count < n) {
    std::int32_t c = -1;
    while (!heap.empty()) {
      const auto [k, nid] = heap.top();
      heap.pop();
      if (side[-nid] == 1 && conn[-nid] == k) {
        c = -nid;
        break;
      }
    }
    if (c < 0) {  // frontier empty: another component
      while (side[next_free] == 0) ++next_free;
      c = static_cast<std::int32_t>(next_free);
    }
    add(c);
  }
  const double without_last = static_cast<double>(w - g.weight[last]);
  if (count == n || (count > 1 && std::abs(without_last - half) < std::abs(w - half)))
    side[last] = 1;
  return side;
}

// Vertices touched by both sides (the cut's replication, seed 002 eq. 2 for k = 2).
std::int64_t cut_vertices(const EntityGraph& g, const std::vector<std::uint8_t>& side) {
  std::vector<std::uint8_t> mask(g.nvertices, 0);
  for (std::int64_t c = 0; c < g.size(); ++c)
    for (std::int64_t k = g.off[c]; k < g.off[c + 1]; ++k) mask[g.vtx[k]] |= 1 << side[c];
  return std::count(mask.begin(), mask.end(), 3);
}

// Boundary refinement: move an entity to the other side when that removes vertex replicas
// (gain > 0) and the other side stays within `bound`, or when the gain is 0 and the move evens
// the sides out.
void refine(const EntityGraph& g, std::vector<std::uint8_t>& side, double bound, int passes) {
  const std::int64_t n = g.size();
  std::vector<std::int32_t> cnt[2] = {std::vector<std::int32_t>(g.nvertices, 0),
                                      std::vector<std::int32_t>(g.nvertices, 0)};
  std::int64_t w[2] = {0, 0}, count[2] = {0, 0};
  for (std::int64_t c = 0; c < n; ++c) {
    w[side[c]] += g.weight[c];
    ++count[side[c]];
    for (std::int64_t k = g.off[c]; k < g.off[c + 1]; ++k) ++cnt[side[c]][g.vtx[k]];
  }
  for (int pass = 0; pass < passes; ++pass) {
    std::int64_t moved = 0;
    for (std::int64_t c = 0; c < n; ++c) {
      const int s = side[c], o = 1 - s;
      if (count[s] == 1) continue;
      std::int64_t gain = 0;
      for (std::int64_t k = g.off[c]; k < g.off[c + 1]; ++k) {
        const std::int32_t v = g.vtx[k];
        if (cnt[s][v] == 1 && cnt[o][v] > 0) ++gain;
        if (cnt[s][v] > 1 && cnt[o][v] == 0) --gain;
      }
      const std::int64_t wc = g.weight[c];
      const bool fits = static_cast<double>(w[o] + wc) <= bound;
      if (!((gain > 0 && fits) || (gain == 0 && wc < w[s] - w[o]))) continue;
      for (std::int64_t k = g.off[c]; k < g.off[c + 1]; ++k) {
        --cnt[s][g.vtx[k]];
        ++cnt[o][g.vtx[k]];
      }
      w[s] -= wc;
      w[o] += wc;
      --count[s];
      ++count[o];
      side[c] = static_cast<std::uint8_t>(o);
      ++moved;
    }
    if (moved == 0) break;
  }
}

}  // namespace

std::vector<std::uint8_t> coarsened_bisection(const EntityGraph& g,
                                              const CoarsenedBisectionOptions& opt,
                                              BisectionStats* stats) {
  const std::int64_t n = g.size();
  BisectionStats st;
  if (n < 2) {
    if (stats) *stats = st;
    return std::vector<std::uint8_t>(n, 0);
  }
  const std::int64_t total = std::accumulate(g.weight.begin(), g.weight.end(), std::int64_t{0});
  const double half = 0.5 * static_cast<double>(total);
  const double bound = (1.0 + opt.imbalance) * half;
  // No coarse entity heavier than imbalance * half: graph growing then lands within half of
  // that of the target and refinement keeps both sides within `bound`.
  const std::int64_t cap =
      std::max<std::int64_t>(1, static_cast<std::int64_t>(opt.imbalance * half));

  // Lines 3-10: the coarsening levels (levels[0] is the input).
  std::vector<EntityGraph> coarse;
  std::vector<std::vector<std::int32_t>> cmaps;
  auto level = [&](int l) -> const EntityGraph& { return l == 0 ? g : coarse[l - 1]; };
  while (st.levels < opt.max_levels && level(st.levels).size() > opt.coarse_entities) {
    EntityGraph next;
    std::vector<std::int32_t> cmap;
    if (!coarsen_once(level(st.levels), cap, opt.max_vertex_scan, next, cmap)) break;
    const bool stalled = next.size() * 20 > level(st.levels).size() * 19;  // < 5% fewer
    coarse.push_back(std::move(next));
    cmaps.push_back(std::move(cmap));
    ++st.levels;
    if (stalled) break;
  }

  // Lines 11-12: bisect the coarsest graph; a few pseudo-peripheral starts, keep the best cut.
  const int L = st.levels;
  const EntityGraph& top = level(L);
  const bool refine_top = L >= opt.unrefined_levels;
  std::vector<std::uint8_t> side;
  {
    const Transpose tr = transpose(top);
    const std::int32_t m = static_cast<std::int32_t>(top.size());
    const std::int32_t a = farthest(top, tr, 0);
    std::vector<std::int32_t> starts;
    for (std::int32_t s : {a, farthest(top, tr, a), m / 3, (2 * m) / 3})
      if (std::find(starts.begin(), starts.end(), s) == starts.end()) starts.push_back(s);
    std::sort(starts.begin(), starts.end());
    std::int64_t best_cut = -1;
    double best_dev = 0.0;
    for (std::int32_t s : starts) {
      std::vector<std::uint8_t> cand = grow(top, tr, s, half);
      if (refine_top) refine(top, cand, bound, opt.refine_passes);
      std::int64_t w0 = 0;
      for (std::int64_t c = 0; c < top.size(); ++c)
        if (cand[c] == 0) w0 += top.weight[c];
      const std::int64_t cut = cut_vertices(top, cand);
      const double dev = std::abs(static_cast<double>(w0) - half);
      if (best_cut < 0 || cut < best_cut || (cut == best_cut && dev < best_dev)) {
        best_cut = cut;
        best_dev = dev;
        side = std::move(cand);
      }
    }
  }
  if (refine_top) ++st.refined;

  // Uncoarsen: project level by level; refinement skipped at the finest unrefined_levels levels.
  for (int l = L - 1; l >= 0; --l) {
    const std::vector<std::int32_t>& cmap = cmaps[l];
    std::vector<std::uint8_t> fine(cmap.size());
    for (std::size_t c = 0; c < cmap.size(); ++c) fine[c] = side[cmap[c]];
    side = std::move(fine);
    if (l >= opt.unrefined_levels) {
      refine(level(l), side, bound, opt.refine_passes);
      ++st.refined;
    }
  }
  if (stats) *stats = st;
  return side;
}

}  // namespace mdremap::remap::detail

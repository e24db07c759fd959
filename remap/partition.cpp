#include "mdremap/remap/impl/partition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "mdremap/error.hpp"

#include "bisection.hpp"

namespace mdremap::remap {

namespace {

// The work items of Algorithm 1: threads (all references of a thread together) or single
// references (edges, numbered thread-major: reference r = roff[t] + j).
struct WorkItems {
  const IrregularPattern& p;
  bool edges;
  std::vector<std::int64_t> roff;      // T+1 prefix sums of len
  std::vector<std::int64_t> edge_t;    // edges: thread of reference r
  std::vector<std::int64_t> edge_pos;  // edges: p.pos(j, t) of reference r

  WorkItems(const IrregularPattern& pat, bool by_edges) : p(pat), edges(by_edges) {
    const std::int64_t T = p.threads;
    roff.assign(T + 1, 0);
    for (std::int64_t t = 0; t < T; ++t) roff[t + 1] = roff[t] + p.len[t];
    if (!edges) return;
    edge_t.resize(roff[T]);
    edge_pos.resize(roff[T]);
    for (std::int64_t t = 0; t < T; ++t)
      for (int j = 0; j < p.len[t]; ++j) {
        edge_t[roff[t] + j] = t;
        edge_pos[roff[t] + j] = static_cast<std::int64_t>(p.pos(j, t));
      }
  }
  std::int64_t count() const { return edges ? roff.back() : p.threads; }
  std::int64_t weight(std::int64_t i) const { return edges ? 1 : p.len[i]; }
  // f(thread, element) for every reference of item i.
  template <class F>
  void for_each_ref(std::int64_t i, F&& f) const {
    if (edges) {
      f(edge_t[i], p.index[edge_pos[i]]);
      return;
    }
    for (int j = 0; j < p.len[i]; ++j) f(i, p.at(j, i));
  }
};

// Unique elements and threads of the items order[b, e); stamps dedupe without clearing. In
// threads granularity every thread of the range counts (it writes its output).
struct Footprint {
  std::int64_t elems = 0, threads = 0;
};
Footprint footprint(const WorkItems& w, const std::vector<std::int64_t>& order, std::int64_t b,
                    std::int64_t e, std::vector<std::int64_t>& estamp,
                    std::vector<std::int64_t>& tstamp, std::int64_t mark) {
  Footprint f;
  for (std::int64_t i = b; i < e; ++i)
    w.for_each_ref(order[i], [&](std::int64_t t, std::int32_t x) {
      if (estamp[x] != mark) {
        estamp[x] = mark;
        ++f.elems;
      }
      if (w.edges && tstamp[t] != mark) {
        tstamp[t] = mark;
        ++f.threads;
      }
    });
  if (!w.edges) f.threads = e - b;
  return f;
}

// k-d keys of the items: threads: coords (3-D) or (thread id, mean element); edges: (thread,
// element), the sparse-matrix point of seed 002 §4.1.
struct KdKeys {
  int dims = 2;
  std::vector<double> key;
  double operator()(std::int64_t i, int d) const { return key[dims * i + d]; }
};
KdKeys kd_keys(const WorkItems& w, const std::vector<float>& coords) {
  KdKeys k;
  const std::int64_t n = w.count();
  k.dims = coords.empty() ? 2 : 3;
  k.key.resize(static_cast<std::size_t>(k.dims) * n);
  for (std::int64_t i = 0; i < n; ++i) {
    if (!coords.empty()) {
      for (int d = 0; d < 3; ++d) k.key[3 * i + d] = coords[3 * i + d];
    } else if (w.edges) {
      k.key[2 * i] = static_cast<double>(w.edge_t[i]);
      k.key[2 * i + 1] = static_cast<double>(w.p.index[w.edge_pos[i]]);
    } else {
      double sum = 0.0;
      for (int j = 0; j < w.p.len[i]; ++j) sum += w.p.at(j, i);
      k.key[2 * i] = static_cast<double>(i);
      k.key[2 * i + 1] = w.p.len[i] > 0 ? sum / w.p.len[i] : 0.0;
    }
  }
  return k;
}

int widest_dim(const KdKeys& k, const std::vector<std::int64_t>& order, std::int64_t b,
               std::int64_t e) {
  int dim = 0;
  double widest = -1.0;
  for (int d = 0; d < k.dims; ++d) {
    double lo = k(order[b], d), hi = lo;
    for (std::int64_t i = b; i < e; ++i) {
      lo = std::min(lo, k(order[i], d));
      hi = std::max(hi, k(order[i], d));
    }
    if (hi - lo > widest) {
      widest = hi - lo;
      dim = d;
    }
  }
  return dim;
}

// k-d split at the count median (quickselect): order[b, mid) is the lower half. Returns mid.
std::int64_t kd_split(std::vector<std::int64_t>& order, std::int64_t b, std::int64_t e,
                      const KdKeys& k) {
  const int dim = widest_dim(k, order, b, e);
  const std::int64_t mid = b + (e - b) / 2;
  std::nth_element(order.begin() + b, order.begin() + mid, order.begin() + e,
                   [&](std::int64_t x, std::int64_t y) {
                     const double kx = k(x, dim), ky = k(y, dim);
                     return kx != ky ? kx < ky : x < y;
                   });
  return mid;
}

// k-d split at the weighted median (weighted quickselect over the widest coordinate): the
// lower part's weight is as close as possible to half of the range's. b < mid < e.
std::int64_t kd_split_weighted(std::vector<std::int64_t>& order, std::int64_t b, std::int64_t e,
                               const KdKeys& k, const WorkItems& w) {
  const int dim = widest_dim(k, order, b, e);
  auto less = [&](std::int64_t x, std::int64_t y) {
    const double kx = k(x, dim), ky = k(y, dim);
    return kx != ky ? kx < ky : x < y;
  };
  double total = 0.0;
  for (std::int64_t i = b; i < e; ++i) total += static_cast<double>(w.weight(order[i]));
  const double target = 0.5 * total;
  // Invariant: order[b, lo) < order[lo, hi) < order[hi, e); weight(b, lo) = acc < target.
  std::int64_t lo = b, hi = e, mid = -1;
  double acc = 0.0;
  while (hi - lo > 1) {
    // Median of three as pivot, moved to the end of the window.
    std::int64_t i0 = lo, i1 = lo + (hi - lo) / 2, i2 = hi - 1;
    if (less(order[i1], order[i0])) std::swap(i0, i1);
    if (less(order[i2], order[i1])) std::swap(i1, i2);
    if (less(order[i1], order[i0])) std::swap(i0, i1);
    std::swap(order[i1], order[hi - 1]);
    const std::int64_t pivot = order[hi - 1];
    const std::int64_t m = std::partition(order.begin() + lo, order.begin() + hi - 1,
                                          [&](std::int64_t x) { return less(x, pivot); }) -
                           order.begin();
    std::swap(order[m], order[hi - 1]);  // pivot at m: [lo, m) < pivot < (m, hi)
    double wl = 0.0;
    for (std::int64_t i = lo; i < m; ++i) wl += static_cast<double>(w.weight(order[i]));
    const double wp = static_cast<double>(w.weight(pivot));
    if (acc + wl >= target) {
      hi = m;
    } else if (acc + wl + wp >= target) {
      mid = std::abs(acc + wl - target) <= std::abs(acc + wl + wp - target) ? m : m + 1;
      break;
    } else {
      acc += wl + wp;
      lo = m + 1;
    }
  }
  if (mid < 0) {
    mid = lo;
    if (hi - lo == 1) {
      const double with = acc + static_cast<double>(w.weight(order[lo]));
      if (std::abs(with - target) < std::abs(acc - target)) mid = hi;
    }
  }
  return std::clamp(mid, b + 1, e - 1);
}

// Ordering-only tiling of order[b, e) down to tiles of <= tile threads, each sorted by old id.
void tile_order(std::vector<std::int64_t>& order, std::int64_t b, std::int64_t e, const KdKeys& k,
                std::int64_t tile) {
  if (tile <= 0 || e - b <= tile) {
    std::sort(order.begin() + b, order.begin() + e);
    return;
  }
  const std::int64_t mid = kd_split(order, b, e, k);
  tile_order(order, b, mid, k, tile);
  tile_order(order, mid, e, k, tile);
}

// seed 002 Algorithm 4 on the items order[b, e): their entity graph (vertices: the elements
// read, and in edges granularity also the threads), bisected; the sides are stably partitioned.
// Edges granularity starts from a coarsened graph (seed 002 §4.1: "the input graph is already a
// coarsened graph"): up to first_level_refs consecutive references of one thread form one
// entity (the range is in storage order: stable partitions keep it so).
std::int64_t coarsened_split(std::vector<std::int64_t>& order, std::int64_t b, std::int64_t e,
                             const WorkItems& w, const CoarsenedBisectionOptions& opt,
                             std::vector<std::int64_t>& vstamp, std::vector<std::int32_t>& vlocal,
                             std::int64_t mark, detail::BisectionStats* stats) {
  const std::int64_t T = w.p.threads;
  std::vector<std::int64_t> group{b};  // entity k = items [group[k], group[k+1])
  for (std::int64_t i = b + 1; i < e; ++i)
    if (!w.edges || i - group.back() >= opt.first_level_refs ||
        w.edge_t[order[i]] != w.edge_t[order[i - 1]])
      group.push_back(i);
  group.push_back(e);
  const std::int64_t n = static_cast<std::int64_t>(group.size()) - 1;
  detail::EntityGraph g;
  g.weight.assign(n, 0);
  g.off.assign(n + 1, 0);
  std::vector<std::int32_t> vs;
  for (std::int64_t k = 0; k < n; ++k) {
    vs.clear();
    for (std::int64_t i = group[k]; i < group[k + 1]; ++i) {
      w.for_each_ref(order[i], [&](std::int64_t t, std::int32_t x) {
        const std::int64_t ids[2] = {T + x, t};  // global vertex ids: threads, then elements
        for (int s = 0; s < (w.edges ? 2 : 1); ++s) {
          const std::int64_t v = ids[s];
          if (vstamp[v] != mark) {
            vstamp[v] = mark;
            vlocal[v] = static_cast<std::int32_t>(g.nvertices++);
          }
          vs.push_back(vlocal[v]);
        }
      });
      g.weight[k] += w.weight(order[i]);
    }
    std::sort(vs.begin(), vs.end());
    vs.erase(std::unique(vs.begin(), vs.end()), vs.end());
    g.vtx.insert(g.vtx.end(), vs.begin(), vs.end());
    g.off[k + 1] = static_cast<std::int64_t>(g.vtx.size());
  }
  const std::vector<std::uint8_t> side = detail::coarsened_bisection(g, opt, stats);
  // The side holding the range's first item goes first (keeps the given order where it can).
  const std::uint8_t first = side.empty() ? 0 : side[0];
  std::vector<std::int64_t> right;
  std::int64_t mid = b;
  for (std::int64_t k = 0; k < n; ++k)
    for (std::int64_t i = group[k]; i < group[k + 1]; ++i) {
      if (side[k] == first)
        order[mid++] = order[i];
      else
        right.push_back(order[i]);
    }
  std::copy(right.begin(), right.end(), order.begin() + mid);
  return mid;
}

// seed 002 Algorithm 5 over parts given by a visitor: parts(q, f) calls f(element) for every
// reference of part q in partition order.
template <class Parts>
DataPermutation data_remapping(std::int64_t D, std::int64_t nparts, const Parts& parts) {
  // Parts touching each element (counted once per part) -> boundary[e].
  std::vector<std::int64_t> last_part(D, -1);
  std::vector<std::int32_t> nparts_of(D, 0);
  for (std::int64_t q = 0; q < nparts; ++q)
    parts(q, [&](std::int32_t e) {
      if (last_part[e] != q) {
        last_part[e] = q;
        ++nparts_of[e];
      }
    });
  // Algorithm 5 lines 2-6: unique[p] = private (non-boundary) elements of p.
  std::vector<std::int64_t> unique(nparts, 0);
  for (std::int64_t e = 0; e < D; ++e)
    if (nparts_of[e] == 1) ++unique[last_part[e]];
  // Line 7: rank parts by unique[], smallest first ("prioritize the partition that has the
  // smallest amount of unique data").
  std::vector<std::int64_t> ranked(nparts);
  std::iota(ranked.begin(), ranked.end(), 0);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [&](std::int64_t a, std::int64_t b) { return unique[a] < unique[b]; });

  DataPermutation old_to_new(D, -1);
  std::int32_t next = 0;
  auto pass = [&](bool boundary) {  // lines 9-13 (private) and 15-19 (boundary)
    for (std::int64_t q : ranked)
      parts(q, [&](std::int32_t e) {
        if ((nparts_of[e] > 1) == boundary && old_to_new[e] < 0) old_to_new[e] = next++;
      });
  };
  pass(false);
  pass(true);
  for (std::int64_t e = 0; e < D; ++e)
    if (old_to_new[e] < 0) old_to_new[e] = next++;
  return old_to_new;
}

void check_partition_shape(const IrregularPattern& p, const CacheFitPartition& cp) {
  const std::int64_t n = cp.parts();
  bool ok = n >= 0 && cp.part_edge_begin.front() == 0 &&
            cp.part_edge_begin.back() == p.references() &&
            std::is_sorted(cp.part_edge_begin.begin(), cp.part_edge_begin.end());
  if (cp.granularity == PartitionGranularity::threads)
    ok = ok && static_cast<std::int64_t>(cp.thread_perm.size()) == p.threads &&
         static_cast<std::int64_t>(cp.part_begin.size()) == n + 1;
  else
    ok = ok && static_cast<std::int64_t>(cp.edge_pos.size()) == p.references() &&
         cp.edge_thread.size() == cp.edge_pos.size();
  if (!ok) throw Error("partition: the cache-fit partition was not made for this pattern");
}

}  // namespace

// seed 002 §4.2, Algorithm 5 (data remapping), parts as thread ranges.
DataPermutation remap_data_by_partition(const IrregularPattern& p,
                                        const std::vector<std::int64_t>& part_begin) {
  validate_pattern(p);
  const std::int64_t T = p.threads;
  const std::int64_t nparts = static_cast<std::int64_t>(part_begin.size()) - 1;
  if (nparts < 0 || part_begin.front() != 0 || part_begin.back() != T ||
      !std::is_sorted(part_begin.begin(), part_begin.end()))
    throw Error("remap_data_by_partition: part_begin must rise from 0 to threads");
  return data_remapping(p.data_count, nparts, [&](std::int64_t q, auto&& f) {
    for (std::int64_t t = part_begin[q]; t < part_begin[q + 1]; ++t)
      for (int j = 0; j < p.len[t]; ++j) f(p.at(j, t));
  });
}

DataPermutation remap_data_by_partition(const IrregularPattern& p, const CacheFitPartition& cp) {
  validate_pattern(p);
  check_partition_shape(p, cp);
  if (cp.granularity == PartitionGranularity::threads) {
    const IrregularPattern permuted = apply_thread_permutation(p, cp.thread_perm);
    return remap_data_by_partition(permuted, cp.part_begin);
  }
  return data_remapping(p.data_count, cp.parts(), [&](std::int64_t q, auto&& f) {
    for (std::int64_t k = cp.part_edge_begin[q]; k < cp.part_edge_begin[q + 1]; ++k)
      f(p.index[cp.edge_pos[k]]);
  });
}

// seed 002 §2.3, Algorithm 1 (DBWP) with k-d tiling or coarsened bisection (§4.1), then
// Algorithm 5 (§4.2).
CacheFitPartition partition_cache_fit(const IrregularPattern& p, const PartitionOptions& opt,
                                      const std::vector<float>& coords) {
  validate_pattern(p);
  const std::int64_t T = p.threads, D = p.data_count;
  const bool edges = opt.granularity == PartitionGranularity::edges;
  const bool kd = opt.bisector == Bisector::kd_tiling;
  const std::int64_t item_min = p.elem_bytes + (edges ? opt.out_bytes : 0);
  if (opt.out_bytes < 0)
    throw Error("partition: out_bytes must be >= 0, got " + std::to_string(opt.out_bytes));
  if (opt.cache_bytes < item_min)
    throw Error("partition: cache_bytes (" + std::to_string(opt.cache_bytes) +
                ") must hold at least one element of " + std::to_string(p.elem_bytes) + " bytes" +
                (edges && opt.out_bytes > 0 ? " and one output" : ""));
  if (!coords.empty() && (edges || !kd))
    throw Error("partition: coords are used by k-d tiling at thread granularity only");
  if (!coords.empty() && static_cast<std::int64_t>(coords.size()) != 3 * T)
    throw Error("partition: coords must hold 3 floats per thread (" + std::to_string(3 * T) +
                "), got " + std::to_string(coords.size()));
  const CoarsenedBisectionOptions& co = opt.coarsened;
  if (!kd && (co.max_levels < 0 || co.unrefined_levels < 0 || co.refine_passes < 0 ||
              !(co.imbalance >= 0.0 && co.imbalance < 1.0) || co.max_vertex_scan < 1 ||
              co.first_level_refs < 1))
    throw Error(
        "partition: coarsened bisection needs max_levels, unrefined_levels, "
        "refine_passes >= 0, imbalance in [0, 1), max_vertex_scan and first_level_refs "
        ">= 1");
  if (!kd && T + D > std::numeric_limits<std::int32_t>::max())
    throw Error("partition: coarsened bisection needs threads + data_count below 2^31");

  const WorkItems w(p, edges);
  const std::int64_t n = w.count();
  CacheFitPartition out;
  out.granularity = opt.granularity;
  out.capacity_bytes = opt.cache_bytes;
  out.capacity_elems = opt.cache_bytes / p.elem_bytes;
  KdKeys keys;
  if (kd) keys = kd_keys(w, coords);

  std::vector<std::int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::vector<std::int64_t> estamp(D, -1), tstamp(edges ? T : 0, -1), vstamp, fit_unique;
  std::vector<std::int32_t> vlocal;
  if (!kd) {
    vstamp.assign(T + D, -1);
    vlocal.assign(T + D, -1);
  }
  std::int64_t mark = 0;
  auto fits = [&](const Footprint& f) {
    return f.elems * p.elem_bytes + f.threads * opt.out_bytes <= opt.cache_bytes;
  };

  // seed 002 Algorithm 1, iterative; a node's item range [edge_begin, edge_end) is split by its
  // children (item ranges are rewritten to edge and thread ranges below).
  out.tree.push_back(PartitionNode{});
  out.tree[0].edge_end = n;
  std::vector<std::int32_t> todo{0};
  while (!todo.empty()) {
    const std::int32_t id = todo.back();
    todo.pop_back();
    const std::int64_t b = out.tree[id].edge_begin, e = out.tree[id].edge_end;
    const Footprint f = footprint(w, order, b, e, estamp, tstamp, mark++);
    out.tree[id].unique_elems = f.elems;
    out.tree[id].unique_threads = f.threads;
    if (fits(f)) continue;  // cache-fit leaf
    if (e - b == 1)
      throw Error("partition: thread " + std::to_string(edges ? w.edge_t[order[b]] : order[b]) +
                  " alone reads " + std::to_string(f.elems) + " elements (" +
                  std::to_string(f.elems * p.elem_bytes + f.threads * opt.out_bytes) +
                  " bytes) but the cache holds " + std::to_string(opt.cache_bytes) +
                  " bytes; raise the cache capacity");
    std::int64_t mid;
    if (kd) {
      mid = edges ? kd_split(order, b, e, keys) : kd_split_weighted(order, b, e, keys, w);
    } else {
      detail::BisectionStats st;
      mid = coarsened_split(order, b, e, w, co, vstamp, vlocal, mark++, &st);
      if (id == 0) {
        out.coarsen_levels = st.levels;
        out.refined_levels = st.refined;
      }
    }
    if (mid <= b || mid >= e)
      throw Error("partition: internal error, a bisection left one side empty");
    const auto left = static_cast<std::int32_t>(out.tree.size());
    PartitionNode l, r;
    l.edge_begin = b;
    l.edge_end = mid;
    r.edge_begin = mid;
    r.edge_end = e;
    l.depth = r.depth = out.tree[id].depth + 1;
    out.tree.push_back(l);
    out.tree.push_back(r);
    out.tree[id].left = left;
    out.tree[id].right = left + 1;
    todo.push_back(left + 1);
    todo.push_back(left);
  }

  // Leaves in range order are the parts; order inside each part.
  std::vector<std::int32_t> leaves;
  for (std::int32_t id = 0; id < static_cast<std::int32_t>(out.tree.size()); ++id)
    if (out.tree[id].leaf() && out.tree[id].edge_end > out.tree[id].edge_begin)
      leaves.push_back(id);
  std::sort(leaves.begin(), leaves.end(), [&](std::int32_t a, std::int32_t b) {
    return out.tree[a].edge_begin < out.tree[b].edge_begin;
  });
  std::vector<std::int32_t> leaf_part(out.tree.size(), -1);
  for (std::size_t q = 0; q < leaves.size(); ++q) {
    const PartitionNode& nd = out.tree[leaves[q]];
    leaf_part[leaves[q]] = static_cast<std::int32_t>(q);
    if (edges)  // storage order (thread, then j) inside a part: CSR rows per part
      std::sort(order.begin() + nd.edge_begin, order.begin() + nd.edge_end);
    else if (kd)
      tile_order(order, nd.edge_begin, nd.edge_end, keys, opt.tile_threads);
    out.part_unique.push_back(nd.unique_elems);
    out.part_threads.push_back(nd.unique_threads);
  }

  // Item ranges -> edge (and thread) ranges; part ranges per node (post-order: children first).
  std::vector<std::int64_t> edge_at(n + 1, 0);  // threads: edges before item position i
  if (!edges)
    for (std::int64_t i = 0; i < n; ++i) edge_at[i + 1] = edge_at[i] + p.len[order[i]];
  for (std::int32_t id = static_cast<std::int32_t>(out.tree.size()) - 1; id >= 0; --id) {
    PartitionNode& nd = out.tree[id];
    if (!edges) {
      nd.thread_begin = nd.edge_begin;
      nd.thread_end = nd.edge_end;
      nd.edge_begin = edge_at[nd.thread_begin];
      nd.edge_end = edge_at[nd.thread_end];
    }
    if (nd.leaf()) {
      nd.part_begin = std::max<std::int32_t>(leaf_part[id], 0);
      nd.part_end = leaf_part[id] < 0 ? nd.part_begin : leaf_part[id] + 1;
    } else {
      nd.part_begin = out.tree[nd.left].part_begin;
      nd.part_end = out.tree[nd.right].part_end;
    }
  }
  out.part_edge_begin.push_back(0);
  for (std::int32_t id : leaves) out.part_edge_begin.push_back(out.tree[id].edge_end);
  if (edges) {
    out.edge_pos.resize(n);
    out.edge_thread.resize(n);
    for (std::int64_t k = 0; k < n; ++k) {
      out.edge_pos[k] = w.edge_pos[order[k]];
      out.edge_thread[k] = w.edge_t[order[k]];
    }
  } else {
    out.part_begin.push_back(0);
    for (std::int32_t id : leaves) out.part_begin.push_back(out.tree[id].thread_end);
    out.thread_perm = std::move(order);
  }

  // Algorithm 5, then the replication cost (seed 002 eq. 2) over elements and threads.
  out.data_old_to_new = remap_data_by_partition(p, out);
  std::vector<std::int64_t> elast(D, -1), tlast(T, -1);
  std::vector<std::int32_t> eparts(D, 0), tparts(T, 0);
  auto visit = [&](std::int64_t q, std::int64_t t, std::int32_t x) {
    if (elast[x] != q) {
      elast[x] = q;
      ++eparts[x];
    }
    if (tlast[t] != q) {
      tlast[t] = q;
      ++tparts[t];
    }
  };
  for (std::int64_t q = 0; q < out.parts(); ++q) {
    if (edges) {
      for (std::int64_t k = out.part_edge_begin[q]; k < out.part_edge_begin[q + 1]; ++k)
        visit(q, out.edge_thread[k], p.index[out.edge_pos[k]]);
    } else {
      for (std::int64_t i = out.part_begin[q]; i < out.part_begin[q + 1]; ++i) {
        const std::int64_t t = out.thread_perm[i];
        for (int j = 0; j < p.len[t]; ++j) visit(q, t, p.at(j, t));
      }
    }
  }
  for (std::int64_t x = 0; x < D; ++x)
    if (eparts[x] > 1) {
      ++out.boundary_elems;
      out.replication += eparts[x] - 1;
    }
  for (std::int64_t t = 0; t < T; ++t)
    if (tparts[t] > 1) {
      ++out.boundary_threads;
      out.thread_replication += tparts[t] - 1;
    }
  return out;
}

}  // namespace mdremap::remap

#include "mdremap/remap/partition.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "mdremap/error.hpp"

namespace mdremap::remap {

namespace {

// Unique elements read by threads order[b, e); `stamp` dedupes without clearing.
std::int64_t count_unique(const IrregularPattern& p, const std::vector<std::int64_t>& order,
                          std::int64_t b, std::int64_t e, std::vector<std::int64_t>& stamp,
                          std::int64_t mark) {
  const std::int64_t T = p.threads;
  std::int64_t n = 0;
  for (std::int64_t i = b; i < e; ++i) {
    const std::int64_t t = order[i];
    for (int j = 0; j < p.len[t]; ++j) {
      const std::int32_t x = p.at(j, t);
      if (stamp[x] != mark) {
        stamp[x] = mark;
        ++n;
      }
    }
  }
  return n;
}

// k-d tiling bisection (seed 002 §4.1): quickselect the median of the widest coordinate, so
// order[b, mid) holds the lower half. Returns mid.
std::int64_t kd_split(std::vector<std::int64_t>& order, std::int64_t b, std::int64_t e,
                      const std::vector<double>& key, int dims) {
  int dim = 0;
  double widest = -1.0;
  for (int d = 0; d < dims; ++d) {
    double lo = key[dims * order[b] + d], hi = lo;
    for (std::int64_t i = b; i < e; ++i) {
      lo = std::min(lo, key[dims * order[i] + d]);
      hi = std::max(hi, key[dims * order[i] + d]);
    }
    if (hi - lo > widest) {
      widest = hi - lo;
      dim = d;
    }
  }
  const std::int64_t mid = b + (e - b) / 2;
  std::nth_element(order.begin() + b, order.begin() + mid, order.begin() + e,
                   [&](std::int64_t x, std::int64_t y) {
                     const double kx = key[dims * x + dim], ky = key[dims * y + dim];
                     return kx != ky ? kx < ky : x < y;
                   });
  return mid;
}

// Ordering-only tiling of order[b, e) down to tiles of <= tile threads, each sorted by old id.
void tile_order(std::vector<std::int64_t>& order, std::int64_t b, std::int64_t e,
                const std::vector<double>& key, int dims, std::int64_t tile) {
  if (tile <= 0 || e - b <= tile) {
    std::sort(order.begin() + b, order.begin() + e);
    return;
  }
  const std::int64_t mid = kd_split(order, b, e, key, dims);
  tile_order(order, b, mid, key, dims, tile);
  tile_order(order, mid, e, key, dims, tile);
}

}  // namespace

// seed 002 §4.2, Algorithm 5 (data remapping).
DataPermutation remap_data_by_partition(const IrregularPattern& p,
                                        const std::vector<std::int64_t>& part_begin) {
  validate_pattern(p);
  const std::int64_t T = p.threads;
  const std::int64_t D = p.data_count;
  const std::int64_t nparts = static_cast<std::int64_t>(part_begin.size()) - 1;
  if (nparts < 0 || part_begin.front() != 0 || part_begin.back() != T ||
      !std::is_sorted(part_begin.begin(), part_begin.end()))
    throw Error("remap_data_by_partition: part_begin must rise from 0 to threads");

  // Parts touching each element (counted once per part) -> boundary[e].
  std::vector<std::int64_t> last_part(D, -1);
  std::vector<std::int32_t> nparts_of(D, 0);
  for (std::int64_t q = 0; q < nparts; ++q)
    for (std::int64_t t = part_begin[q]; t < part_begin[q + 1]; ++t)
      for (int j = 0; j < p.len[t]; ++j) {
        const std::int32_t e = p.at(j, t);
        if (last_part[e] != q) {
          last_part[e] = q;
          ++nparts_of[e];
        }
      }
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
      for (std::int64_t t = part_begin[q]; t < part_begin[q + 1]; ++t)
        for (int j = 0; j < p.len[t]; ++j) {
          const std::int32_t e = p.at(j, t);
          if ((nparts_of[e] > 1) == boundary && old_to_new[e] < 0) old_to_new[e] = next++;
        }
  };
  pass(false);
  pass(true);
  for (std::int64_t e = 0; e < D; ++e)
    if (old_to_new[e] < 0) old_to_new[e] = next++;
  return old_to_new;
}

// seed 002 §2.3, Algorithm 1 (DBWP) with k-d tiling (§4.1), then Algorithm 5.
CacheFitPartition partition_cache_fit(const IrregularPattern& p, const PartitionOptions& opt,
                                      const std::vector<float>& coords) {
  validate_pattern(p);
  const std::int64_t T = p.threads;
  if (opt.cache_bytes < p.elem_bytes)
    throw Error("partition: cache_bytes (" + std::to_string(opt.cache_bytes) +
                ") must hold at least one element of " + std::to_string(p.elem_bytes) + " bytes");
  if (!coords.empty() && static_cast<std::int64_t>(coords.size()) != 3 * T)
    throw Error("partition: coords must hold 3 floats per thread (" + std::to_string(3 * T) +
                "), got " + std::to_string(coords.size()));

  CacheFitPartition out;
  out.capacity_elems = opt.cache_bytes / p.elem_bytes;
  const std::int64_t cap = out.capacity_elems;

  // k-d tiling keys: given coordinates, or the sparse-matrix point (thread id, mean element).
  const int dims = coords.empty() ? 2 : 3;
  std::vector<double> key(static_cast<std::size_t>(dims) * T);
  for (std::int64_t t = 0; t < T; ++t) {
    if (!coords.empty()) {
      for (int d = 0; d < 3; ++d) key[3 * t + d] = coords[3 * t + d];
      continue;
    }
    double sum = 0.0;
    for (int j = 0; j < p.len[t]; ++j) sum += p.at(j, t);
    key[2 * t] = static_cast<double>(t);
    key[2 * t + 1] = p.len[t] > 0 ? sum / p.len[t] : 0.0;
  }

  std::vector<std::int64_t> order(T);
  std::iota(order.begin(), order.end(), 0);
  std::vector<std::int64_t> stamp(p.data_count, -1);
  std::int64_t mark = 0;

  // seed 002 Algorithm 1 (DBWP), iterative; children are sub-ranges of their parent's range.
  out.tree.push_back({0, T, -1, -1, 0});
  std::vector<std::int32_t> todo{0};
  while (!todo.empty()) {
    const std::int32_t id = todo.back();
    todo.pop_back();
    const std::int64_t b = out.tree[id].begin, e = out.tree[id].end;
    const std::int64_t u = count_unique(p, order, b, e, stamp, mark++);
    out.tree[id].unique = u;
    if (u <= cap) continue;  // cache-fit leaf
    if (e - b == 1)
      throw Error("partition: thread " + std::to_string(order[b]) + " alone reads " +
                  std::to_string(u) + " elements (" + std::to_string(u * p.elem_bytes) +
                  " bytes) but the cache holds " + std::to_string(opt.cache_bytes) +
                  " bytes; raise the cache capacity");
    const std::int64_t mid = kd_split(order, b, e, key, dims);
    const std::int32_t left = static_cast<std::int32_t>(out.tree.size());
    out.tree.push_back({b, mid, -1, -1, 0});
    out.tree.push_back({mid, e, -1, -1, 0});
    out.tree[id].left = left;
    out.tree[id].right = left + 1;
    todo.push_back(left + 1);
    todo.push_back(left);
  }

  // Leaves in range order are the parts; inside each, tiling continues for ordering only.
  std::vector<std::int32_t> leaves;
  for (std::int32_t id = 0; id < static_cast<std::int32_t>(out.tree.size()); ++id)
    if (out.tree[id].left < 0) leaves.push_back(id);
  std::sort(leaves.begin(), leaves.end(),
            [&](std::int32_t a, std::int32_t b) { return out.tree[a].begin < out.tree[b].begin; });
  out.part_begin.push_back(0);
  for (std::int32_t id : leaves) {
    const auto& n = out.tree[id];
    if (n.end == n.begin) continue;  // only for T == 0
    tile_order(order, n.begin, n.end, key, dims, opt.tile_threads);
    out.part_begin.push_back(n.end);
    out.part_unique.push_back(n.unique);
  }
  out.thread_perm = order;

  // Algorithm 5 on the permuted pattern, then replication cost (eq. 2).
  const IrregularPattern permuted = apply_thread_permutation(p, out.thread_perm);
  out.data_old_to_new = remap_data_by_partition(permuted, out.part_begin);
  const std::int64_t sum_unique =
      std::accumulate(out.part_unique.begin(), out.part_unique.end(), std::int64_t{0});
  std::int64_t referenced = 0;
  std::vector<std::int32_t> parts_of(p.data_count, 0);
  std::vector<std::int64_t> last(p.data_count, -1);
  for (std::int64_t q = 0; q < out.parts(); ++q)
    for (std::int64_t t = out.part_begin[q]; t < out.part_begin[q + 1]; ++t)
      for (int j = 0; j < permuted.len[t]; ++j) {
        const std::int32_t x = permuted.at(j, t);
        if (last[x] != q) {
          last[x] = q;
          if (parts_of[x]++ == 0) ++referenced;
        }
      }
  for (std::int64_t x = 0; x < p.data_count; ++x)
    if (parts_of[x] > 1) ++out.boundary_elems;
  out.replication = sum_unique - referenced;
  return out;
}

}  // namespace mdremap::remap

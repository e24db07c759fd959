#include "mdremap/remap/impl/padding.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

#include "mdremap/error.hpp"

namespace mdremap::remap {

namespace {

// seed 001 §3.3.2 step 1: rank[e] = position of element e when data are sorted by access frequency
// (descending); ties keep the order of first access (thread-major), which keeps Fig. 4's order.
std::vector<std::int32_t> frequency_rank(const IrregularPattern& p) {
  const std::int64_t T = p.threads;
  std::vector<std::int64_t> freq(p.data_count, 0);
  std::vector<std::int64_t> first(p.data_count, std::numeric_limits<std::int64_t>::max());
  std::int64_t order = 0;
  for (std::int64_t t = 0; t < T; ++t)
    for (int j = 0; j < p.len[t]; ++j) {
      const std::int32_t e = p.at(j, t);
      if (freq[e]++ == 0) first[e] = order;
      ++order;
    }
  std::vector<std::int32_t> elems(p.data_count);
  std::iota(elems.begin(), elems.end(), 0);
  std::sort(elems.begin(), elems.end(), [&](std::int32_t a, std::int32_t b) {
    if (freq[a] != freq[b]) return freq[a] > freq[b];
    return first[a] < first[b];
  });
  std::vector<std::int32_t> rank(p.data_count);
  for (std::size_t i = 0; i < elems.size(); ++i) rank[elems[i]] = static_cast<std::int32_t>(i);
  return rank;
}

// seed 001 §3.3.2 step 2: all threads accessing X precede those accessing Y if X precedes Y.
ThreadPermutation regroup(const IrregularPattern& p, const std::vector<std::int32_t>& rank) {
  const std::int64_t T = p.threads;
  ThreadPermutation perm(T);
  std::iota(perm.begin(), perm.end(), 0);
  constexpr std::int64_t kInactive = std::numeric_limits<std::int64_t>::max();
  auto key = [&](std::int64_t t, int j) -> std::int64_t {
    return j < p.len[t] ? rank[p.at(j, t)] : kInactive;
  };
  std::stable_sort(perm.begin(), perm.end(), [&](std::int64_t a, std::int64_t b) {
    for (int j = 0; j < p.rows; ++j) {
      const std::int64_t ka = key(a, j), kb = key(b, j);
      if (ka != kb) return ka < kb;
      if (ka == kInactive) return false;
    }
    return false;
  });
  return perm;
}

}  // namespace

// seed 001 §3.3.2, Fig. 3.
PaddingPlan make_padding_plan(const IrregularPattern& p, const PaddingOptions& opt) {
  validate_pattern(p);
  if (opt.warp_size <= 0 || opt.segment_bytes <= 0 || opt.segment_bytes % p.elem_bytes != 0)
    throw Error("padding: segment_bytes (" + std::to_string(opt.segment_bytes) +
                ") must be a positive multiple of elem_bytes (" + std::to_string(p.elem_bytes) +
                ") and warp_size (" + std::to_string(opt.warp_size) + ") positive");
  const std::int64_t T = p.threads;
  const std::int64_t z = opt.segment_bytes / p.elem_bytes;
  const std::vector<std::int32_t> rank = frequency_rank(p);

  PaddingPlan plan;
  plan.segment_elems = z;
  if (opt.regroup_threads) {
    plan.thread_perm = regroup(p, rank);
  } else {
    plan.thread_perm.resize(T);
    std::iota(plan.thread_perm.begin(), plan.thread_perm.end(), 0);
  }
  const ThreadPermutation& perm = plan.thread_perm;
  // Q is laid out like the thread-permuted pattern (rows-by-threads: j*T + nt; CSR: the permuted
  // offsets), so that padded_pattern() reads it through pos().
  std::vector<std::int64_t> qoff;
  if (p.csr()) {
    qoff.assign(T + 1, 0);
    for (std::int64_t nt = 0; nt < T; ++nt) qoff[nt + 1] = qoff[nt] + p.len[perm[nt]];
  }
  auto qpos = [&](int j, std::int64_t nt) {
    return p.csr() ? static_cast<std::size_t>(qoff[nt] + j)
                   : static_cast<std::size_t>(j) * T + static_cast<std::size_t>(nt);
  };
  plan.q.assign(p.index.size(), -1);

  // seed 001 §3.3.2 step 3, Fig. 3: greedy packing into segments.
  std::vector<std::int32_t>& out = plan.newdata_src;
  std::vector<std::int64_t> slot_of(p.data_count, -1);  // latest slot holding element e
  std::vector<std::int64_t> seen(p.data_count, -1);     // dedupe stamp per warp-load
  std::vector<std::int32_t> uniq;
  std::int64_t seg_begin = 0;  // first slot of the current segment
  std::int64_t unit = 0;
  auto resident = [&](std::int32_t e) { return slot_of[e] >= seg_begin; };
  auto pad_to_next_segment = [&] {
    if (static_cast<std::int64_t>(out.size()) > seg_begin) {
      plan.holes += seg_begin + z - static_cast<std::int64_t>(out.size());
      out.resize(seg_begin + z, -1);
      seg_begin += z;
    }
  };
  auto place = [&](std::int32_t e) {
    if (slot_of[e] >= 0) ++plan.duplicates;
    slot_of[e] = static_cast<std::int64_t>(out.size());
    out.push_back(e);
  };

  for (std::int64_t w0 = 0; w0 < T; w0 += opt.warp_size) {
    const std::int64_t w1 = std::min(T, w0 + opt.warp_size);
    int warp_rows = 0;  // the warp's longest len: one long CSR row must not cost every warp
    for (std::int64_t nt = w0; nt < w1; ++nt) warp_rows = std::max(warp_rows, p.len[perm[nt]]);
    for (int j = 0; j < warp_rows; ++j, ++unit) {
      uniq.clear();
      for (std::int64_t nt = w0; nt < w1; ++nt) {
        const std::int64_t t = perm[nt];
        if (j >= p.len[t]) continue;
        const std::int32_t e = p.at(j, t);
        if (seen[e] != unit) {
          seen[e] = unit;
          uniq.push_back(e);
        }
      }
      if (uniq.empty()) continue;
      // "Starting from the first data element in the new order": place in frequency order.
      std::sort(uniq.begin(), uniq.end(),
                [&](std::int32_t a, std::int32_t b) { return rank[a] < rank[b]; });
      const std::int64_t u = static_cast<std::int64_t>(uniq.size());
      if (u <= z) {
        std::int64_t need = u;
        if (opt.reuse_resident)
          need =
              std::count_if(uniq.begin(), uniq.end(), [&](std::int32_t e) { return !resident(e); });
        const std::int64_t free_slots = seg_begin + z - static_cast<std::int64_t>(out.size());
        if (need > free_slots) pad_to_next_segment();
        for (std::int32_t e : uniq)
          if (!resident(e)) place(e);
      } else {
        // The set spans several segments: start it on a boundary so it covers ceil(u/z), the
        // minimum; its last partial segment stays current for the next warp-load.
        pad_to_next_segment();
        const std::int64_t start = static_cast<std::int64_t>(out.size());
        for (std::int32_t e : uniq) place(e);
        seg_begin = start + (u / z) * z;
      }
      for (std::int64_t nt = w0; nt < w1; ++nt) {
        const std::int64_t t = perm[nt];
        if (j >= p.len[t]) continue;
        plan.q[qpos(j, nt)] = static_cast<std::int32_t>(slot_of[p.at(j, t)]);
      }
    }
  }
  if (out.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    throw Error("padding: padded array exceeds 2^31 slots; use dup or sharing");
  plan.extra_bytes = (static_cast<std::int64_t>(out.size()) - p.data_count) * p.elem_bytes;
  return plan;
}

IrregularPattern padded_pattern(const IrregularPattern& p, const PaddingPlan& plan) {
  IrregularPattern q = apply_thread_permutation(p, plan.thread_perm);
  q.index = plan.q;
  q.data_count = static_cast<std::int64_t>(plan.newdata_src.size());
  return q;
}

}  // namespace mdremap::remap

#include "mdremap/remap/impl/sharing.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

#include "mdremap/error.hpp"
#include "mdremap/remap/pattern_ops.hpp"

#include "omp.hpp"

namespace mdremap::remap {

namespace {

// Distinct elements referenced by threads [t0, t1), sorted ascending; `stamp` (size data_count)
// with a fresh `mark` dedupes without clearing.
void unique_set(const IrregularPattern& p, std::int64_t t0, std::int64_t t1,
                std::vector<std::int64_t>& stamp, std::int64_t mark,
                std::vector<std::int32_t>& set) {
  set.clear();
  for (std::int64_t t = t0; t < t1; ++t)
    for (int j = 0; j < p.len[t]; ++j) {
      const std::int32_t e = p.at(j, t);
      if (stamp[e] != mark) {
        stamp[e] = mark;
        set.push_back(e);
      }
    }
  std::sort(set.begin(), set.end());
}

std::int64_t capacity_of(const SharingOptions& opt) {
  if (opt.block_threads <= 0 || opt.capacity_elems < 0 || opt.align_elems <= 0)
    throw Error("sharing: block_threads and align_elems must be > 0, capacity_elems >= 0");
  return opt.capacity_elems > 0 ? opt.capacity_elems : std::numeric_limits<std::int64_t>::max();
}

Error alone_over_capacity(std::int64_t t, std::int64_t n, std::int64_t cap) {
  return Error("sharing: thread " + std::to_string(t) + " alone references " + std::to_string(n) +
               " elements but a block can stage only " + std::to_string(cap) +
               "; give the block more shared memory or use dup");
}

void finish_sizes(const IrregularPattern& p, SharingPlan& plan) {
  if (plan.packed_src.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    throw Error("sharing: packed array exceeds 2^31 slots; use larger blocks or dup");
  plan.packed_elems = static_cast<std::int64_t>(plan.packed_src.size());
  plan.dup_elems = p.threads * p.rows;
  plan.extra_bytes_vs_dup = (plan.packed_elems - plan.dup_elems) * p.elem_bytes;
  plan.extra_bytes_vs_data = (plan.packed_elems - p.data_count) * p.elem_bytes;
}

std::int64_t aligned(std::int64_t n, std::int64_t align) {
  return (n + align - 1) / align * align;
}

// One block's sub-blocks (depth-first halving, so in thread order) and their sorted sets, laid
// end to end: what the parallel planner's first pass finds per block.
struct BlockLeaves {
  std::vector<std::int64_t> end;   // sub-block k runs threads [end[k-1] (or block start), end[k])
  std::vector<std::int32_t> size;  // its set size
  std::vector<std::int32_t> sets;  // the sets, concatenated
  std::int64_t splits = 0;
  std::int64_t failed_thread = -1;  // a thread alone over capacity (then the rest is not planned)
  std::int64_t failed_size = 0;
};

void plan_block(const IrregularPattern& p, std::int64_t b0, std::int64_t b1, std::int64_t cap,
                std::vector<std::int64_t>& stamp, std::int64_t& mark,
                std::vector<std::int32_t>& set, BlockLeaves& out) {
  std::vector<std::pair<std::int64_t, std::int64_t>> stack{{b0, b1}};
  while (!stack.empty()) {
    const auto [t0, t1] = stack.back();
    stack.pop_back();
    unique_set(p, t0, t1, stamp, mark++, set);
    if (static_cast<std::int64_t>(set.size()) <= cap) {
      out.end.push_back(t1);
      out.size.push_back(static_cast<std::int32_t>(set.size()));
      out.sets.insert(out.sets.end(), set.begin(), set.end());
      continue;
    }
    if (t1 - t0 == 1) {
      out.failed_thread = t0;
      out.failed_size = static_cast<std::int64_t>(set.size());
      return;
    }
    const std::int64_t mid = t0 + (t1 - t0) / 2;
    ++out.splits;
    stack.emplace_back(mid, t1);  // right half popped second
    stack.emplace_back(t0, mid);
  }
}

}  // namespace

// seed 001 §3.4, Fig. 5 (second step); splitting per §3.4 "Notes". The reference: one pass, block
// after block (make_sharing_plan must give exactly this plan).
SharingPlan make_sharing_plan_serial(const IrregularPattern& p, const SharingOptions& opt) {
  validate_pattern(p);
  const std::int64_t cap = capacity_of(opt);
  const std::int64_t T = p.threads;

  SharingPlan plan;
  plan.local.assign(p.index.size(), -1);
  plan.block_begin.push_back(0);
  plan.block_pos.push_back(0);
  std::vector<std::int64_t> stamp(p.data_count, -1);
  std::int64_t mark = 0;
  std::vector<std::int32_t> set;
  std::vector<std::int64_t> pos_in_set(p.data_count, -1);

  // Emits block [t0, t1): its set goes to packed_src, its threads get local indices.
  auto emit = [&](std::int64_t t0, std::int64_t t1) {
    const std::int64_t base = plan.block_pos.back();
    for (std::size_t k = 0; k < set.size(); ++k) {
      pos_in_set[set[k]] = static_cast<std::int64_t>(k);
      plan.packed_src.push_back(set[k]);
    }
    for (std::int64_t t = t0; t < t1; ++t)
      for (int j = 0; j < p.len[t]; ++j) {
        const std::size_t at = p.pos(j, t);
        plan.local[at] = static_cast<std::int32_t>(pos_in_set[p.index[at]]);
      }
    // seed 001 Fig. 5: "pad dummy values to outputArray for memory segment alignment".
    const std::int64_t end = aligned(base + static_cast<std::int64_t>(set.size()), opt.align_elems);
    plan.packed_src.resize(end, -1);
    plan.block_sizes.push_back(static_cast<std::int32_t>(set.size()));
    plan.max_block_set = std::max<std::int64_t>(plan.max_block_set, set.size());
    plan.block_begin.push_back(t1);
    plan.block_pos.push_back(end);
  };

  // Depth-first halving keeps sub-blocks in thread order.
  std::vector<std::pair<std::int64_t, std::int64_t>> stack;
  for (std::int64_t b0 = 0; b0 < T; b0 += opt.block_threads) {
    stack.emplace_back(b0, std::min(T, b0 + opt.block_threads));
    while (!stack.empty()) {
      const auto [t0, t1] = stack.back();
      stack.pop_back();
      unique_set(p, t0, t1, stamp, mark++, set);
      if (static_cast<std::int64_t>(set.size()) <= cap) {
        emit(t0, t1);
        continue;
      }
      if (t1 - t0 == 1) throw alone_over_capacity(t0, static_cast<std::int64_t>(set.size()), cap);
      const std::int64_t mid = t0 + (t1 - t0) / 2;
      ++plan.splits;
      stack.emplace_back(mid, t1);  // right half popped second
      stack.emplace_back(t0, mid);
    }
  }
  finish_sizes(p, plan);
  return plan;
}

// The same plan in two parallel passes over independent blocks: pass 1 finds each block's
// sub-blocks and sets, a prefix sum places them, pass 2 writes packed_src and the local indices.
SharingPlan make_sharing_plan(const IrregularPattern& p, const SharingOptions& opt) {
  validate_pattern(p);
  const std::int64_t cap = capacity_of(opt);
  const std::int64_t T = p.threads;
  const std::int64_t B = opt.block_threads;
  const std::int64_t nblocks = (T + B - 1) / B;

  std::vector<BlockLeaves> blocks(nblocks);
  MDREMAP_OMP(omp parallel) {
    std::vector<std::int64_t> stamp(p.data_count, -1);
    std::vector<std::int32_t> set;
    std::int64_t mark = 0;
    MDREMAP_OMP(omp for schedule(dynamic, 8))
    for (std::int64_t b = 0; b < nblocks; ++b)
      plan_block(p, b * B, std::min(T, (b + 1) * B), cap, stamp, mark, set, blocks[b]);
  }
  // The first failure in thread order, as the serial planner reports it.
  for (const BlockLeaves& bl : blocks)
    if (bl.failed_thread >= 0) throw alone_over_capacity(bl.failed_thread, bl.failed_size, cap);

  std::vector<std::int64_t> leaf_base(nblocks + 1, 0), pos_base(nblocks + 1, 0);
  SharingPlan plan;
  for (std::int64_t b = 0; b < nblocks; ++b) {
    const BlockLeaves& bl = blocks[b];
    std::int64_t slots = 0;
    for (std::int32_t u : bl.size) {
      slots += aligned(u, opt.align_elems);
      plan.max_block_set = std::max<std::int64_t>(plan.max_block_set, u);
    }
    leaf_base[b + 1] = leaf_base[b] + static_cast<std::int64_t>(bl.size.size());
    pos_base[b + 1] = pos_base[b] + slots;
    plan.splits += bl.splits;
  }
  const std::int64_t L = leaf_base[nblocks];
  plan.block_begin.assign(L + 1, 0);
  plan.block_pos.assign(L + 1, 0);
  plan.block_sizes.assign(L, 0);
  plan.packed_src.assign(pos_base[nblocks], -1);
  plan.local.assign(p.index.size(), -1);

  MDREMAP_OMP(omp parallel) {
    std::vector<std::int32_t> pos_in_set(p.data_count, -1);
    MDREMAP_OMP(omp for schedule(dynamic, 8))
    for (std::int64_t b = 0; b < nblocks; ++b) {
      BlockLeaves& bl = blocks[b];
      std::int64_t t0 = b * B, pos = pos_base[b], from = 0;
      for (std::size_t k = 0; k < bl.size.size(); ++k) {
        const std::int32_t u = bl.size[k];
        for (std::int32_t i = 0; i < u; ++i) {
          const std::int32_t e = bl.sets[from + i];
          plan.packed_src[pos + i] = e;
          pos_in_set[e] = i;
        }
        for (std::int64_t t = t0; t < bl.end[k]; ++t)
          for (int j = 0; j < p.len[t]; ++j) {
            const std::size_t at = p.pos(j, t);
            plan.local[at] = pos_in_set[p.index[at]];
          }
        const std::int64_t leaf = leaf_base[b] + static_cast<std::int64_t>(k);
        pos += aligned(u, opt.align_elems);
        plan.block_sizes[leaf] = u;
        plan.block_begin[leaf + 1] = bl.end[k];
        plan.block_pos[leaf + 1] = pos;
        from += u;
        t0 = bl.end[k];
      }
      bl = BlockLeaves{};  // release the sets as soon as they are placed
    }
  }
  finish_sizes(p, plan);
  return plan;
}

TransactionCount count_sharing_transactions(const SharingPlan& plan, int elem_bytes,
                                            int warp_size) {
  TransactionCount c;
  for (std::int64_t b = 0; b < plan.blocks(); ++b)
    c += count_contiguous_transactions(plan.block_pos[b], plan.block_sizes[b], elem_bytes,
                                       warp_size);
  return c;
}

std::vector<std::int64_t> block_working_sets(const IrregularPattern& p,
                                             std::int64_t block_threads) {
  validate_pattern(p);
  if (block_threads <= 0) throw Error("block_working_sets: block_threads must be > 0");
  const std::int64_t T = p.threads;
  const std::int64_t nblocks = (T + block_threads - 1) / block_threads;
  std::vector<std::int64_t> sizes(nblocks, 0);
  MDREMAP_OMP(omp parallel) {
    std::vector<std::int64_t> stamp(p.data_count, -1);
    MDREMAP_OMP(omp for schedule(dynamic, 16))
    for (std::int64_t b = 0; b < nblocks; ++b) {
      std::int64_t n = 0;
      for (std::int64_t t = b * block_threads; t < std::min(T, (b + 1) * block_threads); ++t)
        for (int j = 0; j < p.len[t]; ++j) {
          const std::int32_t e = p.at(j, t);
          if (stamp[e] != b) {
            stamp[e] = b;
            ++n;
          }
        }
      sizes[b] = n;
    }
  }
  return sizes;
}

double mean_block_working_set(const IrregularPattern& p, std::int64_t block_threads) {
  const std::vector<std::int64_t> sizes = block_working_sets(p, block_threads);
  if (sizes.empty()) return 0.0;
  return static_cast<double>(std::accumulate(sizes.begin(), sizes.end(), std::int64_t{0})) /
         static_cast<double>(sizes.size());
}

}  // namespace mdremap::remap

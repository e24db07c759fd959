#include "mdremap/remap/transaction_breakdown.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "mdremap/error.hpp"
#include "mdremap/remap/pattern_ops.hpp"

#include "segment_count.hpp"

namespace mdremap::remap {

namespace {

using detail::ConsecutiveWarps;

// Warps given by their lane ranges (sharing: warps inside each block).
struct ListedWarps {
  const std::vector<std::pair<std::int64_t, std::int64_t>>* list;
  std::int64_t count() const { return static_cast<std::int64_t>(list->size()); }
  void operator()(std::int64_t w, std::int64_t& t0, std::int64_t& t1) const {
    t0 = (*list)[w].first;
    t1 = (*list)[w].second;
  }
};

void check_model(const IrregularPattern& p, const TransactionModel& m) {
  if (m.warp_size <= 0 || m.index_bytes <= 0 || m.length_bytes <= 0 || m.weight_bytes < 0)
    throw Error(
        "transaction breakdown: warp_size, index_bytes, length_bytes must be > 0 and "
        "weight_bytes >= 0");
  validate_pattern(p);
}

// Loads j in [r0, r1) of each warp (up to its longest len), lanes with j < len[t]; lane t reads
// the `bytes`-byte element addr(j, t).
template <class Warps, class Addr>
TransactionCount rows_count(const IrregularPattern& p, const Warps& warps, int max_lanes, int r0,
                            int r1, std::int64_t bytes, Addr addr) {
  const std::int32_t* len = p.len.data();
  return detail::count_warp_loads_32_128(
      warps.count(), max_lanes, bytes, warps,
      [len, r0, r1](std::int64_t t0, std::int64_t t1) {
        int m = 0;
        for (std::int64_t t = t0; t < t1; ++t) m = std::max(m, len[t]);
        return std::max(0, std::min(m, r1) - r0);
      },
      [len, r0](int j, std::int64_t t) { return j + r0 < len[t]; },
      [addr, r0](int j, std::int64_t t) { return addr(j + r0, t); });
}

// The loop bounds: len[t] (one load) or offset[t], offset[t+1] (two loads), every lane.
template <class Warps>
TransactionCount lengths_count(const Warps& warps, int max_lanes, bool offsets,
                               std::int64_t bytes) {
  return detail::count_warp_loads_32_128(
      warps.count(), max_lanes, bytes, warps,
      [offsets](std::int64_t, std::int64_t) { return offsets ? 2 : 1; },
      [](int, std::int64_t) { return true; },
      [](int j, std::int64_t t) { return t + j; });  // load 1 of CSR reads offset[t + 1]
}

// index / weights / data of rows [r0, r1) gathered through P.
template <class Warps>
void add_gathered_rows(const IrregularPattern& p, const TransactionModel& m, const Warps& warps,
                       int max_lanes, int r0, int r1, TransactionBreakdown& out) {
  auto at_pos = [&p](int j, std::int64_t t) { return static_cast<std::int64_t>(p.pos(j, t)); };
  out.index += rows_count(p, warps, max_lanes, r0, r1, m.index_bytes, at_pos);
  if (m.weight_bytes > 0)
    out.weights += rows_count(p, warps, max_lanes, r0, r1, m.weight_bytes, at_pos);
  out.data += rows_count(p, warps, max_lanes, r0, r1, p.elem_bytes,
                         [&p](int j, std::int64_t t) { return p.at(j, t); });
}

}  // namespace

TransactionBreakdown count_breakdown_gather(const IrregularPattern& p, const TransactionModel& m) {
  check_model(p, m);
  const ConsecutiveWarps warps{p.threads, m.warp_size};
  TransactionBreakdown out;
  out.lengths = lengths_count(warps, m.warp_size, p.csr(), m.length_bytes);
  add_gathered_rows(p, m, warps, m.warp_size, 0, p.rows, out);
  return out;
}

TransactionBreakdown count_breakdown_duplicated(const IrregularPattern& p,
                                                const TransactionModel& m, int dup_rows,
                                                const std::vector<std::int64_t>& chunk_begin) {
  check_model(p, m);
  const std::int64_t T = p.threads;
  if (dup_rows < 0 || dup_rows > p.rows) dup_rows = p.rows;
  std::vector<std::int64_t> chunks = chunk_begin;
  if (chunks.empty()) chunks = {0, T};
  if (chunks.front() != 0 || chunks.back() != T || !std::is_sorted(chunks.begin(), chunks.end()))
    throw Error("transaction breakdown (dup): chunk_begin must rise from 0 to threads = " +
                std::to_string(T));
  // A' address of (j, t): chunk base t0 * dup_rows, then rows-by-threads of the chunk's width.
  std::vector<std::int64_t> base(T), width(T);
  for (std::size_t c = 0; c + 1 < chunks.size(); ++c)
    for (std::int64_t t = chunks[c]; t < chunks[c + 1]; ++t) {
      base[t] = chunks[c] * dup_rows - chunks[c];
      width[t] = chunks[c + 1] - chunks[c];
    }
  auto dup_addr = [&](int j, std::int64_t t) { return base[t] + j * width[t] + t; };

  const ConsecutiveWarps warps{T, m.warp_size};
  TransactionBreakdown out;
  // A fully duplicated kernel needs only len[t]; gathered rows need the pattern's bounds.
  out.lengths = lengths_count(warps, m.warp_size, p.csr() && dup_rows < p.rows, m.length_bytes);
  out.data = rows_count(p, warps, m.warp_size, 0, dup_rows, p.elem_bytes, dup_addr);
  if (m.weight_bytes > 0)
    out.weights = rows_count(p, warps, m.warp_size, 0, dup_rows, m.weight_bytes, dup_addr);
  if (dup_rows < p.rows) add_gathered_rows(p, m, warps, m.warp_size, dup_rows, p.rows, out);
  return out;
}

TransactionBreakdown count_breakdown_sharing(const IrregularPattern& p, const SharingPlan& plan,
                                             const TransactionModel& m) {
  check_model(p, m);
  const std::int64_t nb = plan.blocks();
  if (static_cast<std::int64_t>(plan.block_begin.size()) != nb + 1 ||
      plan.block_begin.front() != 0 || plan.block_begin.back() != p.threads ||
      plan.local.size() != p.index.size())
    throw Error("transaction breakdown (sharing): the plan was not made for this pattern");
  std::vector<std::pair<std::int64_t, std::int64_t>> list;
  for (std::int64_t b = 0; b < nb; ++b)
    for (std::int64_t t = plan.block_begin[b]; t < plan.block_begin[b + 1]; t += m.warp_size)
      list.emplace_back(t, std::min(plan.block_begin[b + 1], t + m.warp_size));
  const ListedWarps warps{&list};
  auto at_pos = [&p](int j, std::int64_t t) { return static_cast<std::int64_t>(p.pos(j, t)); };

  TransactionBreakdown out;
  out.data = count_sharing_transactions(plan, p.elem_bytes, m.warp_size);
  out.lengths = lengths_count(warps, m.warp_size, p.csr(), m.length_bytes);
  // blockPos[b] and blockSizes[b]: every warp of the block loads them (one segment each).
  const std::int64_t nwarps = static_cast<std::int64_t>(list.size());
  out.lengths.loads += 2 * nwarps;
  out.lengths.seg32 += 2 * nwarps;
  out.lengths.seg128 += 2 * nwarps;
  out.index = rows_count(p, warps, m.warp_size, 0, p.rows, m.index_bytes, at_pos);
  if (m.weight_bytes > 0)
    out.weights = rows_count(p, warps, m.warp_size, 0, p.rows, m.weight_bytes, at_pos);
  return out;
}

TransactionBreakdown count_breakdown_padded(const IrregularPattern& p, const PaddingPlan& plan,
                                            const TransactionModel& m) {
  check_model(p, m);
  return count_breakdown_gather(padded_pattern(p, plan), m);
}

}  // namespace mdremap::remap

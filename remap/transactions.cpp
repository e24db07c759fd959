#include "mdremap/remap/transactions.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "mdremap/error.hpp"

#include "segment_count.hpp"

namespace mdremap::remap {

namespace {

using detail::AnySegment;
using detail::ConsecutiveWarps;
using detail::Pow2Segment;

void check_args(const IrregularPattern& p, int segment_bytes, int warp_size) {
  if (segment_bytes <= 0 || warp_size <= 0 || p.elem_bytes <= 0)
    throw Error("transaction count: segment_bytes (" + std::to_string(segment_bytes) +
                "), warp_size (" + std::to_string(warp_size) + ") and elem_bytes (" +
                std::to_string(p.elem_bytes) + ") must all be > 0");
  if (static_cast<std::int64_t>(p.len.size()) != p.threads ||
      (!p.csr() && static_cast<std::int64_t>(p.index.size()) != p.threads * p.rows) ||
      (p.csr() && static_cast<std::int64_t>(p.offset.size()) != p.threads + 1))
    throw Error("transaction count: pattern has len/index sizes inconsistent with threads/rows");
}

// seed 001 §2.1 / seed 000 §3.1: transactions = distinct segments per warp-load; warps of W
// consecutive threads, load j of a warp for j < the longest len in it, lanes with j < len[t].
template <class Addr, class Seg>
TransactionCount count_core(const IrregularPattern& p, int warp_size, std::int64_t small, Seg seg,
                            int ratio_shift, Addr addr) {
  const std::int32_t* len = p.len.data();
  const ConsecutiveWarps warps{p.threads, warp_size};
  return detail::count_warp_loads(
      warps.count(), warp_size, p.elem_bytes, small, seg, ratio_shift, warps,
      [len](std::int64_t t0, std::int64_t t1) {
        int m = 0;
        for (std::int64_t t = t0; t < t1; ++t) m = std::max(m, len[t]);
        return m;
      },
      [len](int j, std::int64_t t) { return j < len[t]; }, addr);
}

template <class Addr>
std::int64_t count_any(const IrregularPattern& p, int segment_bytes, int warp_size, Addr addr) {
  if ((segment_bytes & (segment_bytes - 1)) == 0) {
    int shift = 0;
    while ((1 << shift) < segment_bytes) ++shift;
    return count_core(p, warp_size, segment_bytes, Pow2Segment{shift}, 0, addr).seg32;
  }
  return count_core(p, warp_size, segment_bytes, AnySegment{segment_bytes}, 0, addr).seg32;
}

struct GatherAddr {
  const IrregularPattern& p;
  std::int64_t operator()(int j, std::int64_t t) const { return p.at(j, t); }
};
struct DuplicatedAddr {
  std::int64_t T;
  std::int64_t operator()(int j, std::int64_t t) const { return j * T + t; }
};

}  // namespace

TransactionCount count_transactions(const IrregularPattern& p, int warp_size) {
  check_args(p, 32, warp_size);
  return count_core(p, warp_size, 32, Pow2Segment{5}, 2, GatherAddr{p});
}

std::int64_t count_segments(const IrregularPattern& p, int segment_bytes, int warp_size) {
  check_args(p, segment_bytes, warp_size);
  return count_any(p, segment_bytes, warp_size, GatherAddr{p});
}

TransactionCount count_transactions_duplicated(const IrregularPattern& p, int warp_size) {
  check_args(p, 32, warp_size);
  return count_core(p, warp_size, 32, Pow2Segment{5}, 2, DuplicatedAddr{p.threads});
}

std::int64_t count_segments_duplicated(const IrregularPattern& p, int segment_bytes,
                                       int warp_size) {
  check_args(p, segment_bytes, warp_size);
  return count_any(p, segment_bytes, warp_size, DuplicatedAddr{p.threads});
}

TransactionCount count_contiguous_transactions(std::int64_t first, std::int64_t count,
                                               int elem_bytes, int warp_size) {
  if (elem_bytes <= 0 || warp_size <= 0 || first < 0 || count < 0)
    throw Error("contiguous transaction count: need elem_bytes, warp_size > 0, first, count >= 0");
  TransactionCount c;
  for (std::int64_t i = 0; i < count; i += warp_size) {
    const std::int64_t lanes = std::min<std::int64_t>(warp_size, count - i);
    const std::int64_t b0 = (first + i) * elem_bytes;          // first byte of the warp-load
    const std::int64_t b1 = (first + i + lanes) * elem_bytes;  // one past its last byte
    ++c.loads;
    c.seg32 += (b1 - 1) / 32 - b0 / 32 + 1;
    c.seg128 += (b1 - 1) / 128 - b0 / 128 + 1;
  }
  return c;
}

}  // namespace mdremap::remap

#include "mdremap/remap/transactions.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "mdremap/error.hpp"

#include "omp.hpp"

namespace mdremap::remap {

namespace {

// Set of segment ids for one warp-load, cleared in O(1) by bumping a generation stamp; sized so
// the load factor stays <= 1/2 for the worst case (every lane touching its maximum of segments).
class SegmentSet {
 public:
  explicit SegmentSet(std::int64_t max_entries) {
    int bits = 4;
    while ((std::int64_t{1} << bits) < 2 * max_entries) ++bits;
    shift_ = 64 - bits;
    mask_ = (std::size_t{1} << bits) - 1;
    slots_.assign(mask_ + 1, Slot{});
  }
  void clear() { ++gen_; }  // a 64-bit generation never wraps in practice
  // True if s was not yet in the set.
  bool insert(std::int64_t s) {
    std::size_t h = (static_cast<std::uint64_t>(s) * 0x9E3779B97F4A7C15ull) >> shift_;
    for (;;) {
      Slot& slot = slots_[h];
      if (slot.gen != gen_) {
        slot.gen = gen_;
        slot.key = s;
        return true;
      }
      if (slot.key == s) return false;
      h = (h + 1) & mask_;
    }
  }

 private:
  struct Slot {
    std::int64_t key = 0;
    std::uint64_t gen = 0;
  };
  int shift_ = 60;
  std::size_t mask_ = 15;
  std::uint64_t gen_ = 0;
  std::vector<Slot> slots_;
};

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

// Segment id of a byte address: a shift when the segment size is a power of two (the hot case:
// 32 and 128), else a division.
struct Pow2Segment {
  int shift;
  std::int64_t operator()(std::int64_t byte) const { return byte >> shift; }
};
struct AnySegment {
  std::int64_t size;
  std::int64_t operator()(std::int64_t byte) const { return byte / size; }
};

// seed 001 §2.1 / seed 000 §3.1: transactions = distinct segments per warp-load.
// Counts, for every warp-load, distinct segments of size `small` and (if ratio > 0) of size
// ratio*small, where a big segment id is small id / ratio. `addr(j, t)` is the element read.
template <class Addr, class Seg>
TransactionCount count_core(const IrregularPattern& p, int warp_size, std::int64_t small, Seg seg,
                            int ratio_shift, Addr addr) {
  const std::int64_t T = p.threads;
  const std::int64_t E = p.elem_bytes;
  const std::int64_t nwarps = (T + warp_size - 1) / warp_size;
  const std::int64_t per_elem = (E + small - 1) / small + 1;  // max small segments per element
  const bool big = ratio_shift > 0;
  const std::int32_t* len = p.len.data();
  std::int64_t loads = 0, n_small = 0, n_big = 0;

  MDREMAP_OMP(omp parallel reduction(+ : loads, n_small, n_big)) {
    SegmentSet set_small(warp_size * per_elem);
    SegmentSet set_big(big ? warp_size * per_elem : 1);
    MDREMAP_OMP(omp for schedule(dynamic, 256))
    for (std::int64_t w = 0; w < nwarps; ++w) {
      const std::int64_t t0 = w * warp_size;
      const std::int64_t t1 = std::min(T, t0 + warp_size);
      int max_len = 0;
      for (std::int64_t t = t0; t < t1; ++t) max_len = std::max(max_len, len[t]);
      for (int j = 0; j < max_len; ++j) {
        set_small.clear();
        if (big) set_big.clear();
        std::int64_t last_lo = -1, last_hi = -1;  // skip runs of lanes with equal ranges
        for (std::int64_t t = t0; t < t1; ++t) {
          if (j >= len[t]) continue;
          const std::int64_t byte = addr(j, t) * E;
          const std::int64_t lo = seg(byte);
          const std::int64_t hi = seg(byte + E - 1);
          if (lo == last_lo && hi == last_hi) continue;
          last_lo = lo;
          last_hi = hi;
          for (std::int64_t s = lo; s <= hi; ++s) {
            if (!set_small.insert(s)) continue;
            ++n_small;
            if (big && set_big.insert(s >> ratio_shift)) ++n_big;
          }
        }
        ++loads;  // max_len > j guarantees at least one active lane
      }
    }
  }
  TransactionCount c;
  c.loads = loads;
  c.seg32 = n_small;
  c.seg128 = n_big;
  return c;
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

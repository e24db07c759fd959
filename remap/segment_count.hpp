#pragma once
// The counting engine behind every transaction model of the remap layer (seed 001 §2.1, seed 000
// §3.1): for each warp-load, the number of distinct S-byte segments its active lanes touch. The
// caller says what a warp is (its lanes), how many loads it issues, which lanes are active at a
// load, and which element each lane reads; this file only counts. Internal to mdremap_remap.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "mdremap/remap/transactions.hpp"
#include "omp.hpp"

namespace mdremap::remap::detail {

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

// Warps of `warp_size` consecutive threads of [0, threads).
struct ConsecutiveWarps {
  std::int64_t threads;
  int warp_size;
  std::int64_t count() const { return (threads + warp_size - 1) / warp_size; }
  void operator()(std::int64_t w, std::int64_t& t0, std::int64_t& t1) const {
    t0 = w * warp_size;
    t1 = std::min(threads, t0 + warp_size);
  }
};

// Counts, for every warp w in [0, nwarps) (lanes [t0, t1) from warps(w, t0, t1)) and every load
// j < loads(t0, t1), the distinct segments of size `small` and (if ratio_shift > 0) of size
// small << ratio_shift touched by the lanes t with active(j, t), lane t reading the elem_bytes
// bytes of element addr(j, t). A load with no active lane is not counted. max_lanes bounds
// t1 - t0.
template <class Seg, class Warps, class Loads, class Active, class Addr>
TransactionCount count_warp_loads(std::int64_t nwarps, int max_lanes, std::int64_t elem_bytes,
                                  std::int64_t small, Seg seg, int ratio_shift, Warps warps,
                                  Loads loads_of, Active active, Addr addr) {
  const std::int64_t E = elem_bytes;
  const std::int64_t per_elem = (E + small - 1) / small + 1;  // max small segments per element
  const bool big = ratio_shift > 0;
  std::int64_t loads = 0, n_small = 0, n_big = 0;

  // Small counts run serially: a parallel region costs more than it saves.
  MDREMAP_OMP(omp parallel reduction(+ : loads, n_small, n_big) if (nwarps >= 1024)) {
    SegmentSet set_small(max_lanes * per_elem);
    SegmentSet set_big(big ? max_lanes * per_elem : 1);
    MDREMAP_OMP(omp for schedule(dynamic, 256))
    for (std::int64_t w = 0; w < nwarps; ++w) {
      std::int64_t t0 = 0, t1 = 0;
      warps(w, t0, t1);
      const int nloads = loads_of(t0, t1);
      for (int j = 0; j < nloads; ++j) {
        set_small.clear();
        if (big) set_big.clear();
        bool any = false;
        std::int64_t last_lo = -1, last_hi = -1;  // skip runs of lanes with equal ranges
        for (std::int64_t t = t0; t < t1; ++t) {
          if (!active(j, t)) continue;
          any = true;
          const std::int64_t byte = static_cast<std::int64_t>(addr(j, t)) * E;
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
        if (any) ++loads;
      }
    }
  }
  TransactionCount c;
  c.loads = loads;
  c.seg32 = n_small;
  c.seg128 = n_big;
  return c;
}

// 32- and 128-byte segments at once.
template <class Warps, class Loads, class Active, class Addr>
TransactionCount count_warp_loads_32_128(std::int64_t nwarps, int max_lanes,
                                         std::int64_t elem_bytes, Warps warps, Loads loads_of,
                                         Active active, Addr addr) {
  return count_warp_loads(nwarps, max_lanes, elem_bytes, 32, Pow2Segment{5}, 2, warps, loads_of,
                          active, addr);
}

}  // namespace mdremap::remap::detail

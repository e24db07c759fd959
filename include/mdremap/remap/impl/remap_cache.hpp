#pragma once
// The remap cache (seed 000 §5.2): one line per reordered data chunk, recording the start address
// of the original data (addr_old), the start of its reordered copy (addr_new) and a valid bit.
// Before a chunk is remapped the cache is looked up by addr_old; a valid hit returns addr_new and
// the remap kernel is skipped. When the original data change (MD positions every step) the lines
// are invalidated and the next lookup misses, so the chunk is remapped in place (same addr_new).
#include <cstdint>
#include <vector>

namespace mdremap::remap {

class RemapCache {
 public:
  struct Line {
    const void* addr_old = nullptr;  // original data chunk (data pointer + chunk id as the key)
    std::int64_t chunk = -1;
    void* addr_new = nullptr;  // reordered copy of the chunk
    bool valid = false;
  };

  // Returns addr_new on a valid hit (counted), nullptr on a miss (counted).
  void* lookup(const void* addr_old, std::int64_t chunk) {
    for (const Line& l : lines_)
      if (l.addr_old == addr_old && l.chunk == chunk && l.valid) {
        ++hits_;
        return l.addr_new;
      }
    ++misses_;
    return nullptr;
  }
  // After the remap kernel of a missed chunk: insert, or refresh the existing line (valid = 1).
  void insert(const void* addr_old, std::int64_t chunk, void* addr_new) {
    for (Line& l : lines_)
      if (l.chunk == chunk && l.addr_new == addr_new) {
        l.addr_old = addr_old;
        l.valid = true;
        return;
      }
    lines_.push_back(Line{addr_old, chunk, addr_new, true});
  }
  // The original data changed: every line's valid bit drops to 0 (seed 000 §5.2).
  void invalidate_all() {
    for (Line& l : lines_)
      if (l.valid) {
        l.valid = false;
        ++invalidations_;
      }
  }
  // A new plan (new index arrays) makes every reordered copy meaningless.
  void clear() { lines_.clear(); }

  std::int64_t hits() const { return hits_; }
  std::int64_t misses() const { return misses_; }
  std::int64_t invalidations() const { return invalidations_; }
  const std::vector<Line>& lines() const { return lines_; }

 private:
  std::vector<Line> lines_;
  std::int64_t hits_ = 0, misses_ = 0, invalidations_ = 0;
};

}  // namespace mdremap::remap

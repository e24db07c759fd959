// Compiled as a Kokkos source (CUDA on CUDA builds): the device planner's kernels.
#include "mdremap/remap/impl/sharing_device_plan.hpp"

#include <Kokkos_NestedSort.hpp>
#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "mdremap/error.hpp"

namespace mdremap::remap {

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using Team = Kokkos::TeamPolicy<Exec>;
using Member = Team::member_type;
using Range = Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>;
using ScratchInts =
    Kokkos::View<int*, Exec::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
constexpr bool kHostBackend = std::is_same_v<Exec, Kokkos::DefaultHostExecutionSpace>;
constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();

// The summary pass 1 leaves on the device, read back in one copy: totals, the first failing
// thread, then one counter per launch class.
enum : int { kLeaves, kPacked, kRefs, kSplits, kMaxSet, kFailThread, kBadThread, kHead = 8 };
constexpr int kTeamClasses = 32, kScratchClasses = 40, kMinScratchLog2 = 10;
constexpr int kClasses = kTeamClasses * kScratchClasses;
enum : int { kResolved = 0, kUndecided = 1, kFailed = 2 };

// Launch class of a sub-block of nt threads staging u elements: its team size rounded up to the
// granule (a warp), its staged bytes rounded up to the next scratch boundary (powers of two from
// 1 KB, the portable team limit, the capacity).
struct ClassRule {
  int granule = 0, elem_bytes = 16, nbound = 1;
  Kokkos::Array<std::int64_t, kScratchClasses> bound{};
  KOKKOS_INLINE_FUNCTION int operator()(const int nt, const int u) const {
    int team = 0;
    if (granule > 0) {
      team = (nt + granule - 1) / granule;
      team = (team > kTeamClasses ? kTeamClasses : team) - 1;
    }
    const std::int64_t bytes = static_cast<std::int64_t>(u) * elem_bytes;
    int s = 0;
    while (s + 1 < nbound && bound[s] < bytes) ++s;
    return team * kScratchClasses + s;
  }
};

ClassRule make_rule(const SharingDevicePlanOptions& o, std::int64_t cap) {
  ClassRule r;
  r.granule = o.team_granule;
  r.elem_bytes = o.elem_bytes;
  const std::int64_t top = cap * o.elem_bytes;
  const std::int64_t brk = o.scratch_break > 0 && o.scratch_break < top ? o.scratch_break : 0;
  std::vector<std::int64_t> b;
  for (std::int64_t x = std::int64_t{1} << kMinScratchLog2; x < top; x *= 2) {
    if (brk > 0 && x > brk && (b.empty() || b.back() < brk)) b.push_back(brk);
    b.push_back(x);
  }
  if (brk > 0 && (b.empty() || b.back() < brk)) b.push_back(brk);
  b.push_back(top);
  // More boundaries than classes: keep the largest ones (small sets share the smallest class).
  if (b.size() > static_cast<std::size_t>(kScratchClasses))
    b.erase(b.begin(), b.end() - kScratchClasses);
  r.nbound = static_cast<int>(b.size());
  for (int k = 0; k < r.nbound; ++k) r.bound[k] = b[k];
  return r;
}

// The pattern as the host copy sees it: entry j < count(t) of thread t, len clipped to rows.
struct Refs {
  Kokkos::View<const int*> index, len;
  Kokkos::View<const std::int64_t*> start;
  std::int64_t stride_j = 0, stride_t = 1, data_count = 0;
  int rows = 0;
  bool offsets = false;
  KOKKOS_INLINE_FUNCTION int count(const std::int64_t t) const {
    const int l = len(t);
    return l < rows ? l : rows;
  }
  KOKKOS_INLINE_FUNCTION int at(const int j, const std::int64_t t) const {
    return offsets ? index(start(t) + j) : index(j * stride_j + t * stride_t);
  }
};

KOKKOS_INLINE_FUNCTION std::int64_t round_up(const std::int64_t n, const std::int64_t a) {
  return (n + a - 1) / a * a;
}

// Hash-set slots for n elements: a power of two with the load at most 3/4.
KOKKOS_INLINE_FUNCTION std::int64_t slots_for(const std::int64_t n) {
  std::int64_t s = 16;
  while (s < n + n / 3 + 1) s *= 2;
  return s;
}
KOKKOS_INLINE_FUNCTION int log2_of(std::int64_t s) {
  int l = 0;
  while (s > 1) {
    s >>= 1;
    ++l;
  }
  return l;
}

// Inserts e into the open-addressing set (empty = -1, linear probing); true if e was new.
KOKKOS_INLINE_FUNCTION bool hash_insert(int* set, const unsigned mask, const int shift,
                                        const int e) {
  unsigned h = (static_cast<unsigned>(e) * 2654435761u) >> shift;
  while (true) {
    const int cur = Kokkos::atomic_load(&set[h]);
    if (cur == e) return false;
    if (cur == -1) {
      const int prev = Kokkos::atomic_compare_exchange(&set[h], -1, e);
      if (prev == -1) return true;
      if (prev == e) return false;
    }
    h = (h + 1) & mask;
  }
}

// Pass 1: per block, its sub-blocks (depth-first halving) and their set sizes, at slots
// b * B + k of leaf_end (end thread, relative to the block) and leaf_size.
struct CountPass {
  Refs r;
  std::int64_t threads = 0, cap = 0, limit = 0;
  int bt = 1, align = 1, slots = 16, level = 0;
  bool undecided_only = false;
  Kokkos::View<int*> leaf_end, leaf_size, nleaves, status;
  Kokkos::View<std::int64_t*> splits, used, summary;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
    const std::int64_t b = m.league_rank();
    if (undecided_only && status(b) != kUndecided) return;
    const std::int64_t base = b * bt;
    const int nb = static_cast<int>(threads - base < bt ? threads - base : bt);
    int* set = static_cast<int*>(m.team_scratch(level).get_shmem(sizeof(int) * (slots + 2)));
    int* cnt = set + slots;  // [0] distinct elements inserted, [1] over the limit
    const int shift = 32 - log2_of(slots);
    // Pending ranges, depth-first (the right half waits under the left): depth <= log2(B) + 1.
    int lo[40], hi[40], top = 1;
    lo[0] = 0;
    hi[0] = nb;
    int leaves = 0, st = kResolved;
    std::int64_t nsplit = 0, slots_used = 0;
    while (top > 0) {
      --top;
      const int a = lo[top], c = hi[top];
      m.team_barrier();  // every thread has read the previous range's counters
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, slots), [&](const int s) { set[s] = -1; });
      Kokkos::single(Kokkos::PerTeam(m), [&]() {
        cnt[0] = 0;
        cnt[1] = 0;
      });
      m.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, c - a), [&](const int i) {
        const std::int64_t t = base + a + i;
        const int l = r.count(t);
        for (int j = 0; j < l; ++j) {
          if (Kokkos::atomic_load(&cnt[1]) != 0) return;
          const int e = r.at(j, t);
          if (e < 0 || e >= r.data_count) {
            Kokkos::atomic_min(&summary(kBadThread), t);
            Kokkos::atomic_store(&cnt[1], 1);
            return;
          }
          if (hash_insert(set, static_cast<unsigned>(slots - 1), shift, e) &&
              Kokkos::atomic_fetch_add(&cnt[0], 1) + 1 > limit)
            Kokkos::atomic_store(&cnt[1], 1);
        }
      });
      m.team_barrier();
      const int u = cnt[0];
      if (cnt[1] == 0) {
        Kokkos::single(Kokkos::PerTeam(m), [&]() {
          leaf_end(base + leaves) = c;
          leaf_size(base + leaves) = u;
        });
        ++leaves;
        slots_used += round_up(u, align);
        continue;
      }
      if (limit < cap) {  // over this round's limit, not necessarily over capacity
        st = kUndecided;
        break;
      }
      if (c - a == 1) {
        st = kFailed;
        Kokkos::single(Kokkos::PerTeam(m),
                       [&]() { Kokkos::atomic_min(&summary(kFailThread), base + a); });
        break;
      }
      const int mid = a + (c - a) / 2;
      ++nsplit;
      lo[top] = mid;
      hi[top] = c;
      lo[top + 1] = a;
      hi[top + 1] = mid;
      top += 2;
    }
    Kokkos::single(Kokkos::PerTeam(m), [&]() {
      nleaves(b) = leaves;
      status(b) = st;
      splits(b) = nsplit;
      used(b) = slots_used;
    });
  }
};

// Pass 2: per block, each sub-block's set rebuilt, sorted, packed; every reference's local index.
struct FillPass {
  Refs r;
  std::int64_t threads = 0;
  int bt = 1, align = 1, slots = 16, max_set = 0, level = 0;
  ClassRule rule;
  Kokkos::View<const int*> leaf_end, leaf_size, nleaves;
  Kokkos::View<const std::int64_t*> leaf_base, pos_base, local_start;
  Kokkos::View<std::int64_t*> block_begin, block_pos;
  Kokkos::View<int*> block_sizes, leaf_class, packed_src, local;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
    const std::int64_t b = m.league_rank();
    const std::int64_t base = b * bt;
    int* set =
        static_cast<int*>(m.team_scratch(level).get_shmem(sizeof(int) * (slots + max_set + 1)));
    int* sorted = set + slots;
    int* cnt = sorted + max_set;
    std::int64_t pos = pos_base(b);
    const std::int64_t first = leaf_base(b);
    int a = 0;
    for (int k = 0; k < nleaves(b); ++k) {
      const int c = leaf_end(base + k), u = leaf_size(base + k);
      const std::int64_t leaf = first + k;
      const int s_leaf = static_cast<int>(slots_for(u));
      const int shift = 32 - log2_of(s_leaf);
      m.team_barrier();  // the previous sub-block is done with the scratch
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, s_leaf), [&](const int s) { set[s] = -1; });
      Kokkos::single(Kokkos::PerTeam(m), [&]() { cnt[0] = 0; });
      m.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, c - a), [&](const int i) {
        const std::int64_t t = base + a + i;
        for (int j = 0; j < r.count(t); ++j)
          hash_insert(set, static_cast<unsigned>(s_leaf - 1), shift, r.at(j, t));
      });
      m.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, s_leaf), [&](const int s) {
        if (set[s] == -1) return;
        const int q = Kokkos::atomic_fetch_add(&cnt[0], 1);
        if (q < max_set) sorted[q] = set[s];
      });
      m.team_barrier();
      Kokkos::Experimental::sort_team(m, ScratchInts(sorted, u));  // barriers included
      const std::int64_t slots_leaf = round_up(u, align);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, slots_leaf), [&](const std::int64_t q) {
        packed_src(pos + q) = q < u ? sorted[q] : -1;
      });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, c - a), [&](const int i) {
        const std::int64_t t = base + a + i;
        const int l = r.count(t);
        // Branch-free lower bound (e is in the set, u >= 1 where a thread has references):
        // no mispredictions on a CPU, no divergence within a warp.
        auto find = [&](const int e) {
          const int* p = sorted;
          int n = u;
          while (n > 1) {
            const int half = n / 2;
            p = p[half] < e ? p + half : p;
            n -= half;
          }
          return static_cast<int>(p - sorted) + (*p < e);
        };
        if (r.offsets) {
          for (int j = 0; j < l; ++j) local(local_start(t) + j) = find(r.at(j, t));
        } else {
          for (int j = 0; j < r.rows; ++j) local(j * threads + t) = j < l ? find(r.at(j, t)) : -1;
        }
      });
      Kokkos::single(Kokkos::PerTeam(m), [&]() {
        if (leaf == 0) {
          block_begin(0) = 0;
          block_pos(0) = 0;
        }
        block_begin(leaf + 1) = base + c;
        block_pos(leaf + 1) = pos + slots_leaf;
        block_sizes(leaf) = u;
        leaf_class(leaf) = rule(c - a, u);
      });
      pos += slots_leaf;
      a = c;
    }
  }
};

template <class V>
void ensure(V& v, const char* label, std::int64_t n) {
  if (static_cast<std::int64_t>(v.extent(0)) < n)
    v = V(Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing), n + n / 8);
}
template <class V>
auto head(const V& v, std::int64_t n) {
  return Kokkos::subview(v, std::make_pair(std::int64_t{0}, n));
}

// One thread per block on host backends (blocks spread over the cores, no contention); four
// warps per block on a GPU.
int planner_team(int granule) {
  return kHostBackend ? 1 : (granule > 0 ? 4 * granule : 128);
}
Team team_policy(const Exec& exec, std::int64_t league, int granule) {
  return Team(exec, league, planner_team(granule));
}

}  // namespace

struct SharingDevicePlanner::Work {
  Kokkos::View<int*> leaf_end, leaf_size, nleaves, status;
  Kokkos::View<std::int64_t*> splits, used, leaf_base, pos_base, summary, local_start;
  Kokkos::View<std::int64_t*> block_begin, block_pos;
  Kokkos::View<int*> block_sizes, leaf_class, order, packed_src, local;
};

SharingDevicePlanner::SharingDevicePlanner() : w_(std::make_unique<Work>()) {}
SharingDevicePlanner::~SharingDevicePlanner() = default;
SharingDevicePlanner::SharingDevicePlanner(SharingDevicePlanner&&) noexcept = default;
SharingDevicePlanner& SharingDevicePlanner::operator=(SharingDevicePlanner&&) noexcept = default;

std::int64_t SharingDevicePlanner::bytes() const {
  const Work& w = *w_;
  return static_cast<std::int64_t>(
      w.leaf_end.span() * 4 + w.leaf_size.span() * 4 + w.nleaves.span() * 4 + w.status.span() * 4 +
      w.splits.span() * 8 + w.used.span() * 8 + w.leaf_base.span() * 8 + w.pos_base.span() * 8 +
      w.summary.span() * 8 + w.local_start.span() * 8 + w.block_begin.span() * 8 +
      w.block_pos.span() * 8 + w.block_sizes.span() * 4 + w.leaf_class.span() * 4 +
      w.order.span() * 4 + w.packed_src.span() * 4 + w.local.span() * 4);
}

DeviceSharingPlan SharingDevicePlanner::plan(const PatternView& pv,
                                             const SharingDevicePlanOptions& o) {
  return plan(pv, o, Exec());
}

DeviceSharingPlan SharingDevicePlanner::plan(const PatternView& pv,
                                             const SharingDevicePlanOptions& o,
                                             const Kokkos::DefaultExecutionSpace& exec) {
  const SharingOptions& so = o.sharing;
  if (so.block_threads <= 0 || so.capacity_elems < 0 || so.align_elems <= 0 || o.elem_bytes <= 0)
    throw Error("sharing: block_threads, align_elems and elem_bytes must be > 0, capacity >= 0");
  if (pv.threads < 0 || pv.rows < 0 || pv.data_count < 0 ||
      static_cast<std::int64_t>(pv.len.extent(0)) < pv.threads ||
      (pv.layout == PatternLayout::Offsets &&
       static_cast<std::int64_t>(pv.start.extent(0)) < pv.threads))
    throw Error("sharing: the pattern's len (and start) must hold one entry per thread");
  Work& w = *w_;
  DeviceSharingPlan d;
  d.layout = pv.layout;
  d.threads = pv.threads;
  d.rows = pv.rows;
  d.data_count = pv.data_count;
  d.elem_bytes = o.elem_bytes;
  d.dup_elems = pv.threads * pv.rows;
  const std::int64_t T = pv.threads;
  const int B = so.block_threads;
  const std::int64_t nblocks = (T + B - 1) / B;
  // No block's set can exceed its references or the data: capacity beyond that is no limit.
  const std::int64_t most =
      std::max<std::int64_t>(1, std::min<std::int64_t>(pv.data_count, std::int64_t{B} * pv.rows));
  const std::int64_t cap =
      so.capacity_elems > 0 ? std::min<std::int64_t>(so.capacity_elems, most) : most;
  const ClassRule rule = make_rule(o, cap);

  Refs r;
  r.index = pv.index;
  r.len = pv.len;
  r.start = pv.start;
  r.stride_j = pv.stride_j;
  r.stride_t = pv.stride_t;
  r.data_count = pv.data_count;
  r.rows = pv.rows;
  r.offsets = pv.layout == PatternLayout::Offsets;

  ensure(w.summary, "Remap::sharing_plan_summary", kHead + kClasses);
  ensure(w.leaf_end, "Remap::sharing_plan_leaf_end", T);
  ensure(w.leaf_size, "Remap::sharing_plan_leaf_size", T);
  ensure(w.nleaves, "Remap::sharing_plan_nleaves", nblocks);
  ensure(w.status, "Remap::sharing_plan_status", nblocks);
  ensure(w.splits, "Remap::sharing_plan_splits", nblocks);
  ensure(w.used, "Remap::sharing_plan_used", nblocks);
  ensure(w.leaf_base, "Remap::sharing_plan_leaf_base", nblocks);
  ensure(w.pos_base, "Remap::sharing_plan_pos_base", nblocks);
  auto summary = w.summary;
  // Device-side initialisations are kernels (or deep copies on the execution space): they do
  // not wait for the device, only the summary's read-back below does.
  Kokkos::parallel_for(
      "Remap::sharing_plan_init", Range(exec, 0, kHead + kClasses),
      KOKKOS_LAMBDA(const std::int64_t k) {
        summary(k) = k == kFailThread || k == kBadThread ? kNone : 0;
      });

  // The Offsets layout's local indices are laid out like the host CSR copy: prefix sums of len.
  if (r.offsets) {
    ensure(w.local_start, "Remap::sharing_local_start", T + 1);
    auto ls = w.local_start;
    Kokkos::parallel_scan(
        "Remap::sharing_plan_local_start", Range(exec, 0, T),
        KOKKOS_LAMBDA(const std::int64_t t, std::int64_t& upd, const bool final) {
          const int l = r.count(t);
          if (final) ls(t) = upd;
          upd += l;
          if (final && t == T - 1) {
            ls(T) = upd;
            summary(kRefs) = upd;
          }
        });
    if (T == 0) Kokkos::deep_copy(exec, Kokkos::subview(ls, 0), std::int64_t{0});
  }

  // Pass 1: first in level-0 scratch (shared memory on a GPU) with as many slots as fit; blocks
  // it cannot decide go again with a set large enough for the full capacity.
  const int team = planner_team(o.team_granule);
  const std::int64_t need = slots_for(cap + team);
  const std::int64_t max0 = Team::scratch_size_max(0);
  std::int64_t fit = 16;
  while (4 * (2 * fit + 2) <= max0) fit *= 2;
  if (o.first_round_slots > 0)
    for (fit = 16; fit < o.first_round_slots;) fit *= 2;  // a power of two, at least 16
  const std::int64_t first = std::min(need, fit);
  CountPass cp;
  cp.r = r;
  cp.threads = T;
  cp.cap = cap;
  cp.bt = B;
  cp.align = so.align_elems;
  cp.leaf_end = w.leaf_end;
  cp.leaf_size = w.leaf_size;
  cp.nleaves = w.nleaves;
  cp.status = w.status;
  cp.splits = w.splits;
  cp.used = w.used;
  cp.summary = summary;
  auto count_pass = [&](std::int64_t slots, std::int64_t limit, bool undecided_only) {
    cp.slots = static_cast<int>(slots);
    cp.limit = limit;
    cp.undecided_only = undecided_only;
    const std::size_t bytes = sizeof(int) * (slots + 2);
    cp.level = static_cast<std::int64_t>(bytes) <= max0 ? 0 : 1;
    if (cp.level == 1 && static_cast<std::int64_t>(bytes) > Team::scratch_size_max(1))
      throw Error(
          "sharing: a block's hash set (" + std::to_string(bytes) +
          " bytes) exceeds the team scratch; give a block less shared memory (smem_bytes) or "
          "fewer threads");
    Kokkos::parallel_for("Remap::sharing_plan_count",
                         team_policy(exec, nblocks, o.team_granule)
                             .set_scratch_size(cp.level, Kokkos::PerTeam(bytes)),
                         cp);
  };
  const std::int64_t first_limit = first < need ? std::min(cap, first * 3 / 4 - team) : cap;
  if (first_limit >= 1) {
    count_pass(first, first_limit, false);
    ++d.count_rounds;
  } else {
    Kokkos::deep_copy(exec, head(w.status, nblocks), int(kUndecided));
  }
  if (first_limit < cap) {
    count_pass(need, cap, true);
    ++d.count_rounds;
  }

  // Prefix sums over the blocks place the sub-blocks and their sets; the summary collects the
  // totals, the largest set, the splits and one counter per launch class.
  {
    auto nl = w.nleaves, st = w.status;
    auto used = w.used, lb = w.leaf_base, pb = w.pos_base, sp = w.splits;
    auto le = w.leaf_end, lsz = w.leaf_size;
    Kokkos::parallel_scan(
        "Remap::sharing_plan_leaf_base", Range(exec, 0, nblocks),
        KOKKOS_LAMBDA(const std::int64_t b, std::int64_t& upd, const bool final) {
          if (final) lb(b) = upd;
          upd += nl(b);
          if (final && b == nblocks - 1) summary(kLeaves) = upd;
        });
    Kokkos::parallel_scan(
        "Remap::sharing_plan_pos_base", Range(exec, 0, nblocks),
        KOKKOS_LAMBDA(const std::int64_t b, std::int64_t& upd, const bool final) {
          if (final) pb(b) = upd;
          upd += used(b);
          if (final && b == nblocks - 1) summary(kPacked) = upd;
        });
    const int bt = B;
    Kokkos::parallel_for(
        "Remap::sharing_plan_classes", Range(exec, 0, nblocks),
        KOKKOS_LAMBDA(const std::int64_t b) {
          if (st(b) != kResolved) return;
          Kokkos::atomic_add(&summary(kSplits), sp(b));
          int a = 0;
          for (int k = 0; k < nl(b); ++k) {
            const int c = le(b * bt + k), u = lsz(b * bt + k);
            Kokkos::atomic_max(&summary(kMaxSet), std::int64_t{u});
            Kokkos::atomic_inc(&summary(kHead + rule(c - a, u)));
            a = c;
          }
        });
  }
  // Read back on the planner's instance only: a background plan (SharingStrategy's overlapped
  // plan) must not wait for the kernels other instances run meanwhile.
  auto hs = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, Kokkos::HostSpace(),
                                       head(summary, kHead + kClasses));
  Kokkos::deep_copy(exec, hs, head(summary, kHead + kClasses));
  exec.fence("Remap::sharing_plan_summary");
  if (hs(kBadThread) != kNone)
    throw Error("sharing: thread " + std::to_string(hs(kBadThread)) +
                " references an element outside [0, " + std::to_string(pv.data_count) + ")");
  if (hs(kFailThread) != kNone)
    throw Error("sharing: thread " + std::to_string(hs(kFailThread)) +
                " alone references more elements than a block can stage (" + std::to_string(cap) +
                "); give the block more shared memory or use dup");
  const std::int64_t L = hs(kLeaves), P = hs(kPacked);
  if (P > std::numeric_limits<std::int32_t>::max())
    throw Error("sharing: packed array exceeds 2^31 slots; use larger blocks or dup");
  d.blocks = L;
  d.packed_elems = P;
  d.splits = hs(kSplits);
  d.max_block_set = hs(kMaxSet);

  const std::int64_t nlocal = r.offsets ? hs(kRefs) : T * static_cast<std::int64_t>(pv.rows);
  ensure(w.block_begin, "Remap::sharing_block_begin", L + 1);
  ensure(w.block_pos, "Remap::sharing_block_pos", L + 1);
  ensure(w.block_sizes, "Remap::sharing_block_sizes", L);
  ensure(w.leaf_class, "Remap::sharing_plan_leaf_class", L);
  ensure(w.order, "Remap::sharing_order", L);
  ensure(w.packed_src, "Remap::sharing_packed_src", P);
  ensure(w.local, "Remap::sharing_local", nlocal);
  if (L == 0) {
    Kokkos::deep_copy(exec, head(w.block_begin, 1), std::int64_t{0});
    Kokkos::deep_copy(exec, head(w.block_pos, 1), std::int64_t{0});
  }

  // Pass 2.
  FillPass fp;
  fp.r = r;
  fp.threads = T;
  fp.bt = B;
  fp.align = so.align_elems;
  fp.max_set = static_cast<int>(d.max_block_set);
  fp.slots = static_cast<int>(slots_for(d.max_block_set));
  fp.rule = rule;
  fp.leaf_end = w.leaf_end;
  fp.leaf_size = w.leaf_size;
  fp.nleaves = w.nleaves;
  fp.leaf_base = w.leaf_base;
  fp.pos_base = w.pos_base;
  fp.local_start = w.local_start;
  fp.block_begin = w.block_begin;
  fp.block_pos = w.block_pos;
  fp.block_sizes = w.block_sizes;
  fp.leaf_class = w.leaf_class;
  fp.packed_src = w.packed_src;
  fp.local = w.local;
  const std::size_t fill_bytes = sizeof(int) * (fp.slots + fp.max_set + 1);
  fp.level = static_cast<std::int64_t>(fill_bytes) <= max0 ? 0 : 1;
  if (nblocks > 0)
    Kokkos::parallel_for("Remap::sharing_plan_fill",
                         team_policy(exec, nblocks, o.team_granule)
                             .set_scratch_size(fp.level, Kokkos::PerTeam(fill_bytes)),
                         fp);

  // The launch classes: sub-blocks of one class listed in thread order, class after class.
  std::int64_t at = 0;
  auto cls = w.leaf_class;
  auto order = w.order;
  for (int c = 0; c < kClasses; ++c) {
    const std::int64_t n = hs(kHead + c);
    if (n == 0) continue;
    SharingLaunchClass lc;
    const int team_idx = c / kScratchClasses, s = c % kScratchClasses;
    lc.team = o.team_granule > 0 ? std::min((team_idx + 1) * o.team_granule, o.max_team) : 0;
    lc.scratch_bytes = rule.bound[s];
    lc.first = at;
    lc.count = n;
    const std::int64_t from = at;
    Kokkos::parallel_scan(
        "Remap::sharing_plan_order", Range(exec, 0, L),
        KOKKOS_LAMBDA(const std::int64_t leaf, std::int64_t& upd, const bool final) {
          if (cls(leaf) != c) return;
          if (final) order(from + upd) = static_cast<int>(leaf);
          upd += 1;
        });
    d.classes.push_back(lc);
    at += n;
  }
  if (at != L)
    throw Error("sharing: internal error, launch classes cover " + std::to_string(at) + " of " +
                std::to_string(L) + " blocks");

  d.block_begin = head(w.block_begin, L + 1);
  d.block_pos = head(w.block_pos, L + 1);
  d.block_sizes = head(w.block_sizes, L);
  d.packed_src = head(w.packed_src, P);
  d.local = head(w.local, nlocal);
  if (r.offsets) d.local_start = head(w.local_start, T + 1);
  d.order = head(w.order, L);
  d.planned = true;
  return d;
}

SharingPlan to_host(const DeviceSharingPlan& d, const bool with_indices) {
  auto vec = [](auto v) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    using V = typename decltype(h)::non_const_value_type;
    return std::vector<V>(h.data(), h.data() + h.extent(0));
  };
  SharingPlan p;
  p.block_begin = vec(d.block_begin);
  p.block_pos = vec(d.block_pos);
  p.block_sizes = vec(d.block_sizes);
  if (with_indices) {
    p.packed_src = vec(d.packed_src);
    p.local = vec(d.local);
  }
  p.splits = d.splits;
  p.max_block_set = d.max_block_set;
  p.packed_elems = d.packed_elems;
  p.dup_elems = d.dup_elems;
  p.extra_bytes_vs_dup = (d.packed_elems - d.dup_elems) * d.elem_bytes;
  p.extra_bytes_vs_data = (d.packed_elems - d.data_count) * d.elem_bytes;
  return p;
}

}  // namespace mdremap::remap

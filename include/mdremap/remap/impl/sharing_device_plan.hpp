#pragma once
// The sharing plan (seed 001 §3.4, Fig. 5, second step) built on the device, so that a re-plan
// needs neither the host copy of the pattern nor a host pass over every reference: seed 001 §4
// counts the plan among the costs that decide whether sharing pays, and an app re-planned often
// (MD: every neighbour-list build) pays it every time. The plan is exactly the host planner's
// (make_sharing_plan): the same sub-blocks, each set sorted by element id, the same local indices.
//
// Pass 1, one team per block of B threads: the block's distinct elements are counted in a hash set
// in team scratch; a block over capacity is halved depth-first (§3.4 "Notes"). Prefix sums over
// the blocks place the sub-blocks and their packed sets. Pass 2, one team per block: each
// sub-block's set is rebuilt, sorted in scratch, written to packed_src, and every reference gets
// its local index by a binary search in the sorted set. The sub-blocks are then grouped into
// launch classes (team size, staged bytes), so that the compute launches teams of their own size
// with the scratch they need, not the largest block's.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <memory>
#include <vector>

#include "mdremap/remap/device_pattern.hpp"
#include "mdremap/remap/impl/sharing.hpp"

namespace mdremap::remap {

// One compute launch: the sub-blocks order[first, first + count), all of one team size and one
// scratch size.
struct SharingLaunchClass {
  int team = 0;                    // threads per team; 0 = the backend's choice (host backends)
  std::int64_t scratch_bytes = 0;  // bytes a team stages: >= elem_bytes * each of its set sizes
  std::int64_t first = 0, count = 0;
};

// SharingPlan (sharing.hpp) on the device. L = blocks (sub-blocks counted).
struct DeviceSharingPlan {
  Kokkos::View<const std::int64_t*> block_begin, block_pos;  // L + 1
  Kokkos::View<const int*> block_sizes;                      // L
  Kokkos::View<const int*> packed_src;                       // packed_elems; -1 = alignment hole
  // Laid out like the host copy of the pattern: local(j * threads + t) for a Strided pattern
  // (-1 past len), local(local_start(t) + j) for an Offsets one (local_start: threads + 1 prefix
  // sums of len; empty for Strided).
  Kokkos::View<const int*> local;
  Kokkos::View<const std::int64_t*> local_start;
  Kokkos::View<const int*> order;  // sub-blocks grouped by launch class, thread order inside one
  std::vector<SharingLaunchClass> classes;
  PatternLayout layout = PatternLayout::Strided;
  std::int64_t threads = 0, data_count = 0;
  int rows = 0, elem_bytes = 0;
  std::int64_t blocks = 0, splits = 0, max_block_set = 0, packed_elems = 0, dup_elems = 0;
  int count_rounds = 0;  // pass-1 launches: 2 when a first round in level-0 scratch left blocks
  bool planned = false;
};

struct SharingDevicePlanOptions {
  SharingOptions sharing;  // block threads, capacity (elements), alignment
  int elem_bytes = 16;     // bytes of one staged element (the classes' scratch sizes)
  // Team sizes of the launch classes are multiples of this (a GPU's warp) up to max_team; 0: one
  // team class of backend-chosen size (host backends, where a narrow team leaves no lanes idle).
  int team_granule = 0;
  int max_team = 1024;
  // An extra scratch-class boundary: the most a portable team may stage (Kokkos' team scratch
  // limit), so that sets under it are never rounded up past it; 0 = none.
  std::int64_t scratch_break = 0;
  // Hash slots pass 1 tries first (rounded to a power of two); 0 = as many as fit the level-0
  // scratch. A block whose set cannot be decided with them is planned again with a set for the
  // full capacity, in level-1 scratch where level 0 is too small (tests force this path).
  std::int64_t first_round_slots = 0;
};

// Plans on Kokkos::DefaultExecutionSpace. Keeps its work and output arrays from plan to plan (they
// grow, never shrink): a plan's views stay valid until this planner's next plan().
class SharingDevicePlanner {
 public:
  SharingDevicePlanner();
  ~SharingDevicePlanner();
  SharingDevicePlanner(SharingDevicePlanner&&) noexcept;
  SharingDevicePlanner& operator=(SharingDevicePlanner&&) noexcept;

  // Throws mdremap::Error on bad options or when one thread alone references more elements than
  // a block can stage. Reads the pattern on the device only; one small device -> host copy (the
  // totals and the class sizes) sizes the outputs and the compute launches.
  DeviceSharingPlan plan(const PatternView& pv, const SharingDevicePlanOptions& o);
  // The same on the instance `exec`: every kernel and copy runs there and the one read-back waits
  // for `exec` alone, so a plan made on a thread of its own overlaps what other instances run.
  DeviceSharingPlan plan(const PatternView& pv, const SharingDevicePlanOptions& o,
                         const Kokkos::DefaultExecutionSpace& exec);
  // Device memory the planner holds (work and output arrays).
  std::int64_t bytes() const;

 private:
  struct Work;
  std::unique_ptr<Work> w_;
};

// The plan copied to the host (tests; transaction counts).
// with_indices = false leaves packed_src and local empty (the block arrays suffice to count the
// staging transactions).
SharingPlan to_host(const DeviceSharingPlan& d, bool with_indices = true);

}  // namespace mdremap::remap

#pragma once
// The MD force kernel's neighbour gathers pos[neighbors[j*N+i]] served by the remap layer
// (BRIEF section 5): the neighbour list is the irregular pattern (threads = local atoms, data =
// local + ghost positions), LJFullBody the compute body, and the strategy comes from the registry
// by the deck's remap.mode. Also the thread reorderings (--reorder), which permute the atoms.
#include <memory>
#include <string>

#include "md/force.hpp"
#include "md/params.hpp"
#include "mdremap/remap/transactions.hpp"
#include "remap/strategy.hpp"

namespace mdremap::md {

// Measured phases of one force evaluation (medians of repeats, fenced).
struct RemapTiming {
  double remap_ms = 0;      // the remap kernels alone (0 for gather)
  double compute_ms = 0;    // the compute kernel(s) alone on remapped data
  double pipelined_ms = 0;  // remap + compute as the strategy runs them (overlapped)
  // Share of the remap time hidden by the overlap: (remap + compute - pipelined) / remap.
  double overlap = 0;
};

struct RemapStats {
  remap::RemapReport report;
  remap::TransactionCount tx;  // modelled, one force evaluation
  bool have_tx = false;
};

remap::RemapOptions remap_options(const MdParams& p);

template <class C, class A>
class RemapForce {
 public:
  using T = Vec4<C>;
  RemapForce(const MdParams& p, const LJTable<C>& lj);
  ~RemapForce();
  // After every neighbour-list build: the new pattern (plans the strategy).
  void plan(const neighbor::NeighborList& list, std::int64_t data_count);
  // Forces on the local atoms (overwritten); positions changed since the last call.
  ForceResult compute(Kokkos::View<const T*> xall, Kokkos::View<A* [3]> f, bool ev);
  RemapStats stats(bool with_transactions);
  RemapTiming measure(Kokkos::View<const T*> xall, Kokkos::View<A* [3]> f, int reps);
  std::string name() const;

 private:
  remap::PatternView pv_;
  LJTable<C> lj_;
  std::unique_ptr<remap::RemapStrategy<T>> s_;
};

// The single-pattern kernel where padding applies (seed 001 §3.3): out[i] = sum_j x[P[j][i]].x
// over the same neighbour list, run through `mode`, compared with the plain gather.
struct GatherReduceResult {
  RemapStats stats;
  RemapTiming timing;
  double checksum = 0;     // sum over atoms of out[i]
  double max_rel_err = 0;  // max |out - out_gather| / max |out_gather| (outputs mapped back)
};
template <class C>
GatherReduceResult gather_reduce(const MdParams& p, const std::string& mode,
                                 const neighbor::NeighborList& list, std::int64_t data_count,
                                 Kokkos::View<const Vec4<C>*> xall, int reps);

// Thread (atom) permutation, new -> old, for remap.reorder labelprop | partition, computed from
// the current neighbour list (host copy): seed 001 §3.4 clustering, seed 002 Algorithm 1.
template <class C>
Kokkos::View<std::int64_t*> reorder_permutation(const MdParams& p,
                                                const neighbor::NeighborList& list,
                                                std::int64_t data_count,
                                                Kokkos::View<const Vec4<C>*> xlocal);

}  // namespace mdremap::md

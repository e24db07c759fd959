#pragma once
// The MD app's side of the remap layer (BRIEF section 5): the deck's remap keys as the layer's
// options (with the run horizon `auto` predicts over), and the thread reorderings (--reorder),
// which permute the atoms.
#include <Kokkos_Core.hpp>

#include "md/params.hpp"
#include "mdremap/remap/options.hpp"
#include "neighbor/neighbor_list.hpp"

namespace mdremap::md {

remap::RemapOptions remap_options(const MdParams& p);

// Thread (atom) permutation, new -> old, for remap.reorder labelprop | partition, computed from
// the current neighbour list (host copy): seed 001 §3.4 clustering, seed 002 Algorithm 1.
template <class C>
Kokkos::View<std::int64_t*> reorder_permutation(const MdParams& p,
                                                const neighbor::NeighborList& list,
                                                std::int64_t data_count,
                                                Kokkos::View<const Vec4<C>*> xlocal);

}  // namespace mdremap::md

#pragma once
// neighbor.row_order = id: each atom's neighbours sorted by atom id after every build. A full
// list's force on atom i is then summed over the same partners in the same order whatever the
// atom order, the binning and the number of MPI ranks, so a decomposed run reproduces the
// one-process run's trajectory bit for bit (only the thermo's sums over atoms are added in
// another order). Without it summation order differs at the last bit, and a chaotic liquid
// turns that into visible differences within a few thousand steps, as in any MD code.
#include <cstdint>

#include "neighbor/neighbor_list.hpp"

namespace mdremap::neighbor {

// Sorts row i of `list` (its counts[i] entries) by key[entry], ascending. key holds one value
// per local atom and ghost (the atom ids: a ghost carries its atom's).
template <class Space>
void order_rows_by_key(BasicNeighborList<Space>& list,
                       nondeduced_t<Kokkos::View<const std::int64_t*, Space>> key);

}  // namespace mdremap::neighbor

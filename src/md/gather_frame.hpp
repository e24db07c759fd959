#pragma once
// Outputs of a run decomposed over MPI ranks: every rank's atoms gathered onto rank 0,
// which writes them (VTK without pieces, checkpoints, H5MD without parallel HDF5) as one process
// would; or spread in blocks of atom ids, one per rank, which write one H5MD file together.
#include "mdremap/frame.hpp"

namespace mdremap::md {

// Gathers the ranks' frames (their atoms, in slot order) onto rank 0 in atom-id order: x, v, f
// and image where present, type, id. The other ranks' frames are emptied (step, time and box kept).
// Collective: every rank calls it with the same arrays present.
void gather_frame_by_id(Frame& fr);

// Moves every atom of the ranks' frames to the rank of its id's block (rank r holds ids
// [r * natoms / ranks, (r + 1) * natoms / ranks)), each block in id order: x, v, f
// and image where present, type, id. Returns where this rank's block starts. Collective, as above.
std::int64_t distribute_frame_by_id(Frame& fr, std::int64_t natoms);

}  // namespace mdremap::md

#pragma once
// Outputs of a run decomposed over MPI ranks (issue 15): every rank's atoms gathered onto rank 0,
// which writes them (H5MD, VTK, checkpoints) as one process would. No parallel HDF5: one file,
// one writer.
#include "mdremap/frame.hpp"

namespace mdremap::md {

// Gathers the ranks' frames (their atoms, in slot order) onto rank 0 in atom-id order: x, v, f
// where present, type, id. The other ranks' frames are emptied (step, time and box kept).
// Collective: every rank calls it with the same arrays present.
void gather_frame_by_id(Frame& fr);

}  // namespace mdremap::md

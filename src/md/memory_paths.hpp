#pragma once
// remap.gather_path = auto (seed 003 Algorithm 3): the MD force kernel's references described to
// the layer's memory selection, from the real neighbour list, and the gather path it implies.
#include <string>

#include "mdremap/remap/memory_selection.hpp"
#include "mdremap/remap/options.hpp"
#include "mdremap/remap/pattern.hpp"

namespace mdremap::md {

struct GatherPathChoice {
  remap::GatherPath path = remap::GatherPath::ReadOnly;
  std::string text;  // the per-reference classes, the per-array choices and the decision
};

// host: the neighbour list (threads = local atoms, data = local + ghost positions, elem_bytes =
// the position record's); force_bytes: one force component; shared_bytes: what a block may stage.
GatherPathChoice choose_gather_path(const remap::IrregularPattern& host, int force_bytes,
                                    int block_threads, std::int64_t shared_bytes);

}  // namespace mdremap::md

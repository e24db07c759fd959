#pragma once
// The linear system as NumPy .npy files (format 1.0: magic, a header dict, raw little-endian
// data), so tools/cg_cupy.py loads the exact matrix and right-hand side a run solved without
// parsing gigabytes of Matrix Market text. PREFIX_rowptr.npy (int64), PREFIX_col.npy (int32),
// PREFIX_val.npy, PREFIX_b.npy and, when known, PREFIX_xstar.npy (float64).
#include <string>

#include "cg/system.hpp"

namespace mdremap::cg {

void write_system_npy(const std::string& prefix, const LinearSystem& s);

}  // namespace mdremap::cg

#pragma once
// cuSPARSE's CSR SpMV (cusparseSpMV) as CG's anchor (BRIEF section 12): the matrix descriptor,
// the work buffer (cusparseSpMV_bufferSize) and cusparseSpMV_preprocess are set up once, so each
// call is the SpMV alone. CUDA builds only (MDREMAP_HAS_CUSPARSE).
#include <memory>

#include "cg/spmv.hpp"

namespace mdremap::cg {

#ifdef MDREMAP_HAS_CUSPARSE
// l2_persist: the matrix's values marked persisting in the L2 while it lives
// (mdremap/remap/l2_window.hpp), as sell's option does for its own arrays.
std::unique_ptr<CgSpmv> make_cusparse_spmv(const DeviceCsr& a, bool l2_persist = false);
#endif

}  // namespace mdremap::cg

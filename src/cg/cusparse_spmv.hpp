#pragma once
// cuSPARSE's CSR SpMV (cusparseSpMV) as CG's anchor (BRIEF section 12): the matrix descriptor,
// the work buffer (cusparseSpMV_bufferSize) and cusparseSpMV_preprocess are set up once, so each
// call is the SpMV alone. CUDA builds only (MDREMAP_HAS_CUSPARSE).
#include <memory>

#include "cg/spmv.hpp"

namespace mdremap::cg {

#ifdef MDREMAP_HAS_CUSPARSE
std::unique_ptr<CgSpmv> make_cusparse_spmv(const DeviceCsr& a);
#endif

}  // namespace mdremap::cg

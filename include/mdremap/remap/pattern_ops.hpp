#pragma once
// Operations on an IrregularPattern shared by every planner of the remap layer: validation and
// thread / data permutations (BRIEF section 5, "reordering").
//
// Conventions used throughout the remap layer:
//  - a thread permutation is new -> old: perm[new_t] = old_t, i.e. the order in which the
//    reordered kernel visits the old threads (new thread new_t does the job of old thread
//    perm[new_t]);
//  - a data permutation is old -> new: old_to_new[e] is where old element e lives in the new array.
#include <cstdint>
#include <vector>

#include "mdremap/remap/pattern.hpp"

namespace mdremap::remap {

using ThreadPermutation = std::vector<std::int64_t>;  // new -> old
using DataPermutation = std::vector<std::int32_t>;    // old -> new

// Throws mdremap::Error naming the first problem: sizes (index = rows*threads, or CSR offsets
// from 0 to index size), len = threads, 0 <= len[t] <= rows (CSR: offset[t+1] - offset[t] ==
// len[t]), and every active entry (j < len[t]) in [0, data_count).
void validate_pattern(const IrregularPattern& p);

// The same references in the other storage layout (pattern.hpp): CSR (offset = prefix sums of
// len, index[offset[t] + j]) or rows-by-threads (index[j*T + t], -1 past len). A pattern already
// in the asked layout is returned as a copy. Validates first.
enum class HostLayout { rows_by_threads, csr };
IrregularPattern to_layout(const IrregularPattern& p, HostLayout layout);
inline IrregularPattern to_csr(const IrregularPattern& p) {
  return to_layout(p, HostLayout::csr);
}
inline IrregularPattern to_rows_by_threads(const IrregularPattern& p) {
  return to_layout(p, HostLayout::rows_by_threads);
}

bool is_permutation(const std::vector<std::int64_t>& perm);
bool is_permutation(const std::vector<std::int32_t>& perm);
std::vector<std::int64_t> invert_permutation(const std::vector<std::int64_t>& perm);
std::vector<std::int32_t> invert_permutation(const std::vector<std::int32_t>& perm);

// New pattern whose thread new_t is old thread new_to_old[new_t] (len and index columns move with
// it; data untouched). Throws if new_to_old is not a permutation of [0, threads).
IrregularPattern apply_thread_permutation(const IrregularPattern& p,
                                          const ThreadPermutation& new_to_old);

// New pattern reading the permuted data array A'[old_to_new[e]] = A[e]: every active entry e
// becomes old_to_new[e]; inactive entries are copied unchanged. Throws if old_to_new is not a
// permutation of [0, data_count).
IrregularPattern apply_data_permutation(const IrregularPattern& p,
                                        const DataPermutation& old_to_new);

}  // namespace mdremap::remap

#include "mdremap/remap/pattern_ops.hpp"

#include <algorithm>
#include <string>

#include "mdremap/error.hpp"

namespace mdremap::remap {

void validate_pattern(const IrregularPattern& p) {
  const std::string what = "irregular pattern: ";
  if (p.threads < 0 || p.rows < 0 || p.data_count < 0 || p.elem_bytes <= 0)
    throw Error(what + "threads, rows, data_count must be >= 0 and elem_bytes > 0");
  if (static_cast<std::int64_t>(p.len.size()) != p.threads)
    throw Error(what + "len has " + std::to_string(p.len.size()) +
                " entries, expected threads = " + std::to_string(p.threads));
  if (p.csr()) {
    if (static_cast<std::int64_t>(p.offset.size()) != p.threads + 1 || p.offset.front() != 0 ||
        p.offset.back() != static_cast<std::int64_t>(p.index.size()))
      throw Error(what + "CSR offsets must be threads+1 = " + std::to_string(p.threads + 1) +
                  " entries from 0 to index size " + std::to_string(p.index.size()));
  } else if (static_cast<std::int64_t>(p.index.size()) != p.threads * p.rows) {
    throw Error(what + "index has " + std::to_string(p.index.size()) +
                " entries, expected rows*threads = " + std::to_string(p.threads * p.rows));
  }
  for (std::int64_t t = 0; t < p.threads; ++t) {
    const int n = p.len[t];
    if (n < 0 || n > p.rows)
      throw Error(what + "len[" + std::to_string(t) + "] = " + std::to_string(n) +
                  " is outside [0, rows = " + std::to_string(p.rows) + "]");
    if (p.csr() && p.offset[t + 1] - p.offset[t] != n)
      throw Error(what + "CSR row " + std::to_string(t) + " holds " +
                  std::to_string(p.offset[t + 1] - p.offset[t]) + " entries but len says " +
                  std::to_string(n));
    for (int j = 0; j < n; ++j) {
      const std::int32_t e = p.at(j, t);
      if (e < 0 || e >= p.data_count)
        throw Error(what + "index[row " + std::to_string(j) + ", thread " + std::to_string(t) +
                    "] = " + std::to_string(e) +
                    " is outside [0, data_count = " + std::to_string(p.data_count) + ")");
    }
  }
}

IrregularPattern to_layout(const IrregularPattern& p, HostLayout layout) {
  validate_pattern(p);
  IrregularPattern q;
  q.threads = p.threads;
  q.rows = p.rows;
  q.data_count = p.data_count;
  q.elem_bytes = p.elem_bytes;
  q.len = p.len;
  const std::int64_t T = p.threads;
  if (layout == HostLayout::csr) {
    q.offset.assign(T + 1, 0);
    for (std::int64_t t = 0; t < T; ++t) q.offset[t + 1] = q.offset[t] + p.len[t];
    q.index.resize(q.offset[T]);
  } else {
    q.index.assign(static_cast<std::size_t>(p.rows) * T, -1);
  }
  for (std::int64_t t = 0; t < T; ++t)
    for (int j = 0; j < p.len[t]; ++j) q.index[q.pos(j, t)] = p.at(j, t);
  return q;
}

namespace {

template <class Int>
bool is_perm(const std::vector<Int>& perm) {
  std::vector<char> seen(perm.size(), 0);
  for (Int v : perm) {
    if (v < 0 || static_cast<std::size_t>(v) >= perm.size() || seen[v]) return false;
    seen[v] = 1;
  }
  return true;
}

template <class Int>
std::vector<Int> invert(const std::vector<Int>& perm) {
  if (!is_perm(perm)) throw Error("invert_permutation: input is not a permutation");
  std::vector<Int> inv(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) inv[perm[i]] = static_cast<Int>(i);
  return inv;
}

}  // namespace

bool is_permutation(const std::vector<std::int64_t>& perm) {
  return is_perm(perm);
}
bool is_permutation(const std::vector<std::int32_t>& perm) {
  return is_perm(perm);
}
std::vector<std::int64_t> invert_permutation(const std::vector<std::int64_t>& perm) {
  return invert(perm);
}
std::vector<std::int32_t> invert_permutation(const std::vector<std::int32_t>& perm) {
  return invert(perm);
}

IrregularPattern apply_thread_permutation(const IrregularPattern& p,
                                          const ThreadPermutation& new_to_old) {
  if (static_cast<std::int64_t>(new_to_old.size()) != p.threads || !is_perm(new_to_old))
    throw Error("apply_thread_permutation: need a permutation of the " + std::to_string(p.threads) +
                " threads (new -> old)");
  IrregularPattern q = p;
  const std::int64_t T = p.threads;
  for (std::int64_t nt = 0; nt < T; ++nt) q.len[nt] = p.len[new_to_old[nt]];
  if (p.csr()) {
    for (std::int64_t nt = 0; nt < T; ++nt) q.offset[nt + 1] = q.offset[nt] + q.len[nt];
    for (std::int64_t nt = 0; nt < T; ++nt)
      std::copy_n(p.index.begin() + p.offset[new_to_old[nt]], q.len[nt],
                  q.index.begin() + q.offset[nt]);
    return q;
  }
  for (int j = 0; j < p.rows; ++j) {
    const std::size_t row = static_cast<std::size_t>(j) * T;
    for (std::int64_t nt = 0; nt < T; ++nt) q.index[row + nt] = p.index[row + new_to_old[nt]];
  }
  return q;
}

IrregularPattern apply_data_permutation(const IrregularPattern& p,
                                        const DataPermutation& old_to_new) {
  if (static_cast<std::int64_t>(old_to_new.size()) != p.data_count || !is_perm(old_to_new))
    throw Error("apply_data_permutation: need a permutation of the " +
                std::to_string(p.data_count) + " data elements (old -> new)");
  IrregularPattern q = p;
  const std::int64_t T = p.threads;
  for (std::int64_t t = 0; t < T; ++t)
    for (int j = 0; j < p.len[t]; ++j) {
      std::int32_t& e = q.index[q.pos(j, t)];
      if (e < 0 || e >= p.data_count)
        throw Error("apply_data_permutation: active index entry " + std::to_string(e) +
                    " is outside [0, data_count)");
      e = old_to_new[e];
    }
  return q;
}

}  // namespace mdremap::remap

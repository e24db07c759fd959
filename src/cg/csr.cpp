#include "cg/csr.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace mdremap::cg {

std::int64_t HostCsr::max_row_len() const {
  std::int64_t m = 0;
  for (std::int64_t r = 0; r < rows; ++r) m = std::max(m, row_len(r));
  return m;
}

double HostCsr::at(std::int64_t r, std::int32_t c) const {
  const auto b = col.begin() + rowptr[r], e = col.begin() + rowptr[r + 1];
  const auto it = std::lower_bound(b, e, c);
  return it != e && *it == c ? val[it - col.begin()] : 0.0;
}

namespace {

// Sorts each row's (col, val) pairs by column and sums duplicates, in place (kept entries are
// compacted to the front and rowptr updated).
void sort_and_merge_rows(HostCsr& a) {
  std::vector<std::pair<std::int32_t, double>> buf;
  std::int64_t out = 0;
  std::int64_t begin = 0;
  for (std::int64_t r = 0; r < a.rows; ++r) {
    const std::int64_t end = a.rowptr[r + 1];
    buf.clear();
    for (std::int64_t k = begin; k < end; ++k) buf.emplace_back(a.col[k], a.val[k]);
    std::stable_sort(buf.begin(), buf.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    a.rowptr[r] = out;
    for (std::size_t k = 0; k < buf.size(); ++k) {
      if (k > 0 && buf[k].first == buf[k - 1].first) {
        a.val[out - 1] += buf[k].second;
        continue;
      }
      a.col[out] = buf[k].first;
      a.val[out] = buf[k].second;
      ++out;
    }
    begin = end;
  }
  a.rowptr[a.rows] = out;
  a.col.resize(out);
  a.val.resize(out);
}

}  // namespace

HostCsr coo_to_csr(std::int64_t rows, std::int64_t cols, const std::vector<std::int32_t>& row,
                   const std::vector<std::int32_t>& col, const std::vector<double>& val) {
  HostCsr a;
  a.rows = rows;
  a.cols = cols;
  a.rowptr.assign(rows + 1, 0);
  for (std::int32_t r : row) ++a.rowptr[r + 1];
  std::partial_sum(a.rowptr.begin(), a.rowptr.end(), a.rowptr.begin());
  a.col.resize(row.size());
  a.val.resize(row.size());
  std::vector<std::int64_t> fill(a.rowptr.begin(), a.rowptr.end() - 1);
  for (std::size_t k = 0; k < row.size(); ++k) {
    const std::int64_t at = fill[row[k]]++;
    a.col[at] = col[k];
    a.val[at] = val[k];
  }
  sort_and_merge_rows(a);
  return a;
}

Asymmetry find_asymmetry(const HostCsr& a, double rel_tol) {
  Asymmetry out;
  for (std::int64_t r = 0; r < a.rows; ++r) {
    for (std::int64_t k = a.rowptr[r]; k < a.rowptr[r + 1]; ++k) {
      const std::int32_t c = a.col[k];
      if (c == r) continue;
      const double v = a.val[k];
      const double m = c < a.rows ? a.at(c, static_cast<std::int32_t>(r)) : 0.0;
      const double scale = std::max(std::abs(v), std::abs(m));
      if (std::abs(v - m) > rel_tol * scale || (scale == 0 && v != m)) {
        out = {true, r, c, k, v, m};
        return out;
      }
    }
  }
  return out;
}

void spmv_reference(const HostCsr& a, const std::vector<double>& x, std::vector<double>& y) {
  y.assign(a.rows, 0.0);
  for (std::int64_t r = 0; r < a.rows; ++r) {
    double s = 0;
    for (std::int64_t k = a.rowptr[r]; k < a.rowptr[r + 1]; ++k) s += a.val[k] * x[a.col[k]];
    y[r] = s;
  }
}

std::uint64_t mix(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  auto m = [](std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  return m(m(m(seed) ^ a) ^ b);
}

double unit(std::uint64_t bits) {
  return static_cast<double>(bits >> 11) * (1.0 / 9007199254740992.0);
}

std::vector<std::int32_t> random_permutation(std::int64_t n, std::uint64_t seed) {
  std::vector<std::int32_t> p(n);
  std::iota(p.begin(), p.end(), 0);
  for (std::int64_t i = n - 1; i > 0; --i) {
    const auto j = static_cast<std::int64_t>(mix(seed, 0x5045524dULL, i) % (i + 1));
    std::swap(p[i], p[j]);
  }
  return p;
}

std::vector<std::int32_t> invert_permutation(const std::vector<std::int32_t>& p) {
  std::vector<std::int32_t> q(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) q[p[i]] = static_cast<std::int32_t>(i);
  return q;
}

HostCsr permute_symmetric(const HostCsr& a, const std::vector<std::int32_t>& new_of_old) {
  if (a.rows != a.cols || static_cast<std::int64_t>(new_of_old.size()) != a.rows)
    throw std::invalid_argument("permute_symmetric: square matrix and permutation of its size");
  const auto old_of_new = invert_permutation(new_of_old);
  HostCsr b;
  b.rows = a.rows;
  b.cols = a.cols;
  b.rowptr.assign(a.rows + 1, 0);
  for (std::int64_t r = 0; r < a.rows; ++r)
    b.rowptr[r + 1] = b.rowptr[r] + a.row_len(old_of_new[r]);
  b.col.resize(a.nnz());
  b.val.resize(a.nnz());
#pragma omp parallel
  {
    std::vector<std::pair<std::int32_t, double>> row;
#pragma omp for schedule(static, 4096)
    for (std::int64_t r = 0; r < a.rows; ++r) {
      const std::int64_t o = old_of_new[r];
      row.clear();
      for (std::int64_t k = a.rowptr[o]; k < a.rowptr[o + 1]; ++k)
        row.emplace_back(new_of_old[a.col[k]], a.val[k]);
      std::sort(row.begin(), row.end(),
                [](const auto& x, const auto& y) { return x.first < y.first; });
      std::int64_t at = b.rowptr[r];
      for (const auto& [c, v] : row) {
        b.col[at] = c;
        b.val[at] = v;
        ++at;
      }
    }
  }
  return b;
}

}  // namespace mdremap::cg

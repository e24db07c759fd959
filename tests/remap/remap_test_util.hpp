#pragma once
// Test helpers for the remap planning tests: building patterns by hand and the shuffled periodic
// lattice used to check that reorderings reduce per-block working sets.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "mdremap/remap/pattern.hpp"
#include "mdremap/remap/pattern_ops.hpp"

namespace mdremap::remap::testing {

// rows[t] = the elements thread t reads, in row order; rows = longest list.
inline IrregularPattern make_pattern(const std::vector<std::vector<std::int32_t>>& per_thread,
                                     std::int64_t data_count, int elem_bytes) {
  IrregularPattern p;
  p.threads = static_cast<std::int64_t>(per_thread.size());
  p.data_count = data_count;
  p.elem_bytes = elem_bytes;
  for (const auto& r : per_thread) p.rows = std::max(p.rows, static_cast<int>(r.size()));
  p.len.resize(p.threads);
  p.index.assign(static_cast<std::size_t>(p.rows) * p.threads, -1);
  for (std::int64_t t = 0; t < p.threads; ++t) {
    p.len[t] = static_cast<std::int32_t>(per_thread[t].size());
    for (int j = 0; j < p.len[t]; ++j)
      p.index[static_cast<std::size_t>(j) * p.threads + t] = per_thread[t][j];
  }
  return p;
}

// The same pattern in CSR layout (offset[t] + j).
inline IrregularPattern make_csr_pattern(const std::vector<std::vector<std::int32_t>>& per_thread,
                                         std::int64_t data_count, int elem_bytes) {
  return to_csr(make_pattern(per_thread, data_count, elem_bytes));
}

// One reference per thread: A[P[tid]] (seed 001's conceptual form).
inline IrregularPattern single_row(const std::vector<std::int32_t>& P, std::int64_t data_count,
                                   int elem_bytes) {
  std::vector<std::vector<std::int32_t>> rows;
  for (std::int32_t e : P) rows.push_back({e});
  return make_pattern(rows, data_count, elem_bytes);
}

// Periodic n^3 cubic lattice (spacing 1); each point's thread reads the positions of the points
// within distance sqrt(2) (6 face + 12 edge neighbours = 18), like an MD neighbour list. Thread
// ids and data ids are then shuffled independently, destroying all locality of the ids.
struct ShuffledLattice {
  IrregularPattern pattern;
  std::vector<float> coords;  // 3 per thread: the position of the thread's own point
};

inline ShuffledLattice make_shuffled_lattice(int n, std::uint64_t seed) {
  const std::int32_t N = n * n * n;
  std::mt19937_64 rng(seed);
  std::vector<std::int32_t> thread_of(N), data_of(N);  // point -> thread id, point -> data id
  std::iota(thread_of.begin(), thread_of.end(), 0);
  std::iota(data_of.begin(), data_of.end(), 0);
  std::shuffle(thread_of.begin(), thread_of.end(), rng);
  std::shuffle(data_of.begin(), data_of.end(), rng);
  auto id = [n](int x, int y, int z) {
    return ((x + n) % n) + n * (((y + n) % n) + n * ((z + n) % n));
  };
  std::vector<std::vector<std::int32_t>> per_thread(N);
  ShuffledLattice out;
  out.coords.resize(3 * static_cast<std::size_t>(N));
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const std::int32_t t = thread_of[id(x, y, z)];
        out.coords[3 * t] = static_cast<float>(x);
        out.coords[3 * t + 1] = static_cast<float>(y);
        out.coords[3 * t + 2] = static_cast<float>(z);
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const int r2 = dx * dx + dy * dy + dz * dz;
              if (r2 == 0 || r2 > 2) continue;
              per_thread[t].push_back(data_of[id(x + dx, y + dy, z + dz)]);
            }
      }
  out.pattern = make_pattern(per_thread, N, 16);
  return out;
}

// The 5-point Laplacian of an n x n grid as a CSR pattern (SpMV: row t reads x at its own point
// and its up to 4 neighbours, columns ascending; 8-byte doubles). With shuffle_seed != 0 the
// points are renumbered by a random permutation (rows and columns alike, P A P^T), so ids carry
// no locality.
inline IrregularPattern make_grid_laplacian(int n, std::uint64_t shuffle_seed = 0) {
  const std::int32_t N = n * n;
  std::vector<std::int32_t> id(N);
  std::iota(id.begin(), id.end(), 0);
  if (shuffle_seed != 0) {
    std::mt19937_64 rng(shuffle_seed);
    std::shuffle(id.begin(), id.end(), rng);
  }
  std::vector<std::vector<std::int32_t>> rows(N);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      std::vector<std::int32_t>& r = rows[id[x + n * y]];
      r.push_back(id[x + n * y]);
      if (x > 0) r.push_back(id[x - 1 + n * y]);
      if (x + 1 < n) r.push_back(id[x + 1 + n * y]);
      if (y > 0) r.push_back(id[x + n * (y - 1)]);
      if (y + 1 < n) r.push_back(id[x + n * (y + 1)]);
      std::sort(r.begin(), r.end());
    }
  return make_csr_pattern(rows, N, 8);
}

}  // namespace mdremap::remap::testing

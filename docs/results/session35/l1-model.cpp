// Session 35's L1 model of one SM running the full-list force kernel (a record of what was run,
// not part of the build): which block order gives more hits.
//   g++ -O2 -o l1-model l1-model.cpp && ./l1-model CELLS RECORD_BYTES BLOCKS_PER_SM L1_KB
//   (./l1-model 80 32 6 224 and ./l1-model 80 32 6 64 gave the figures in docs/benchmarks.md)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <list>
#include <numeric>
#include <random>
#include <unordered_map>
#include <vector>
struct LRU {  // sectors of 32 B in lines of 128 B; capacity in lines
  size_t cap;
  std::list<int64_t> order;
  std::unordered_map<int64_t, std::pair<std::list<int64_t>::iterator, unsigned>> map;
  long hits = 0, misses = 0;
  void access(int64_t byte) {
    int64_t line = byte >> 7;
    unsigned sec = 1u << ((byte >> 5) & 3);
    auto it = map.find(line);
    if (it != map.end()) {
      order.splice(order.begin(), order, it->second.first);
      if (it->second.second & sec)
        ++hits;
      else {
        ++misses;
        it->second.second |= sec;
      }
      return;
    }
    ++misses;
    order.push_front(line);
    map[line] = {order.begin(), sec};
    if (map.size() > cap) {
      map.erase(order.back());
      order.pop_back();
    }
  }
};
int main(int argc, char** argv) {
  int cells = atoi(argv[1]);        // fcc cells per edge
  int rec = atoi(argv[2]);          // record bytes (32 double, 16 single)
  int blocksPerSm = atoi(argv[3]);  // resident blocks of 128
  int nsm = 132;
  int bs = 128;
  double a = std::cbrt(4 / 0.8442), L = a * cells, rl = 2.8;
  int64_t n = 4LL * cells * cells * cells;
  std::vector<double> x(3 * n);
  std::mt19937_64 rng(1);
  std::normal_distribution<double> g(0, 0.25);
  const double b[4][3] = {{0, 0, 0}, {.5, .5, 0}, {.5, 0, .5}, {0, .5, .5}};
  int64_t k = 0;
  for (int i = 0; i < cells; ++i)
    for (int j = 0; j < cells; ++j)
      for (int l = 0; l < cells; ++l)
        for (int q = 0; q < 4; ++q, ++k) {
          double p[3] = {(i + b[q][0]) * a, (j + b[q][1]) * a, (l + b[q][2]) * a};
          for (int d = 0; d < 3; ++d) {
            double v = p[d] + g(rng);
            v = std::fmod(v + L, L);
            x[3 * k + d] = v;
          }
        }
  int nc = int(L / rl);
  double cs = L / nc;
  auto cell_of = [&](int64_t i, int c[3]) {
    for (int d = 0; d < 3; ++d) {
      c[d] = std::min(nc - 1, int(x[3 * i + d] / cs));
    }
  };
  std::vector<int64_t> key(n), perm(n);
  for (int64_t i = 0; i < n; ++i) {
    int c[3];
    cell_of(i, c);
    key[i] = (int64_t(c[2]) * nc + c[1]) * nc + c[0];
  }
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](int64_t p, int64_t q) { return key[p] < key[q]; });
  std::vector<double> y(3 * n);
  for (int64_t i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) y[3 * i + d] = x[3 * perm[i] + d];
  x.swap(y);
  std::vector<int64_t> start(int64_t(nc) * nc * nc + 1, 0);
  for (int64_t i = 0; i < n; ++i) {
    int c[3];
    cell_of(i, c);
    start[(int64_t(c[2]) * nc + c[1]) * nc + c[0] + 1]++;
  }
  for (size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
  auto neigh = [&](int64_t i, std::vector<int>& out) {
    out.clear();
    int c[3];
    cell_of(i, c);
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          int cc[3] = {(c[0] + dx + nc) % nc, (c[1] + dy + nc) % nc, (c[2] + dz + nc) % nc};
          int64_t id = (int64_t(cc[2]) * nc + cc[1]) * nc + cc[0];
          for (int64_t j = start[id]; j < start[id + 1]; ++j) {
            if (j == i) continue;
            double r2 = 0;
            for (int d = 0; d < 3; ++d) {
              double dd = x[3 * i + d] - x[3 * j + d];
              dd -= L * std::round(dd / L);
              r2 += dd * dd;
            }
            if (r2 < rl * rl) out.push_back(int(j));
          }
        }
  };
  int64_t nblocks = (n + bs - 1) / bs;
  int simBlocks = 600;  // blocks one SM runs in the model
  for (int mode = 0; mode < 2; ++mode) {
    // mode 0: SM 0 gets blocks 0, nsm, 2 nsm, ... ; mode 1: a contiguous range
    std::vector<int64_t> seq;
    for (int t = 0; t < simBlocks; ++t)
      seq.push_back(mode == 0 ? (int64_t(t) * nsm) % nblocks : t + nblocks / 2);
    LRU l1{size_t(atoi(argv[4]) * 1024 / 128)};
    struct Warp {
      std::vector<std::vector<int>> nb;
      int j = 0, maxj = 0;
    };
    std::vector<Warp> active;
    size_t next = 0;
    std::vector<int> tmp;
    long pairs = 0;
    auto add_block = [&]() {
      int64_t blk = seq[next++];
      for (int w = 0; w < 4; ++w) {
        Warp W;
        for (int t = 0; t < 32; ++t) {
          int64_t i = blk * bs + w * 32 + t;
          if (i >= n) break;
          neigh(i, tmp);
          W.nb.push_back(tmp);
          W.maxj = std::max<int>(W.maxj, tmp.size());
        }
        active.push_back(std::move(W));
      }
    };
    for (int q = 0; q < blocksPerSm; ++q) add_block();
    std::mt19937 r2(7);
    while (!active.empty()) {
      // one warp step, a random active warp (warps interleave)
      size_t wi = r2() % active.size();
      Warp& W = active[wi];
      for (auto& v : W.nb)
        if (W.j < (int)v.size()) {
          l1.access(int64_t(v[W.j]) * rec);
          if (rec == 32) {
          }
          ++pairs;
        }
      if (++W.j >= W.maxj) {
        active.erase(active.begin() + wi);
        if (active.size() % 4 == 0 && next < seq.size()) {
          add_block();
        }
      }
    }
    printf(
        "cells %d rec %d blocks/SM %d mode %s: pairs %ld, sector hit %.1f%%, misses per pair "
        "%.3f\n",
        cells, rec, blocksPerSm, mode ? "contiguous" : "strided", pairs,
        100.0 * l1.hits / (l1.hits + l1.misses), double(l1.misses) / pairs);
  }
}

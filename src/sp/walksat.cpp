#include "sp/walksat.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>

#include "mdremap/rng.hpp"

namespace mdremap::sp {

namespace {

// SplitMix64 stream (the same mixer as mdremap::mix64).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(mix64(seed ^ 0x77a1c5a7ULL)) {}
  std::uint64_t next() {
    const std::uint64_t z = s_;
    s_ += 0x9e3779b97f4a7c15ULL;
    return mix64(z);
  }
  // Uniform in [0, n), n < 2^32.
  std::uint32_t below(std::uint64_t n) {
    return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32);
  }
  double uniform() { return uniform01(next()); }

 private:
  std::uint64_t s_;
};

}  // namespace

WalksatResult walksat(const Formula& f, std::vector<std::int8_t>& value, const WalksatParams& p,
                      const std::function<void(std::int64_t, std::int64_t)>& progress) {
  Kokkos::Timer timer;
  WalksatResult res;
  const std::int32_t V = f.nvars;
  const std::int64_t C = f.clauses();
  value.resize(V, 0);
  Rng rng(p.seed);
  for (auto& x : value)
    if (x != 1 && x != -1) x = (rng.next() & 1) ? 1 : -1;

  // Occurrences per literal (index 2v + neg).
  std::vector<std::int64_t> occ_off(2 * static_cast<std::size_t>(V) + 1, 0);
  for (std::int32_t l : f.lits) ++occ_off[2 * lit_var(l) + (lit_neg(l) ? 1 : 0) + 1];
  for (std::size_t i = 1; i < occ_off.size(); ++i) occ_off[i] += occ_off[i - 1];
  std::vector<std::int32_t> occ(f.lits.size());
  {
    std::vector<std::int64_t> fill(occ_off.begin(), occ_off.end() - 1);
    for (std::int64_t c = 0; c < C; ++c)
      for (std::int64_t k = f.clause_offset[c]; k < f.clause_offset[c + 1]; ++k) {
        const std::int32_t l = f.lits[k];
        occ[fill[2 * lit_var(l) + (lit_neg(l) ? 1 : 0)]++] = static_cast<std::int32_t>(c);
      }
  }
  auto is_true = [&](std::int32_t l) {
    return lit_neg(l) ? value[lit_var(l)] < 0 : value[lit_var(l)] > 0;
  };

  // Per clause: number of true literals and the XOR of their variables (the sole true variable
  // when there is one); per variable: clauses it alone satisfies (its break count).
  std::vector<std::int32_t> numtrue(C, 0), crit(C, 0), breaks(V, 0);
  std::vector<std::int32_t> unsat;
  std::vector<std::int32_t> where(C, -1);
  for (std::int64_t c = 0; c < C; ++c) {
    for (std::int64_t k = f.clause_offset[c]; k < f.clause_offset[c + 1]; ++k)
      if (is_true(f.lits[k])) {
        ++numtrue[c];
        crit[c] ^= lit_var(f.lits[k]);
      }
    if (numtrue[c] == 0) {
      where[c] = static_cast<std::int32_t>(unsat.size());
      unsat.push_back(static_cast<std::int32_t>(c));
    } else if (numtrue[c] == 1) {
      ++breaks[crit[c]];
    }
  }
  res.best_unsat = static_cast<std::int64_t>(unsat.size());
  for (std::int64_t c = 0; c < C; ++c)
    if (f.clause_offset[c + 1] == f.clause_offset[c]) {  // an empty clause: nothing to flip
      res.unsat = res.best_unsat;
      res.seconds = timer.seconds();
      return res;
    }

  auto flip = [&](std::int32_t v) {
    value[v] = static_cast<std::int8_t>(-value[v]);
    const int now_true = 2 * v + (value[v] < 0 ? 1 : 0);
    const int now_false = now_true ^ 1;
    for (std::int64_t i = occ_off[now_true]; i < occ_off[now_true + 1]; ++i) {
      const std::int32_t c = occ[i];
      const std::int32_t before = crit[c];
      crit[c] ^= v;
      if (++numtrue[c] == 1) {
        const std::int32_t last = unsat.back();
        unsat[where[c]] = last;
        where[last] = where[c];
        unsat.pop_back();
        where[c] = -1;
        ++breaks[v];
      } else if (numtrue[c] == 2) {
        --breaks[before];
      }
    }
    for (std::int64_t i = occ_off[now_false]; i < occ_off[now_false + 1]; ++i) {
      const std::int32_t c = occ[i];
      crit[c] ^= v;
      if (--numtrue[c] == 0) {
        where[c] = static_cast<std::int32_t>(unsat.size());
        unsat.push_back(c);
        --breaks[v];
      } else if (numtrue[c] == 1) {
        ++breaks[crit[c]];
      }
    }
  };

  while (!unsat.empty() && res.flips < p.max_flips) {
    const std::int32_t c = unsat[rng.below(unsat.size())];
    const std::int64_t b = f.clause_offset[c], e = f.clause_offset[c + 1];
    std::int32_t pick = -1;
    std::int32_t best = 0;
    int ties = 0;
    for (std::int64_t k = b; k < e; ++k) {
      const std::int32_t v = lit_var(f.lits[k]);
      const std::int32_t br = breaks[v];
      if (pick < 0 || br < best) {
        best = br;
        pick = v;
        ties = 1;
      } else if (br == best && rng.below(++ties) == 0) {
        pick = v;
      }
    }
    if (best > 0 && rng.uniform() < p.noise)
      pick = lit_var(f.lits[b + rng.below(static_cast<std::uint64_t>(e - b))]);
    flip(pick);
    ++res.flips;
    res.best_unsat =
        std::min<std::int64_t>(res.best_unsat, static_cast<std::int64_t>(unsat.size()));
    if (progress && (res.flips & ((1 << 20) - 1)) == 0)
      progress(res.flips, static_cast<std::int64_t>(unsat.size()));
  }
  res.unsat = static_cast<std::int64_t>(unsat.size());
  res.solved = unsat.empty();
  res.seconds = timer.seconds();
  return res;
}

}  // namespace mdremap::sp

#include "sp/walksat.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "mdremap/error.hpp"
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
  if (f.literals() > std::int64_t{0xffffffff})
    throw Error(fmt::format("walksat: {} literals exceed the 2^32 this implementation indexes",
                            f.literals()));

  // The walk touches a few entries of several arrays per flip, at random: the working set decides
  // the flip rate once it leaves the caches (a residual of 5M variables is about 1 GB in the
  // plain layout). So the variables that occur are renumbered densely (a residual formula keeps
  // the input's numbering, half of it unused), literals become local codes 2 v + negated, offsets
  // are 32-bit, and a clause's count of true literals and the XOR of their variables share one
  // 8-byte entry.
  std::vector<std::int32_t> local(static_cast<std::size_t>(V), -1), global;
  std::vector<std::uint32_t> coff(static_cast<std::size_t>(C) + 1, 0);
  std::vector<std::uint32_t> clit(static_cast<std::size_t>(f.literals()));
  for (std::int64_t c = 0; c < C; ++c) {
    coff[c + 1] = static_cast<std::uint32_t>(f.clause_offset[c + 1]);
    for (std::int64_t k = f.clause_offset[c]; k < f.clause_offset[c + 1]; ++k) {
      const std::int32_t v = lit_var(f.lits[k]);
      if (local[v] < 0) {
        local[v] = static_cast<std::int32_t>(global.size());
        global.push_back(v);
      }
      clit[k] = 2 * static_cast<std::uint32_t>(local[v]) + (lit_neg(f.lits[k]) ? 1u : 0u);
    }
  }
  const std::int32_t n = static_cast<std::int32_t>(global.size());
  std::vector<std::int8_t> val(static_cast<std::size_t>(n));
  for (std::int32_t v = 0; v < n; ++v) val[v] = value[global[v]];
  auto is_true = [&](std::uint32_t l) { return (l & 1u) ? val[l >> 1] < 0 : val[l >> 1] > 0; };

  // Occurrences per local literal.
  std::vector<std::uint32_t> occ_off(2 * static_cast<std::size_t>(n) + 1, 0);
  for (const std::uint32_t l : clit) ++occ_off[l + 1];
  for (std::size_t i = 1; i < occ_off.size(); ++i) occ_off[i] += occ_off[i - 1];
  std::vector<std::int32_t> occ(clit.size());
  {
    std::vector<std::uint32_t> fill(occ_off.begin(), occ_off.end() - 1);
    for (std::int64_t c = 0; c < C; ++c)
      for (std::uint32_t k = coff[c]; k < coff[c + 1]; ++k)
        occ[fill[clit[k]]++] = static_cast<std::int32_t>(c);
  }

  // Per clause: number of true literals and the XOR of their variables (the sole true variable
  // when there is one); per variable: clauses it alone satisfies (its break count).
  struct State {
    std::int32_t numtrue = 0, crit = 0;
  };
  std::vector<State> st(static_cast<std::size_t>(C));
  std::vector<std::int32_t> breaks(static_cast<std::size_t>(n), 0);
  std::vector<std::int32_t> unsat;
  std::vector<std::int32_t> where(static_cast<std::size_t>(C), -1);
  for (std::int64_t c = 0; c < C; ++c) {
    for (std::uint32_t k = coff[c]; k < coff[c + 1]; ++k)
      if (is_true(clit[k])) {
        ++st[c].numtrue;
        st[c].crit ^= static_cast<std::int32_t>(clit[k] >> 1);
      }
    if (st[c].numtrue == 0) {
      where[c] = static_cast<std::int32_t>(unsat.size());
      unsat.push_back(static_cast<std::int32_t>(c));
    } else if (st[c].numtrue == 1) {
      ++breaks[st[c].crit];
    }
  }
  res.best_unsat = static_cast<std::int64_t>(unsat.size());
  auto write_back = [&] {
    for (std::int32_t v = 0; v < n; ++v) value[global[v]] = val[v];
  };
  for (std::int64_t c = 0; c < C; ++c)
    if (coff[c + 1] == coff[c]) {  // an empty clause: nothing to flip
      res.unsat = res.best_unsat;
      res.seconds = timer.seconds();
      return res;
    }

  if (std::getenv("WS_DEBUG")) fmt::print(stderr, "walksat setup {:.3f} s\n", timer.seconds());
  // The clauses of a literal are read ahead: their entries are independent misses.
  constexpr std::uint32_t kAhead = 4;
  auto flip = [&](std::int32_t v) {
    val[v] = static_cast<std::int8_t>(-val[v]);
    const std::uint32_t now_true = 2 * static_cast<std::uint32_t>(v) + (val[v] < 0 ? 1u : 0u);
    const std::uint32_t now_false = now_true ^ 1u;
    for (std::uint32_t i = occ_off[now_true], e = occ_off[now_true + 1]; i < e; ++i) {
      if (i + kAhead < e) __builtin_prefetch(&st[occ[i + kAhead]]);
      const std::int32_t c = occ[i];
      State& s = st[c];
      const std::int32_t before = s.crit;
      s.crit ^= v;
      if (++s.numtrue == 1) {
        const std::int32_t last = unsat.back();
        unsat[where[c]] = last;
        where[last] = where[c];
        unsat.pop_back();
        where[c] = -1;
        ++breaks[v];
      } else if (s.numtrue == 2) {
        --breaks[before];
      }
    }
    for (std::uint32_t i = occ_off[now_false], e = occ_off[now_false + 1]; i < e; ++i) {
      if (i + kAhead < e) __builtin_prefetch(&st[occ[i + kAhead]]);
      const std::int32_t c = occ[i];
      State& s = st[c];
      s.crit ^= v;
      if (--s.numtrue == 0) {
        where[c] = static_cast<std::int32_t>(unsat.size());
        unsat.push_back(c);
        --breaks[v];
      } else if (s.numtrue == 1) {
        ++breaks[s.crit];
      }
    }
  };

  while (!unsat.empty() && res.flips < p.max_flips) {
    const std::int32_t c = unsat[rng.below(unsat.size())];
    const std::uint32_t b = coff[c], e = coff[c + 1];
    std::int32_t pick = -1;
    std::int32_t best = 0;
    int ties = 0;
    for (std::uint32_t k = b; k < e; ++k) {
      const std::int32_t v = static_cast<std::int32_t>(clit[k] >> 1);
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
      pick = static_cast<std::int32_t>(clit[b + rng.below(e - b)] >> 1);
    flip(pick);
    ++res.flips;
    res.best_unsat =
        std::min<std::int64_t>(res.best_unsat, static_cast<std::int64_t>(unsat.size()));
    if (progress && (res.flips & ((1 << 20) - 1)) == 0)
      progress(res.flips, static_cast<std::int64_t>(unsat.size()));
  }
  write_back();
  res.unsat = static_cast<std::int64_t>(unsat.size());
  res.solved = unsat.empty();
  res.seconds = timer.seconds();
  return res;
}

}  // namespace mdremap::sp

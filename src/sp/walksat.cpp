#include "sp/walksat.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>

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

// How the walk sees the clauses. Each store gives a clause's literals (local codes 2 v + negated)
// and keeps its count of true literals and the XOR of their variables (the sole true variable
// when there is one); inc/dec change the count for variable v turning true/false and return the
// new count, leaving the XOR after the change in `crit`.
//
// Flat: any clause length; offsets, literals and the (count, XOR) pairs in three arrays.
struct FlatStore {
  struct State {
    std::int32_t numtrue = 0, crit = 0;
  };
  std::vector<std::uint32_t> off, lit;
  std::vector<State> st;
  std::uint32_t begin(std::int64_t c) const { return off[c]; }
  std::uint32_t end(std::int64_t c) const { return off[c + 1]; }
  std::uint32_t at(std::int64_t, std::uint32_t k) const { return lit[k]; }
  int count(std::int64_t c) const { return st[c].numtrue; }
  std::int32_t crit(std::int64_t c) const { return st[c].crit; }
  void prefetch(std::int64_t c) const { __builtin_prefetch(&st[c]); }
  int inc(std::int64_t c, std::int32_t v, std::int32_t& crit) {
    State& s = st[c];
    crit = (s.crit ^= v);
    return ++s.numtrue;
  }
  int dec(std::int64_t c, std::int32_t v, std::int32_t& crit) {
    State& s = st[c];
    crit = (s.crit ^= v);
    return --s.numtrue;
  }
};

// Packed: every clause has at most 3 literals and fewer than 2^30 variables occur (random 3-SAT
// and its residuals): a clause is one 16-byte entry, its literals and (XOR << 2 | count)
// together, so picking a clause and updating it after a flip each miss the cache once instead of
// two or three times.
struct PackedStore {
  static constexpr std::uint32_t kNone = 0xffffffffu;
  struct alignas(16) Clause {
    std::uint32_t lit[3] = {kNone, kNone, kNone};
    std::uint32_t meta = 0;  // crit << 2 | numtrue
  };
  std::vector<Clause> cl;
  std::uint32_t begin(std::int64_t) const { return 0; }
  std::uint32_t end(std::int64_t c) const {
    const Clause& x = cl[c];
    return x.lit[2] != kNone ? 3 : x.lit[1] != kNone ? 2 : x.lit[0] != kNone ? 1 : 0;
  }
  std::uint32_t at(std::int64_t c, std::uint32_t k) const { return cl[c].lit[k]; }
  int count(std::int64_t c) const { return static_cast<int>(cl[c].meta & 3u); }
  std::int32_t crit(std::int64_t c) const { return static_cast<std::int32_t>(cl[c].meta >> 2); }
  void prefetch(std::int64_t c) const { __builtin_prefetch(&cl[c]); }
  int inc(std::int64_t c, std::int32_t v, std::int32_t& crit) {
    std::uint32_t& m = cl[c].meta;
    m = ((m ^ (static_cast<std::uint32_t>(v) << 2)) & ~3u) | ((m & 3u) + 1);
    crit = static_cast<std::int32_t>(m >> 2);
    return static_cast<int>(m & 3u);
  }
  int dec(std::int64_t c, std::int32_t v, std::int32_t& crit) {
    std::uint32_t& m = cl[c].meta;
    m = ((m ^ (static_cast<std::uint32_t>(v) << 2)) & ~3u) | ((m & 3u) - 1);
    crit = static_cast<std::int32_t>(m >> 2);
    return static_cast<int>(m & 3u);
  }
};

// The walk itself (SKC with freebies) over local variables 0..n-1 with values `val`; the clauses'
// true counts are set up here. The same random stream and tie order whatever the store.
template <class Store>
void walk(Store& cs, std::int64_t C, std::int32_t n, const std::vector<std::uint32_t>& occ_off,
          const std::vector<std::int32_t>& occ, std::vector<std::int8_t>& val, Rng& rng,
          const WalksatParams& p, const std::function<void(std::int64_t, std::int64_t)>& progress,
          WalksatResult& res) {
  auto is_true = [&](std::uint32_t l) { return (l & 1u) ? val[l >> 1] < 0 : val[l >> 1] > 0; };
  std::vector<std::int32_t> breaks(static_cast<std::size_t>(n), 0);
  std::vector<std::int32_t> unsat;
  std::vector<std::int32_t> where(static_cast<std::size_t>(C), -1);
  for (std::int64_t c = 0; c < C; ++c) {
    std::int32_t crit = 0;
    for (std::uint32_t k = cs.begin(c), e = cs.end(c); k < e; ++k)
      if (is_true(cs.at(c, k))) cs.inc(c, static_cast<std::int32_t>(cs.at(c, k) >> 1), crit);
    if (cs.count(c) == 0) {
      where[c] = static_cast<std::int32_t>(unsat.size());
      unsat.push_back(static_cast<std::int32_t>(c));
    } else if (cs.count(c) == 1) {
      ++breaks[cs.crit(c)];
    }
  }
  res.best_unsat = static_cast<std::int64_t>(unsat.size());
  for (std::int64_t c = 0; c < C; ++c)
    if (cs.end(c) == cs.begin(c)) {  // an empty clause: nothing to flip
      res.unsat = res.best_unsat;
      return;
    }

  // The clauses of a literal are read ahead: their entries are independent misses.
  constexpr std::uint32_t kAhead = 4;
  auto flip = [&](std::int32_t v) {
    val[v] = static_cast<std::int8_t>(-val[v]);
    const std::uint32_t now_true = 2 * static_cast<std::uint32_t>(v) + (val[v] < 0 ? 1u : 0u);
    const std::uint32_t now_false = now_true ^ 1u;
    std::int32_t crit = 0;
    for (std::uint32_t i = occ_off[now_true], e = occ_off[now_true + 1]; i < e; ++i) {
      if (i + kAhead < e) cs.prefetch(occ[i + kAhead]);
      const std::int32_t c = occ[i];
      const int now = cs.inc(c, v, crit);
      if (now == 1) {
        const std::int32_t last = unsat.back();
        unsat[where[c]] = last;
        where[last] = where[c];
        unsat.pop_back();
        where[c] = -1;
        ++breaks[v];
      } else if (now == 2) {
        --breaks[crit ^ v];  // the variable that was true alone before v
      }
    }
    for (std::uint32_t i = occ_off[now_false], e = occ_off[now_false + 1]; i < e; ++i) {
      if (i + kAhead < e) cs.prefetch(occ[i + kAhead]);
      const std::int32_t c = occ[i];
      const int now = cs.dec(c, v, crit);
      if (now == 0) {
        where[c] = static_cast<std::int32_t>(unsat.size());
        unsat.push_back(c);
        --breaks[v];
      } else if (now == 1) {
        ++breaks[crit];
      }
    }
  };

  while (!unsat.empty() && res.flips < p.max_flips) {
    const std::int32_t c = unsat[rng.below(unsat.size())];
    const std::uint32_t b = cs.begin(c), e = cs.end(c);
    std::int32_t pick = -1;
    std::int32_t best = 0;
    int ties = 0;
    for (std::uint32_t k = b; k < e; ++k) {
      const std::int32_t v = static_cast<std::int32_t>(cs.at(c, k) >> 1);
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
      pick = static_cast<std::int32_t>(cs.at(c, b + rng.below(e - b)) >> 1);
    flip(pick);
    ++res.flips;
    res.best_unsat =
        std::min<std::int64_t>(res.best_unsat, static_cast<std::int64_t>(unsat.size()));
    if (progress && (res.flips & ((1 << 20) - 1)) == 0)
      progress(res.flips, static_cast<std::int64_t>(unsat.size()));
  }
  res.unsat = static_cast<std::int64_t>(unsat.size());
  res.solved = unsat.empty();
}

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
  // the input's numbering, half of it unused), literals become local codes 2 v + negated, and
  // offsets are 32-bit; short clauses are packed whole (PackedStore).
  std::vector<std::int32_t> local(static_cast<std::size_t>(V), -1), global;
  std::vector<std::uint32_t> clit(static_cast<std::size_t>(f.literals()));
  int longest = 0;
  for (std::int64_t c = 0; c < C; ++c) {
    longest = std::max(longest, f.clause_size(c));
    for (std::int64_t k = f.clause_offset[c]; k < f.clause_offset[c + 1]; ++k) {
      const std::int32_t v = lit_var(f.lits[k]);
      if (local[v] < 0) {
        local[v] = static_cast<std::int32_t>(global.size());
        global.push_back(v);
      }
      clit[k] = 2 * static_cast<std::uint32_t>(local[v]) + (lit_neg(f.lits[k]) ? 1u : 0u);
    }
  }
  local = {};
  const std::int32_t n = static_cast<std::int32_t>(global.size());
  std::vector<std::int8_t> val(static_cast<std::size_t>(n));
  for (std::int32_t v = 0; v < n; ++v) val[v] = value[global[v]];

  // Occurrences per local literal.
  std::vector<std::uint32_t> occ_off(2 * static_cast<std::size_t>(n) + 1, 0);
  for (const std::uint32_t l : clit) ++occ_off[l + 1];
  for (std::size_t i = 1; i < occ_off.size(); ++i) occ_off[i] += occ_off[i - 1];
  std::vector<std::int32_t> occ(clit.size());
  {
    std::vector<std::uint32_t> fill(occ_off.begin(), occ_off.end() - 1);
    for (std::int64_t c = 0; c < C; ++c)
      for (std::int64_t k = f.clause_offset[c]; k < f.clause_offset[c + 1]; ++k)
        occ[fill[clit[k]]++] = static_cast<std::int32_t>(c);
  }

  if (p.packed && longest <= 3 && n < (1 << 30)) {
    PackedStore cs;
    cs.cl.resize(static_cast<std::size_t>(C));
    for (std::int64_t c = 0; c < C; ++c)
      for (std::int64_t k = f.clause_offset[c]; k < f.clause_offset[c + 1]; ++k)
        cs.cl[c].lit[k - f.clause_offset[c]] = clit[k];
    clit = {};
    walk(cs, C, n, occ_off, occ, val, rng, p, progress, res);
  } else {
    FlatStore cs;
    cs.off.resize(static_cast<std::size_t>(C) + 1);
    for (std::int64_t c = 0; c <= C; ++c)
      cs.off[c] = static_cast<std::uint32_t>(f.clause_offset[c]);
    cs.lit = std::move(clit);
    cs.st.resize(static_cast<std::size_t>(C));
    walk(cs, C, n, occ_off, occ, val, rng, p, progress, res);
  }
  for (std::int32_t v = 0; v < n; ++v) value[global[v]] = val[v];
  res.seconds = timer.seconds();
  return res;
}

}  // namespace mdremap::sp

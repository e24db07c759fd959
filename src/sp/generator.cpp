#include "sp/generator.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <cctype>
#include <limits>

#include "mdremap/error.hpp"
#include "mdremap/rng.hpp"

namespace mdremap::sp {

std::string RandomSpec::name() const {
  return fmt::format("random-{}-{}-{}", clauses, vars, k);
}

std::optional<RandomSpec> parse_random_spec(const std::string& text) {
  const std::string prefix = "random-";
  if (text.rfind(prefix, 0) != 0) return std::nullopt;
  std::int64_t num[3] = {0, 0, 0};
  std::size_t pos = prefix.size();
  for (int i = 0; i < 3; ++i) {
    const std::size_t start = pos;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
      if (pos - start >= 18) return std::nullopt;
      num[i] = num[i] * 10 + (text[pos] - '0');
      ++pos;
    }
    if (pos == start) return std::nullopt;
    if (i < 2) {
      if (pos >= text.size() || text[pos] != '-') return std::nullopt;
      ++pos;
    }
  }
  if (pos != text.size()) return std::nullopt;
  const std::string what = "generator '" + text + "' (random-CLAUSES-VARIABLES-K)";
  if (num[1] < 1 || num[1] > std::numeric_limits<std::int32_t>::max() - 1)
    throw Error(what + ": VARIABLES must be 1.." +
                std::to_string(std::numeric_limits<std::int32_t>::max() - 1));
  if (num[2] < 1 || num[2] > 1000) throw Error(what + ": K must be 1..1000");
  if (num[2] > num[1]) throw Error(what + ": K distinct variables need K <= VARIABLES");
  if (num[0] > std::numeric_limits<std::int32_t>::max() / num[2])
    throw Error(what + ": more than 2^31 - 1 literals");
  RandomSpec s;
  s.clauses = num[0];
  s.vars = static_cast<std::int32_t>(num[1]);
  s.k = static_cast<int>(num[2]);
  return s;
}

Formula generate_random_ksat(const RandomSpec& spec, std::uint64_t seed) {
  Formula f;
  f.nvars = spec.vars;
  const std::int64_t C = spec.clauses;
  const int k = spec.k;
  f.clause_offset.resize(C + 1);
  f.lits.resize(static_cast<std::size_t>(C) * k);
  std::int64_t* off = f.clause_offset.data();
  std::int32_t* lits = f.lits.data();
  const std::int32_t V = spec.vars;
  Kokkos::parallel_for(
      "SP::generate_random_ksat", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, C + 1),
      [=](const std::int64_t c) {
        off[c] = c * k;
        if (c == C) return;
        std::int32_t* cl = lits + c * k;
        std::uint64_t draw = 0;
        for (int i = 0; i < k; ++i) {
          for (;;) {
            const std::uint64_t h = hash3(seed, static_cast<std::uint64_t>(c), draw++);
            std::int32_t v = static_cast<std::int32_t>(uniform01(h) * V);
            if (v >= V) v = V - 1;
            bool fresh = true;
            for (int m = 0; m < i; ++m) fresh &= lit_var(cl[m]) != v;
            if (!fresh) continue;
            cl[i] = (h & 1) ? -(v + 1) : (v + 1);
            break;
          }
        }
      });
  Kokkos::fence();
  return f;
}

}  // namespace mdremap::sp

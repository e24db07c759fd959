#include "cg/system.hpp"

#include <fmt/format.h>

#include <chrono>

#include "cg/matrix_market.hpp"
#include "cg/transactions.hpp"
#include "mdremap/error.hpp"
#include "mdremap/remap/reorders.hpp"

namespace mdremap::cg {

double generated_solution(const std::string& kind, std::uint64_t seed, std::int64_t natural_row) {
  if (kind == "ones") return 1.0;
  return 2.0 * unit(mix(seed, 0x78737461ULL, static_cast<std::uint64_t>(natural_row))) - 1.0;
}

namespace {

// A vector given in the file's (natural) row order, moved to the permuted order.
std::vector<double> to_permuted(std::vector<double> v, const std::vector<std::int32_t>& natural) {
  if (natural.empty()) return v;
  std::vector<double> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[natural[i]];
  return out;
}

// The thread (row) order a reordering asks for, new -> old, from the SpMV's pattern: labelprop
// clusters (seed 001 §3.4), or cache-fit parts of whole rows bisected by coarsened bisection
// (seed 002 Algorithm 1; a permuted matrix's ids carry no locality for k-d tiling to find).
remap::ThreadPermutation reorder_rows(const CgParams& p, const HostCsr& a) {
  remap::ReorderHints hints;
  hints.granularity = remap::PartitionGranularity::threads;
  hints.bisector = remap::Bisector::coarsened;
  return remap::reorder_threads(p.remap, spmv_pattern(a), hints);
}

}  // namespace

LinearSystem build_system(const CgParams& p) {
  LinearSystem s;
  const auto t0 = std::chrono::steady_clock::now();
  if (!p.matrix_file.empty()) {
    s.a = read_cg_matrix_file(p.matrix_file);
    s.source = "file " + p.matrix_file;
  } else {
    s.a = generate(p.gen);
    s.source = "generator " + p.gen.name;
  }
  if (p.permute) {
    const auto perm = random_permutation(s.a.rows, p.permute_seed);
    s.a = permute_symmetric(s.a, perm);
    s.natural = invert_permutation(perm);
  }
  s.matrix_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::int64_t n = s.a.rows;
  if (!p.solution_file.empty())
    s.xstar = to_permuted(read_vector_file(p.solution_file, n), s.natural);
  if (!p.rhs_file.empty()) {
    s.b = to_permuted(read_vector_file(p.rhs_file, n), s.natural);
    return s;
  }
  if (s.xstar.empty()) {
    s.xstar.resize(n);
    for (std::int64_t i = 0; i < n; ++i)
      s.xstar[i] = generated_solution(p.solution_kind, p.solution_seed,
                                      s.natural.empty() ? i : s.natural[i]);
  }
  spmv_reference(s.a, s.xstar, s.b);
  return s;
}

bool reorder_on_host(LinearSystem& s, const CgParams& p) {
  // labelprop and auto: on the device (cg/device_reorder.hpp)
  if (p.remap.reorder != remap::Reorder::Partition &&
      p.remap.reorder != remap::Reorder::LabelPropHost)
    return false;
  // Rows and columns together (CG's vectors live in both spaces): P A P^T once, before the
  // solve; b, x* and the natural order follow.
  const auto t1 = std::chrono::steady_clock::now();
  const remap::ThreadPermutation order = reorder_rows(p, s.a);
  std::vector<std::int32_t> new_of_old(order.size());
  std::vector<std::int32_t> natural(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    new_of_old[order[i]] = static_cast<std::int32_t>(i);
    natural[i] = s.natural.empty() ? static_cast<std::int32_t>(order[i]) : s.natural[order[i]];
  }
  s.a = permute_symmetric(s.a, new_of_old);
  auto follow = [&order](std::vector<double>& v) {
    if (v.empty()) return;
    std::vector<double> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[order[i]];
    v = std::move(out);
  };
  follow(s.b);
  follow(s.xstar);
  s.natural = std::move(natural);
  s.reorder_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  return true;
}

}  // namespace mdremap::cg

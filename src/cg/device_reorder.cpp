// The CG matrix reordered on the device (cg/device_reorder.hpp).
#include "cg/device_reorder.hpp"

#include <fmt/format.h>

#include <Kokkos_NestedSort.hpp>

#include "mdremap/error.hpp"

namespace mdremap::cg {

namespace {
using Policy = Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>;
constexpr int kThreadSortLen = 32;  // rows up to this long are sorted by one thread
}  // namespace

remap::GraphOrder labelprop_order(const DeviceCsr& a, int cluster_rows) {
  if (a.rows != a.cols) throw Error("cg: labelprop reorders square matrices only");
  remap::GraphOrderOptions o;
  o.cluster_nodes = cluster_rows;
  return remap::multilevel_label_order({a.rowptr, a.col, a.rows}, o);
}

DeviceCsr permute_symmetric(const DeviceCsr& a, Kokkos::View<const int*> order) {
  if (a.rows != a.cols || static_cast<std::int64_t>(order.extent(0)) != a.rows)
    throw Error("cg: a symmetric permutation needs a square matrix and one entry per row");
  const std::int64_t n = a.rows;
  DeviceCsr d = DeviceCsr::allocate(n, n, a.nnz, a.max_len);
  Kokkos::View<int*> new_of_old(Kokkos::view_alloc("cg::new_of_old", Kokkos::WithoutInitializing),
                                n);
  const auto len = a.len;
  const auto rp = a.rowptr;
  const auto col = a.col;
  const auto val = a.val;
  const auto nlen = d.len;
  const auto nrp = d.rowptr;
  const auto ncol = d.col;
  const auto nval = d.val;
  Kokkos::parallel_for(
      "CG::reorder_lengths", Policy(0, n), KOKKOS_LAMBDA(const std::int64_t i) {
        const int o = order(i);
        new_of_old(o) = static_cast<int>(i);
        nlen(i) = len(o);
      });
  Kokkos::parallel_scan(
      "CG::reorder_rowptr", Policy(0, n + 1),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& p, const bool final) {
        if (final) nrp(i) = p;
        if (i < n) p += nlen(i);
      });
  // Each row's entries with their new columns, sorted by column: short rows by one thread in
  // registers (an insertion sort), the long ones below, a team each.
  Kokkos::parallel_for(
      "CG::reorder_fill", Policy(0, n), KOKKOS_LAMBDA(const std::int64_t i) {
        const int o = order(i);
        const std::int64_t src = rp(o), dst = nrp(i);
        const int m = nlen(i);
        if (m > kThreadSortLen) {
          for (int k = 0; k < m; ++k) {
            ncol(dst + k) = new_of_old(col(src + k));
            nval(dst + k) = val(src + k);
          }
          return;
        }
        int c[kThreadSortLen];
        double v[kThreadSortLen];
        for (int k = 0; k < m; ++k) {
          const int ck = new_of_old(col(src + k));
          const double vk = val(src + k);
          int j = k - 1;
          for (; j >= 0 && c[j] > ck; --j) {
            c[j + 1] = c[j];
            v[j + 1] = v[j];
          }
          c[j + 1] = ck;
          v[j + 1] = vk;
        }
        for (int k = 0; k < m; ++k) {
          ncol(dst + k) = c[k];
          nval(dst + k) = v[k];
        }
      });
  if (a.max_len > kThreadSortLen) {
    std::int64_t nlong = 0;
    Kokkos::parallel_reduce(
        "CG::reorder_long_count", Policy(0, n),
        KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& c) { c += nlen(i) > kThreadSortLen; },
        nlong);
    Kokkos::View<std::int64_t*> longs(
        Kokkos::view_alloc("cg::reorder_long_rows", Kokkos::WithoutInitializing), nlong);
    Kokkos::parallel_scan(
        "CG::reorder_long_rows", Policy(0, n),
        KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& p, const bool final) {
          if (nlen(i) <= kThreadSortLen) return;
          if (final) longs(p) = i;
          ++p;
        });
    using Team = Kokkos::TeamPolicy<>;
    Kokkos::parallel_for(
        "CG::reorder_sort_long", Team(nlong, Kokkos::AUTO),
        KOKKOS_LAMBDA(const Team::member_type& t) {
          const std::int64_t i = longs(t.league_rank());
          const Kokkos::pair<std::int64_t, std::int64_t> r(nrp(i), nrp(i + 1));
          Kokkos::Experimental::sort_by_key_team(t, Kokkos::subview(ncol, r),
                                                 Kokkos::subview(nval, r));
        });
  }
  return d;
}

Kokkos::View<double*> permute_vector(Kokkos::View<const double*> v,
                                     Kokkos::View<const int*> order) {
  const std::int64_t n = v.extent(0);
  Kokkos::View<double*> out(Kokkos::view_alloc(std::string(v.label()), Kokkos::WithoutInitializing),
                            n);
  if (n > 0) permute_vector_into(v, order, out);
  return out;
}

namespace {
void check_lengths(std::int64_t v, std::int64_t order, std::int64_t out) {
  if (order != v || out != v)
    throw Error("cg: a permuted vector needs one order entry per element");
}
}  // namespace

void permute_vector_into(Kokkos::View<const double*> v, Kokkos::View<const int*> order,
                         Kokkos::View<double*> out) {
  check_lengths(v.extent(0), order.extent(0), out.extent(0));
  Kokkos::parallel_for(
      "CG::reorder_vector", Policy(0, v.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t i) { out(i) = v(order(i)); });
}

void unpermute_vector_into(Kokkos::View<const double*> v, Kokkos::View<const int*> order,
                           Kokkos::View<double*> out) {
  check_lengths(v.extent(0), order.extent(0), out.extent(0));
  Kokkos::parallel_for(
      "CG::unreorder_vector", Policy(0, v.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t i) { out(order(i)) = v(i); });
}

Kokkos::View<int*> pseudo_random_order(int bits) {
  if (bits < 2 || bits > 30 || bits % 2)
    throw Error("cg: a pseudo-random order needs an even bit count in 2..30");
  const std::int64_t n = std::int64_t(1) << bits;
  const int half = bits / 2;
  const std::uint32_t mask = (1u << half) - 1;
  Kokkos::View<int*> o(Kokkos::view_alloc("cg::pseudo_random_order", Kokkos::WithoutInitializing),
                       n);
  Kokkos::parallel_for(
      "CG::pseudo_random_order", Policy(0, n), KOKKOS_LAMBDA(const std::int64_t i) {
        std::uint32_t l = static_cast<std::uint32_t>(i) >> half;
        std::uint32_t r = static_cast<std::uint32_t>(i) & mask;
        for (std::uint32_t round = 0; round < 4; ++round) {
          std::uint32_t h = (r + 0x9E3779B9u * (round + 1)) * 0x85EBCA6Bu;
          h ^= h >> 13;
          h *= 0xC2B2AE35u;
          h ^= h >> 16;
          const std::uint32_t next = l ^ (h & mask);
          l = r;
          r = next;
        }
        o(i) = static_cast<int>((l << half) | r);
      });
  return o;
}

double scattered_fraction(const DeviceCsr& a, std::int64_t reach) {
  if (a.nnz == 0) return 0.0;
  const auto rp = a.rowptr;
  const auto col = a.col;
  std::int64_t far = 0;
  Kokkos::parallel_reduce(
      "CG::scattered_entries", Policy(0, a.rows),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& c) {
        for (std::int64_t k = rp(i); k < rp(i + 1); ++k) {
          const std::int64_t d = col(k) - i;
          c += d > reach || d < -reach;
        }
      },
      far);
  return static_cast<double>(far) / static_cast<double>(a.nnz);
}

std::string describe(const remap::GraphOrder& g) {
  std::string levels;
  for (std::size_t l = 0; l + 1 < g.level_nodes.size(); ++l)
    levels += fmt::format("{}{} -> {} in {} rounds ({:.2f} ms)", l ? ", " : ": ", g.level_nodes[l],
                          g.level_nodes[l + 1], g.level_rounds[l], 1e3 * g.level_seconds[l]);
  return fmt::format(
      "multilevel label propagation on the device (seed 001 §3.4): {} level{}{}; order {:.2f} ms",
      g.level_rounds.size(), g.level_rounds.size() == 1 ? "" : "s", levels, 1e3 * g.order_seconds);
}

}  // namespace mdremap::cg

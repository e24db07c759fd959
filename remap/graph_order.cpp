// Multilevel label-propagation order on the device (include/mdremap/remap/graph_order.hpp).
#include "mdremap/remap/graph_order.hpp"

#include <fmt/format.h>
#include <Kokkos_Sort.hpp>
#include <climits>

#include <algorithm>
#include <string>
#include <type_traits>
#if defined(KOKKOS_ENABLE_CUDA)
#include <cub/device/device_radix_sort.cuh>
#endif

#include "mdremap/error.hpp"

namespace mdremap::remap {

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Policy = Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>;
constexpr int kUnreached = INT_MAX;  // hop of a node not labelled yet
constexpr int kCandidates = 32;      // labels a node weighs (its first 32 labelled neighbours)

KOKKOS_INLINE_FUNCTION std::uint64_t mix64(std::uint64_t z) {  // splitmix64's finaliser
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

int bits_for(std::uint64_t v) {  // bits to hold 0 .. v
  int b = 0;
  while (b < 64 && (v >> b) != 0) ++b;
  return b;
}

// Buffers shared by the levels (sized by level 0, the largest): two key arrays (the radix sort's
// double buffer), positions, the sort's temporary storage and the round's pending labels.
struct Scratch {
  Kokkos::View<std::uint64_t*> keys[2];
  Kokkos::View<std::int64_t*> pos;
  Kokkos::View<int*> pending;
  Kokkos::View<unsigned char*> temp;
  int current = 0;  // which of keys[] holds the sorted keys
  template <class V>
  static void fit(V& v, std::int64_t size, const char* name) {
    if (static_cast<std::int64_t>(v.extent(0)) < size)
      v = V(Kokkos::view_alloc(std::string(name), Kokkos::WithoutInitializing), size);
  }
  void fit_keys(std::int64_t size) {
    fit(keys[0], size, "Remap::graph_order_keys");
    fit(keys[1], size, "Remap::graph_order_keys2");
  }
  Kokkos::View<std::uint64_t*> sorted(std::int64_t size) const {
    return Kokkos::subview(keys[current], std::make_pair(std::int64_t(0), size));
  }
};

// Sorts keys[0][0, size) (every key below 2^bits); the result is s.sorted(size). On CUDA a radix
// sort over the key's bits only, in the scratch's buffers (no allocation per call); elsewhere
// Kokkos::sort.
void sort_keys(Scratch& s, std::int64_t size, int bits) {
  s.current = 0;
  if (size < 2) return;
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>)
    if (size <= INT_MAX) {
      cub::DoubleBuffer<std::uint64_t> buf(s.keys[0].data(), s.keys[1].data());
      std::size_t bytes = 0;
      const int end_bit = std::max(1, bits);
      cub::DeviceRadixSort::SortKeys(nullptr, bytes, buf, static_cast<int>(size), 0, end_bit,
                                     Space().cuda_stream());
      Scratch::fit(s.temp, static_cast<std::int64_t>(bytes), "Remap::graph_order_sort_temp");
      if (cub::DeviceRadixSort::SortKeys(s.temp.data(), bytes, buf, static_cast<int>(size), 0,
                                         end_bit, Space().cuda_stream()) != cudaSuccess)
        throw Error("graph order: the radix sort failed");
      s.current = buf.Current() == s.keys[0].data() ? 0 : 1;
      return;
    }
#endif
  (void)bits;
  Kokkos::sort(Space(), Kokkos::subview(s.keys[0], std::make_pair(std::int64_t(0), size)));
}

// Seed picks: about one node in `spacing` by a salted hash; or an unlabelled node none of whose
// unlabelled neighbours has a smaller id (each component has one).
struct HashPick {
  std::uint64_t salt, spacing;
  KOKKOS_INLINE_FUNCTION bool operator()(const std::int64_t u) const {
    return mix64(salt ^ mix64(static_cast<std::uint64_t>(u))) % spacing == 0;
  }
};
struct LocalMinimum {
  Kokkos::View<const std::int64_t*> off;
  Kokkos::View<const int*> adj;
  Kokkos::View<const int*> label;
  KOKKOS_INLINE_FUNCTION bool operator()(const std::int64_t u) const {
    for (std::int64_t e = off(u); e < off(u + 1); ++e) {
      const int v = adj(e);
      if (v < u && label(v) < 0) return false;
    }
    return true;
  }
};

// One level's graph (level 0 borrows the input's views) and its clustering.
struct Level {
  Kokkos::View<const std::int64_t*> offsets;
  Kokkos::View<const int*> adj;
  std::int64_t nodes = 0;
  Kokkos::View<int*> label, hop;  // cluster of each node; the round it was labelled at
  std::int64_t clusters = 0;
  int rounds = 0;
};

// Seeds the unlabelled nodes that have a neighbour and pass `pick`; a seed's label is its own id
// until propagate numbers the clusters densely at the end (a numbering scan per call cost more
// than the rounds). Returns how many. The picks are made first, into `flag`, so that a pick that
// reads labels (LocalMinimum) sees none of this call's new seeds.
template <class Pick>
std::int64_t add_seeds(const Level& L, Kokkos::View<int*> flag, int round, Pick pick) {
  const auto off = L.offsets;
  const auto adj = L.adj;
  const auto label = L.label;
  const auto hop = L.hop;
  Kokkos::parallel_for(
      "Remap::graph_order_pick", Policy(0, L.nodes), KOKKOS_LAMBDA(const std::int64_t u) {
        bool linked = false;
        if (label(u) < 0)
          for (std::int64_t e = off(u); e < off(u + 1) && !linked; ++e) linked = adj(e) != u;
        flag(u) = linked && pick(u);
      });
  std::int64_t added = 0;
  Kokkos::parallel_reduce(
      "Remap::graph_order_seeds", Policy(0, L.nodes),
      KOKKOS_LAMBDA(const std::int64_t u, std::int64_t& c) {
        if (!flag(u)) return;
        label(u) = static_cast<int>(u);
        hop(u) = round;
        ++c;
      },
      added);
  return added;
}

// seed 001 §3.4 on one level's graph: labels and hops of every node, clusters and rounds.
void propagate(Level& L, Scratch& scratch, int spacing, std::uint64_t salt) {
  const std::int64_t n = L.nodes;
  L.label = Kokkos::View<int*>(
      Kokkos::view_alloc("Remap::graph_order_label", Kokkos::WithoutInitializing), n);
  L.hop = Kokkos::View<int*>(
      Kokkos::view_alloc("Remap::graph_order_hop", Kokkos::WithoutInitializing), n);
  Scratch::fit(scratch.pending, n, "Remap::graph_order_pending");
  const auto pending = scratch.pending;
  const auto off = L.offsets;
  const auto adj = L.adj;
  const auto label = L.label;
  const auto hop = L.hop;
  std::int64_t linked = 0;  // nodes with a neighbour other than themselves
  Kokkos::parallel_reduce(
      "Remap::graph_order_init", Policy(0, n),
      KOKKOS_LAMBDA(const std::int64_t u, std::int64_t& c) {
        label(u) = -1;
        hop(u) = kUnreached;
        bool any = false;
        for (std::int64_t e = off(u); e < off(u + 1) && !any; ++e) any = adj(e) != u;
        if (any) ++c;
      },
      linked);

  const std::uint64_t us = static_cast<std::uint64_t>(spacing);
  std::int64_t labelled = add_seeds(L, pending, 0, HashPick{salt, us});
  std::int64_t last_gain = 0;
  int round = 0;
  while (labelled < linked) {
    ++round;
    // Synchronous round: labels of earlier rounds only, the new ones committed after.
    std::int64_t gained = 0;
    const int r = round;
    Kokkos::parallel_reduce(
        "Remap::graph_order_round", Policy(0, n),
        KOKKOS_LAMBDA(const std::int64_t u, std::int64_t& g) {
          pending(u) = -1;
          if (hop(u) != kUnreached) return;
          int cand[kCandidates];
          int k = 0;
          for (std::int64_t e = off(u); e < off(u + 1) && k < kCandidates; ++e) {
            const int v = adj(e);
            if (v != u && hop(v) < r) cand[k++] = label(v);
          }
          if (k == 0) return;
          int best = -1, best_n = 0;
          for (int i = 0; i < k; ++i) {
            int c = 0;
            for (int j = 0; j < k; ++j) c += cand[j] == cand[i];
            if (c > best_n || (c == best_n && cand[i] < best)) {
              best = cand[i];
              best_n = c;
            }
          }
          pending(u) = best;
          ++g;
        },
        gained);
    if (gained > 0) {
      Kokkos::parallel_for(
          "Remap::graph_order_commit", Policy(0, n), KOKKOS_LAMBDA(const std::int64_t u) {
            if (pending(u) >= 0) {
              label(u) = pending(u);
              hop(u) = r;
            }
          });
      labelled += gained;
      // Once the fronts slow down (clusters meeting), the nodes still far from every seed get
      // seeds of their own at the same rate: a random placement leaves gaps whose filling
      // would take many more rounds (about 30 on a 1000 x 1000 grid at 128 nodes a cluster).
      if (gained < last_gain && labelled < linked) {
        labelled +=
            add_seeds(L, pending, r, HashPick{mix64(salt + static_cast<std::uint64_t>(r)), us});
      }
      last_gain = gained;
      continue;
    }
    // Nothing reached: a component without a seed. Seed it by a new hash, else at local minima
    // (every component has one), so each stalled round adds at least one seed.
    std::int64_t s =
        add_seeds(L, pending, r, HashPick{mix64(salt + ~static_cast<std::uint64_t>(r)), us});
    if (s == 0) s = add_seeds(L, pending, r, LocalMinimum{off, adj, label});
    if (s == 0)
      throw Error(fmt::format(
          "graph order: label propagation stalled at round {} with {} of {} nodes labelled "
          "(internal error)",
          r, labelled, linked));
    labelled += s;
  }
  // Clusters numbered densely in their seeds' order (a seed is the node whose label is its own
  // id), then the nodes without a neighbour as one last cluster.
  std::int64_t seeds = 0;
  Kokkos::parallel_scan(
      "Remap::graph_order_number", Policy(0, n),
      KOKKOS_LAMBDA(const std::int64_t u, std::int64_t& p, const bool final) {
        if (label(u) != u) return;
        if (final) pending(u) = static_cast<int>(p);
        ++p;
      },
      seeds);
  const int last = static_cast<int>(seeds);
  Kokkos::parallel_for(
      "Remap::graph_order_renumber", Policy(0, n), KOKKOS_LAMBDA(const std::int64_t u) {
        if (label(u) < 0) {
          label(u) = last;
          hop(u) = 0;
        } else {
          label(u) = pending(label(u));
        }
      });
  L.clusters = seeds + (linked < n ? 1 : 0);
  L.rounds = round;
}

// The graph of L's clusters: an edge between two clusters where any of their nodes are adjacent.
Level coarsen(const Level& L, Scratch& scratch) {
  const auto off = L.offsets;
  const auto adj = L.adj;
  const auto label = L.label;
  const std::int64_t n = L.nodes;
  Scratch::fit(scratch.pos, n + 1, "Remap::graph_order_pos");
  const auto pos = scratch.pos;
  std::int64_t cut = 0;
  Kokkos::parallel_scan(
      "Remap::graph_order_cut_count", Policy(0, n + 1),
      KOKKOS_LAMBDA(const std::int64_t u, std::int64_t& p, const bool final) {
        if (final) pos(u) = p;
        if (u == n) return;
        const int lu = label(u);
        for (std::int64_t e = off(u); e < off(u + 1); ++e) p += label(adj(e)) != lu;
      },
      cut);
  // Edge (lu, lv) as the key lu * nc + lv: sorted, then unique.
  const std::uint64_t nc = static_cast<std::uint64_t>(L.clusters);
  scratch.fit_keys(cut);
  {
    const auto fill = scratch.keys[0];
    Kokkos::parallel_for(
        "Remap::graph_order_cut_fill", Policy(0, n), KOKKOS_LAMBDA(const std::int64_t u) {
          const int lu = label(u);
          std::int64_t p = pos(u);
          for (std::int64_t e = off(u); e < off(u + 1); ++e) {
            const int lv = label(adj(e));
            if (lv != lu)
              fill(p++) = static_cast<std::uint64_t>(lu) * nc + static_cast<std::uint64_t>(lv);
          }
        });
  }
  sort_keys(scratch, cut, bits_for(nc * nc - 1));
  const auto keys = scratch.sorted(cut);
  // Unique edges (their positions in the scratch's position array: the node positions are no
  // longer needed), then the coarse graph's offsets from their sources.
  std::int64_t m = 0;
  Scratch::fit(scratch.pos, cut + 1, "Remap::graph_order_pos");
  const auto at = scratch.pos;
  Kokkos::parallel_scan(
      "Remap::graph_order_unique", Policy(0, cut + 1),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& p, const bool final) {
        if (final) at(i) = p;
        if (i < cut && (i == 0 || keys(i) != keys(i - 1))) ++p;
      },
      m);
  Level C;
  C.nodes = L.clusters;
  Kokkos::View<std::int64_t*> coff(
      Kokkos::view_alloc("Remap::graph_order_coarse_offsets", Kokkos::WithoutInitializing),
      C.nodes + 1);
  Kokkos::View<int*> cadj(
      Kokkos::view_alloc("Remap::graph_order_coarse_adj", Kokkos::WithoutInitializing), m);
  // Entry j of the unique list starts every cluster from the previous entry's source + 1 to its
  // own source (clusters without edges get empty ranges); the last closes the rest.
  const std::int64_t ncs = C.nodes;
  Kokkos::parallel_for(
      "Remap::graph_order_coarse_graph", Policy(0, cut + 1), KOKKOS_LAMBDA(const std::int64_t i) {
        const bool first = i == cut || i == 0 || keys(i) != keys(i - 1);
        if (!first) return;
        const std::int64_t src = i < cut ? static_cast<std::int64_t>(keys(i) / nc) : ncs;
        const std::int64_t prev = i > 0 ? static_cast<std::int64_t>(keys(i - 1) / nc) : -1;
        for (std::int64_t c = prev + 1; c <= src; ++c) coff(c) = at(i);
        if (i < cut) cadj(at(i)) = static_cast<int>(keys(i) % nc);
      });
  C.offsets = coff;
  C.adj = cadj;
  return C;
}

}  // namespace

GraphOrder multilevel_label_order(const DeviceGraph& g, const GraphOrderOptions& o) {
  if (o.cluster_nodes < 2) throw Error("graph order: cluster_nodes must be at least 2");
  if (o.max_levels < 1) throw Error("graph order: max_levels must be at least 1");
  if (g.nodes > INT_MAX) throw Error("graph order: more than 2^31 - 1 nodes");
  GraphOrder out;
  const std::int64_t n = g.nodes;
  out.order =
      Kokkos::View<int*>(Kokkos::view_alloc("Remap::graph_order", Kokkos::WithoutInitializing), n);
  if (n == 0) return out;

  std::vector<Level> levels;
  Scratch scratch;
  Level top;
  top.offsets = g.offsets;
  top.adj = g.adj;
  top.nodes = n;
  while (true) {
    out.level_nodes.push_back(top.nodes);
    if (top.nodes <= o.cluster_nodes || static_cast<int>(levels.size()) == o.max_levels) break;
    Kokkos::Timer clock;
    propagate(top, scratch, o.cluster_nodes, mix64(o.seed + levels.size()));
    if (top.clusters >= top.nodes) break;  // nothing merged (no edges): this level adds no order
    out.level_rounds.push_back(top.rounds);
    Level next = coarsen(top, scratch);
    Kokkos::fence();
    out.level_seconds.push_back(clock.seconds());
    levels.push_back(std::move(top));
    top = std::move(next);
  }

  Kokkos::Timer order_clock;
  // Top down: rank of every node of level l from its cluster's rank at level l + 1, its round and
  // its id (unique keys, so the sort's order is the order).
  Kokkos::View<int*> rank(
      Kokkos::view_alloc("Remap::graph_order_rank", Kokkos::WithoutInitializing), top.nodes);
  Kokkos::parallel_for(
      "Remap::graph_order_top", Policy(0, top.nodes),
      KOKKOS_LAMBDA(const std::int64_t u) { rank(u) = static_cast<int>(u); });
  for (int l = static_cast<int>(levels.size()) - 1; l >= 0; --l) {
    const Level& L = levels[l];
    const int id_bits = bits_for(static_cast<std::uint64_t>(L.nodes - 1));
    const int hop_bits = bits_for(static_cast<std::uint64_t>(L.rounds));
    const int rank_bits = bits_for(static_cast<std::uint64_t>(L.clusters - 1));
    if (id_bits + hop_bits + rank_bits > 64)
      throw Error(fmt::format("graph order: level {} needs {}-bit keys", l,
                              id_bits + hop_bits + rank_bits));
    scratch.fit_keys(L.nodes);
    const auto keys = scratch.keys[0];
    const auto label = L.label;
    const auto hop = L.hop;
    const auto parent = rank;
    Kokkos::parallel_for(
        "Remap::graph_order_keys", Policy(0, L.nodes), KOKKOS_LAMBDA(const std::int64_t u) {
          keys(u) = (((static_cast<std::uint64_t>(parent(label(u))) << hop_bits) |
                      static_cast<std::uint64_t>(hop(u)))
                     << id_bits) |
                    static_cast<std::uint64_t>(u);
        });
    sort_keys(scratch, L.nodes, id_bits + hop_bits + rank_bits);
    const auto sorted = scratch.sorted(L.nodes);
    Kokkos::View<int*> next =
        l == 0 ? out.order
               : Kokkos::View<int*>(
                     Kokkos::view_alloc("Remap::graph_order_rank", Kokkos::WithoutInitializing),
                     L.nodes);
    const std::uint64_t id_mask = id_bits == 64 ? ~0ULL : ((1ULL << id_bits) - 1);
    // Level 0 wants new -> old; the levels above want old -> new (their nodes' ranks).
    const bool as_order = l == 0;
    Kokkos::parallel_for(
        "Remap::graph_order_rank", Policy(0, L.nodes), KOKKOS_LAMBDA(const std::int64_t i) {
          const int u = static_cast<int>(sorted(i) & id_mask);
          if (as_order)
            next(i) = u;
          else
            next(u) = static_cast<int>(i);
        });
    rank = next;
  }
  if (levels.empty())  // a graph of at most cluster_nodes nodes (or no edges): its own order
    Kokkos::deep_copy(out.order, rank);
  Kokkos::fence();
  out.order_seconds = order_clock.seconds();
  return out;
}

}  // namespace mdremap::remap

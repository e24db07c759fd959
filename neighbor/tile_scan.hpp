#pragma once
// Exclusive prefix sums of up to five counters at once over n entries (a stable partition's
// slots, a compaction's output index, offsets from counts), in three passes over tiles of kTile
// entries: each tile's sums (a team reduction), the tiles' offsets (one team's scan over them),
// each entry's prefix (a team scan inside its tile, coalesced). Kokkos' range scan over the
// entries themselves was slower on the GPU (the migration's split with a 40-byte value, the ghosts'
// offsets; Kokkos issue #6838 reports its scan slow against Thrust's); this shortens the list build
// (docs/benchmarks.md).
//
// A tile's counters travel packed in one 64-bit word: counter f in bits [f W, (f + 1) W),
// W = 64 / F, so the increments of an entry are one word and a tile's sums add without carries
// while every counter's sum over a tile stays below 2^W (F = 5: 12 bits, 2,048 entries of 0 or 1).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>

namespace mdremap {

template <int F>
struct TileCounts {
  static_assert(F >= 1 && F <= 5, "TileCounts: 1 to 5 counters");
  std::int64_t n[F] = {};
  KOKKOS_INLINE_FUNCTION TileCounts& operator+=(const TileCounts& o) {
    for (int f = 0; f < F; ++f) n[f] += o.n[f];
    return *this;
  }
  // Counter k by selects (an index known only at run time would put n in local memory on a GPU).
  KOKKOS_INLINE_FUNCTION std::int64_t at(int k) const {
    std::int64_t r = 0;
    for (int f = 0; f < F; ++f) r = f == k ? n[f] : r;
    return r;
  }
};

template <int F, class Space = Kokkos::DefaultExecutionSpace>
class TileScan {
 public:
  using Counts = TileCounts<F>;
  static constexpr int kBits = 64 / F;
  static constexpr std::int64_t kTile = 2048;

  // The packed increment of counter f by one (inc's return value is a sum of these, or a count
  // times one of them).
  KOKKOS_INLINE_FUNCTION static constexpr std::uint64_t one(int f) {
    return std::uint64_t(1) << (kBits * f);
  }
  KOKKOS_INLINE_FUNCTION static Counts unpack(std::uint64_t w) {
    Counts c;
    for (int f = 0; f < F; ++f)
      c.n[f] = static_cast<std::int64_t>(kBits == 64 ? w : (w >> (kBits * f)) & kMask);
    return c;
  }

  // For i in [0, n): inc(i) gives entry i's packed increments; write(i, before, total) is called
  // once per entry with the sums of the entries before it and over all n. Returns the totals
  // (the one wait on the device: the caller's next steps are sized by them).
  template <class Inc, class Write>
  Counts run(const std::string& label, std::int64_t n, const Inc& inc, const Write& write) {
    if (n <= 0) return Counts{};
    launch(label, n, inc, write);
    Counts total;
    Kokkos::deep_copy(Space(), Kokkos::View<Counts, Kokkos::HostSpace>(&total),
                      Kokkos::subview(offsets_, (n + kTile - 1) / kTile));
    Space().fence("TileScan::total");
    return total;
  }

  // The same scan without the totals on the host: nothing waits (the caller does not need them).
  template <class Inc, class Write>
  void launch(const std::string& label, std::int64_t n, const Inc& inc, const Write& write) {
    if (n <= 0) return;
    const std::int64_t tiles = (n + kTile - 1) / kTile;
    if (sums_.extent(0) < static_cast<std::size_t>(tiles)) {
      sums_ = Kokkos::View<std::uint64_t*, Space>(
          Kokkos::view_alloc("tile_scan_sums", Kokkos::WithoutInitializing), tiles + tiles / 8 + 8);
      offsets_ = Kokkos::View<Counts*, Space>(
          Kokkos::view_alloc("tile_scan_offsets", Kokkos::WithoutInitializing),
          tiles + tiles / 8 + 9);
    }
    auto sums = sums_;
    auto offsets = offsets_;
    const Policy teams(Space(), static_cast<int>(tiles), team_size());
    Kokkos::parallel_for(
        label + "_tiles", teams, KOKKOS_LAMBDA(const Member& m) {
          const std::int64_t first = std::int64_t(m.league_rank()) * kTile;
          const int len = static_cast<int>(first + kTile < n ? kTile : n - first);
          std::uint64_t s = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(m, len),
              [&](const int j, std::uint64_t& acc) { acc += inc(first + j); }, s);
          Kokkos::single(Kokkos::PerTeam(m), [&] { sums(m.league_rank()) = s; });
        });
    // The tiles' offsets in one team: each thread sums a run of consecutive tiles, the team scans
    // those sums (one team_scan per counter), each thread writes its tiles' offsets; entry
    // `tiles` gets the totals. (Kokkos' range scan over the tiles was slower, docs/benchmarks.md.)
    Kokkos::parallel_for(
        label + "_offsets", Policy(Space(), 1, team_size()), KOKKOS_LAMBDA(const Member& m) {
          const std::int64_t per = (tiles + 1 + m.team_size() - 1) / m.team_size();
          const std::int64_t t0 = std::int64_t(m.team_rank()) * per;
          const std::int64_t t1 = t0 + per < tiles + 1 ? t0 + per : tiles + 1;
          Counts mine;
          for (std::int64_t t = t0; t < t1 && t < tiles; ++t) mine += unpack(sums(t));
          Counts run;
          for (int f = 0; f < F; ++f) run.n[f] = m.team_scan(mine.n[f]);
          for (std::int64_t t = t0; t < t1; ++t) {
            offsets(t) = run;
            if (t < tiles) run += unpack(sums(t));
          }
        });
    // A thread of the team takes `per` consecutive entries of the tile (8 on a GPU: a sector of
    // 4-byte outputs), so the team scans once per tile.
    Kokkos::parallel_for(
        label + "_entries", teams, KOKKOS_LAMBDA(const Member& m) {
          const std::int64_t first = std::int64_t(m.league_rank()) * kTile;
          const int len = static_cast<int>(first + kTile < n ? kTile : n - first);
          const int per = static_cast<int>((kTile + m.team_size() - 1) / m.team_size());
          const int threads = (len + per - 1) / per;
          const Counts base = offsets(m.league_rank());
          const Counts total = offsets(tiles);
          Kokkos::parallel_scan(Kokkos::TeamThreadRange(m, threads),
                                [&](const int t, std::uint64_t& acc, const bool final) {
                                  const std::int64_t lo = first + std::int64_t(t) * per;
                                  const std::int64_t hi =
                                      lo + per < first + len ? lo + per : first + len;
                                  for (std::int64_t i = lo; i < hi; ++i) {
                                    const std::uint64_t d = inc(i);
                                    if (final) {
                                      Counts before = unpack(acc);
                                      before += base;
                                      write(i, before, total);
                                    }
                                    acc += d;
                                  }
                                });
        });
  }

 private:
  using Policy = Kokkos::TeamPolicy<Space>;
  using Member = typename Policy::member_type;
  static constexpr std::uint64_t kMask =
      kBits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << (kBits % 64)) - 1;
  static_assert(kBits >= 32 || kTile < (std::int64_t(1) << (kBits % 32)),
                "TileScan: a tile's 0/1 counts must fit a counter's bits");

  // A GPU's team: 256 threads, a tile 8 entries a thread; a CPU's: one thread, a tile in order.
  // (Whether Space runs on the host, not whether the host reaches its memory: a CUDA build with
  // unified memory still runs teams of 256.)
  static int team_size() {
    return Kokkos::SpaceAccessibility<Space, Kokkos::HostSpace>::accessible ? 1 : 256;
  }

  Kokkos::View<std::uint64_t*, Space> sums_;
  Kokkos::View<Counts*, Space> offsets_;
};

}  // namespace mdremap

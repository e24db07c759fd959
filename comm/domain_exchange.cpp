#include "comm/domain_exchange.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "comm/runtime.hpp"

namespace mdremap::comm {

namespace {

using Exec = ExecSpace;
constexpr bool kHostMemory =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, ExecSpace::memory_space>::accessible;

// A migrating atom as doubles: x y z w | v | type id (ids below 2^53 are exact). No force: see
// migrate().
constexpr int kAtomDoubles = 9;

// What a rank tells a partner along a migration axis before the atoms travel: how many it sends
// there, and (peer windows) the window the partner may write the atoms it sends back into.
struct MoveNote {
  std::int64_t count = 0;
  PeerWindowInfo window;
};

// Counts per destination of one migration axis: stay, to the rank below, to the rank above,
// atoms farther than one sub-box (a run that blew up: check_atoms stops it first), and staying
// atoms near a face between ranks (kept after the other staying ones: near_faces_last).
constexpr int kStayNear = 4;
using Dest3 = TileCounts<5>;

template <class S>
KOKKOS_INLINE_FUNCTION S axis(const Vec4<S>& p, int d) {
  return d == 0 ? p.x : (d == 1 ? p.y : p.z);
}

// OwnerTest along one axis: its numbers as scalars (indexing the test's arrays by an axis known
// only at run time put them in local memory on the GPU and doubled the migration's marking
// pass). The same arithmetic as OwnerTest::coord.
struct AxisOwner {
  double lo, len;
  int p, d, mine;
  AxisOwner(const OwnerTest& t, int axis, int coord)
      : lo(t.lo[axis]), len(t.len[axis]), p(t.p[axis]), d(axis), mine(coord) {}
  KOKKOS_INLINE_FUNCTION int coord(double c) const {
    const int k = static_cast<int>(Kokkos::floor((c - lo) * p / len));
    return k < 0 ? 0 : (k >= p ? p - 1 : k);
  }
  // Where an atom at q goes: 0 stays, 1 below, 2 above, 3 farther.
  template <class S>
  KOKKOS_INLINE_FUNCTION int destination(const Vec4<S>& q) const {
    const int c = coord(double(axis(q, d)));
    if (c == mine) return 0;
    if (c == (mine + p - 1) % p) return 1;
    if (c == (mine + 1) % p) return 2;
    return 3;
  }
};

template <class S>
KOKKOS_INLINE_FUNCTION void pack_atom(double* buf, std::int64_t k, const AtomArrays<S>& a,
                                      std::int64_t i) {
  double* b = buf + kAtomDoubles * k;
  const Vec4<S> p = a.x(i);
  b[0] = p.x, b[1] = p.y, b[2] = p.z, b[3] = p.w;
  for (int d = 0; d < 3; ++d) b[4 + d] = a.v(i, d);
  b[7] = a.type(i);
  b[8] = static_cast<double>(a.id(i));
}

// One migration axis on the device: where each atom goes along d (dest: a pass), then its slot
// among the atoms going there (slot: a tiled scan, one counter per destination); returns how many
// go where. The copies wait for the counts (the buffers are sized by them) and run apart, in
// pack_leaving.
template <class S>
Dest3 split_atoms(const AtomArrays<S>& a, const OwnerTest& t, int d, int mine, const NearTest& near,
                  Kokkos::View<unsigned char*> dest, Kokkos::View<int*> slot,
                  TileScan<5, Exec>& scan) {
  auto x = a.x;
  const std::int64_t n = a.n;
  const AxisOwner owner(t, d, mine);
  Kokkos::parallel_for(
      "Comm::migrate_mark", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(const std::int64_t i) {
        const Vec4<S> p = x(i);
        const int k = owner.destination(p);
        dest(i) = static_cast<unsigned char>(k == 0 && near(p) ? kStayNear : k);
      });
  using Scan = TileScan<5, Exec>;
  return scan.run(
      "Comm::migrate_split", n, KOKKOS_LAMBDA(const std::int64_t i) { return Scan::one(dest(i)); },
      KOKKOS_LAMBDA(const std::int64_t i, const Scan::Counts& before, const Scan::Counts&) {
        slot(i) = static_cast<int>(before.at(dest(i)));
      });
}

// The staying atoms compacted into `b` in their order, the leaving ones packed into `below` and
// `above` (this rank's buffers, or the partners' peer windows), each at the slot split_atoms
// gave it.
template <class S>
void pack_leaving(const AtomArrays<S>& a, Kokkos::View<const unsigned char*> dest,
                  Kokkos::View<const int*> slot, std::int64_t near_first, AtomArrays<S>& b,
                  double* below, double* above) {
  Kokkos::parallel_for(
      "Comm::migrate_pack", Kokkos::RangePolicy<Exec>(0, a.n), KOKKOS_LAMBDA(const std::int64_t i) {
        const int k = dest(i);
        const std::int64_t at = slot(i) + (k == kStayNear ? near_first : 0);
        if (k == 0 || k == kStayNear) {
          b.x(at) = a.x(i);
          for (int e = 0; e < 3; ++e) b.v(at, e) = a.v(i, e);
          b.type(at) = a.type(i);
          b.id(at) = a.id(i);
        } else if (k == 1) {
          pack_atom(below, at, a, i);
        } else if (k == 2) {
          pack_atom(above, at, a, i);
        }
      });
}

template <class S>
void unpack_arrivals(Kokkos::View<const double*> buf, std::int64_t count, AtomArrays<S>& b,
                     std::int64_t first) {
  Kokkos::parallel_for(
      "Comm::migrate_unpack", Kokkos::RangePolicy<Exec>(0, count),
      KOKKOS_LAMBDA(const std::int64_t k) {
        const double* q = &buf(kAtomDoubles * k);
        const std::int64_t i = first + k;
        b.x(i) = Vec4<S>{S(q[0]), S(q[1]), S(q[2]), S(q[3])};
        for (int e = 0; e < 3; ++e) b.v(i, e) = S(q[4 + e]);
        b.type(i) = static_cast<int>(q[7]);
        b.id(i) = static_cast<std::int64_t>(q[8]);
      });
}

// Page-locked host bytes, grown as needed and kept (staging of the list builds' messages).
using PinnedBytes = Kokkos::View<unsigned char*, Kokkos::SharedHostPinnedSpace>;
inline unsigned char* pinned(PinnedBytes& b, std::size_t bytes) {
  if (b.extent(0) < bytes)
    b = PinnedBytes(Kokkos::view_alloc("comm_staging", Kokkos::WithoutInitializing),
                    bytes + bytes / 4 + 4096);
  return b.data();
}

// Sends `send` (count entries of T) to `dest` and receives `recv` from `source` through MPI:
// straight from device memory where MPI may read it, else staged through pinned host buffers.
// `mpi_seconds`, where given, adds the time spent inside MPI. `space`: the instance that wrote
// `send` and reads `recv` (only it is waited for: the default instance may be busy with forces).
template <class T>
void exchange_buffers(const Exec& space, Kokkos::View<T*> send, std::int64_t nsend, int dest,
                      Kokkos::View<T*> recv, std::int64_t nrecv, int source, int tag, bool direct,
                      PinnedBytes& out, PinnedBytes& in, double* mpi_seconds = nullptr) {
  Kokkos::Timer wait;
  auto waited = [&] {
    if (mpi_seconds) *mpi_seconds += wait.seconds();
  };
  if (direct) {
    space.fence("Comm::before_send");
    wait.reset();
    comm::sendrecv(send.data(), nsend * sizeof(T), dest, recv.data(), nrecv * sizeof(T), source,
                   tag);
    waited();
    return;
  }
  using Host = Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Host hs(reinterpret_cast<T*>(pinned(out, nsend * sizeof(T) + 1)), nsend);
  Host hr(reinterpret_cast<T*>(pinned(in, nrecv * sizeof(T) + 1)), nrecv);
  Kokkos::deep_copy(space, hs, Kokkos::subview(send, std::make_pair(std::int64_t(0), nsend)));
  space.fence("Comm::staged");
  wait.reset();
  comm::sendrecv(hs.data(), nsend * sizeof(T), dest, hr.data(), nrecv * sizeof(T), source, tag);
  waited();
  Kokkos::deep_copy(space, Kokkos::subview(recv, std::make_pair(std::int64_t(0), nrecv)), hr);
  space.fence("Comm::unstaged");  // hr is reused by the next message
}

// Local positions converted to the force precision (C), head of xall.
template <class S, class C>
void convert_locals(Kokkos::View<const Vec4<S>*> x, Kokkos::View<Vec4<C>*> xall, std::int64_t n) {
  Kokkos::parallel_for(
      "Comm::locals", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(const std::int64_t i) {
        const Vec4<S> p = x(i);
        xall(i) = Vec4<C>{C(p.x), C(p.y), C(p.z), C(p.w)};
      });
}

// Entries of both ghost shells of an axis, counted apart: n[0] the lo face's, n[1] the hi face's.
using ShellCounts = TileCounts<2>;

// The entries of xall[0, range) within the ghost shells of the two faces along d: below
// `lo_bound` (the lo face's shell, into lo_list) and at or above `hi_bound` (hi_list). A pass
// marks them (a byte each), a tiled scan with a counter per shell lists them in order.
template <class C>
ShellCounts select_shells(Kokkos::View<const Vec4<C>*> xall, std::int64_t range, int d,
                          double lo_bound, double hi_bound, Kokkos::View<int*>& lo_list,
                          Kokkos::View<int*>& hi_list, Kokkos::View<unsigned char*>& marks,
                          TileScan<2, Exec>& scan) {
  for (auto* list : {&lo_list, &hi_list})
    if (list->extent(0) < static_cast<size_t>(range))
      *list = Kokkos::View<int*>(Kokkos::view_alloc("comm_send_list", Kokkos::WithoutInitializing),
                                 range + range / 8 + 16);
  if (marks.extent(0) < static_cast<size_t>(range))
    marks = Kokkos::View<unsigned char*>(
        Kokkos::view_alloc("comm_marks", Kokkos::WithoutInitializing), range + range / 8 + 16);
  auto lo_out = lo_list, hi_out = hi_list;
  auto mark = marks;
  Kokkos::parallel_for(
      "Comm::border_mark", Kokkos::RangePolicy<Exec>(0, range),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const double c = double(axis(xall(i), d));
        mark(i) = static_cast<unsigned char>((c < lo_bound ? 1 : 0) | (c >= hi_bound ? 2 : 0));
      });
  using Scan = TileScan<2, Exec>;
  return scan.run(
      "Comm::border_select", range,
      KOKKOS_LAMBDA(const std::int64_t i) {
        const unsigned m = mark(i);
        return (m & 1u) * Scan::one(0) + (m >> 1) * Scan::one(1);
      },
      KOKKOS_LAMBDA(const std::int64_t i, const Scan::Counts& before, const Scan::Counts&) {
        const unsigned m = mark(i);
        if (m & 1u) lo_out(before.n[0]) = static_cast<int>(i);
        if (m & 2u) hi_out(before.n[1]) = static_cast<int>(i);
      });
}

// Entry k of a swap's list: its position shifted by `shift` along d (the periodic image).
template <class C>
KOKKOS_INLINE_FUNCTION Vec4<C> shifted_entry(const Kokkos::View<const Vec4<C>*>& xall,
                                             const Kokkos::View<const int*>& list, std::int64_t k,
                                             int d, C shift) {
  Vec4<C> p = xall(list(k));
  if (d == 0) p.x += shift;
  if (d == 1) p.y += shift;
  if (d == 2) p.z += shift;
  return p;
}

// Positions of a swap's list, shifted along d, into `out` from entry `at` on.
template <class C>
void pack_positions(const Exec& space, Kokkos::View<const Vec4<C>*> xall,
                    Kokkos::View<const int*> list, std::int64_t n, int d, C shift,
                    Kokkos::View<Vec4<C>*> out, std::int64_t at) {
  Kokkos::parallel_for(
      "Comm::forward_pack", Kokkos::RangePolicy<Exec>(space, 0, n),
      KOKKOS_LAMBDA(const std::int64_t k) {
        out(at + k) = shifted_entry(xall, list, k, d, shift);
      });
}

// Grows v to hold `need` entries, keeping the first `keep`.
template <class T>
void grow(Kokkos::View<T*>& v, std::int64_t keep, std::int64_t need) {
  if (v.extent(0) >= static_cast<size_t>(need)) return;
  Kokkos::View<T*> bigger(Kokkos::view_alloc(v.label().empty() ? "comm_scratch" : v.label(),
                                             Kokkos::WithoutInitializing),
                          need + need / 8 + 16);
  const auto head = std::make_pair(std::int64_t(0), keep);
  if (keep > 0) Kokkos::deep_copy(Kokkos::subview(bigger, head), Kokkos::subview(v, head));
  v = bigger;
}

// The ids of a swap's list into `out` from entry `at` on.
inline void pack_ids(Kokkos::View<const std::int64_t*> ids, Kokkos::View<const int*> list,
                     std::int64_t n, Kokkos::View<std::int64_t*> out, std::int64_t at) {
  Kokkos::parallel_for(
      "Comm::border_ids", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(const std::int64_t k) { out(at + k) = ids(list(k)); });
}

// The peer-window exchange of a swap, two kernels a swap (four before: a pack, a one-thread
// publish, a one-thread wait and a copy; the step's ghost update was then the largest part of
// the multi-GPU overhead). Teams of kTeam threads.
constexpr int kTeam = 256;
using Team = Kokkos::TeamPolicy<Exec>::member_type;

KOKKOS_INLINE_FUNCTION int teams_for(std::int64_t n) {
  return n > 0 ? static_cast<int>((n + kTeam - 1) / kTeam) : 1;
}

// The flag protocol's steps, as CUDA instructions on the GPU (system scope: the flag and the
// window are another GPU's memory) and as host atomics elsewhere.
KOKKOS_INLINE_FUNCTION void fence_system() {
#ifdef __CUDA_ARCH__
  __threadfence_system();
#endif
}
KOKKOS_INLINE_FUNCTION unsigned count_in(unsigned* done) {
#ifdef __CUDA_ARCH__
  return atomicAdd(done, 1u);
#else
  return Kokkos::atomic_fetch_add(done, 1u);
#endif
}
// Stores `number` in the flag once this thread's earlier writes are visible system-wide.
KOKKOS_INLINE_FUNCTION void publish(std::uint64_t* flag, std::uint64_t number) {
#ifdef __CUDA_ARCH__
  __threadfence_system();
  asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(flag), "l"(number) : "memory");
#else
  __atomic_store_n(flag, number, __ATOMIC_RELEASE);
#endif
}
// Spins until the flag reaches `number`; on the GPU a trap after 2^42 cycles (peer_receive).
KOKKOS_INLINE_FUNCTION void await_flag(const std::uint64_t* flag, std::uint64_t number) {
#ifdef __CUDA_ARCH__
  const long long start = clock64();
  for (;;) {
    std::uint64_t seen;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(seen) : "l"(flag) : "memory");
    if (seen >= number) return;
    if (clock64() - start > (1ll << 42)) __trap();
    __nanosleep(64);
  }
#else
  while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) < number) {
  }
#endif
}

// The positions of a swap's list, shifted along d, packed into the partner's window `out`; the
// last team to finish stores `number` in the partner's flag (system-scope release) once every
// team's writes are visible system-wide (each writer fences, then its team counts itself in
// `done`, which the last one resets for the next exchange).
template <class C>
void peer_send(const Exec& space, Kokkos::View<const Vec4<C>*> xall, Kokkos::View<const int*> list,
               std::int64_t n, int d, C shift, Vec4<C>* out, Kokkos::View<unsigned> done,
               std::uint64_t* flag, std::uint64_t number) {
  const int league = teams_for(n);
  Kokkos::parallel_for(
      "Comm::peer_send", Kokkos::TeamPolicy<Exec>(space, league, kTeam),
      KOKKOS_LAMBDA(const Team& t) {
        const std::int64_t k = std::int64_t(t.league_rank()) * kTeam + t.team_rank();
        if (k < n) out[k] = shifted_entry(xall, list, k, d, shift);
        fence_system();
        t.team_barrier();
        if (t.team_rank() == 0 && count_in(done.data()) + 1 == unsigned(league)) {
          done() = 0;
          publish(flag, number);
        }
      });
}

// A window entry read through L2 (its lines may sit stale in L1 from the slot's last use).
template <class C>
KOKKOS_INLINE_FUNCTION Vec4<C> load_through_l2(const Vec4<C>* p) {
#ifdef __CUDA_ARCH__
  if constexpr (sizeof(C) == 8) {
    const double2* q = reinterpret_cast<const double2*>(p);
    const double2 a = __ldcg(q), b = __ldcg(q + 1);
    return Vec4<C>{C(a.x), C(a.y), C(b.x), C(b.y)};
  } else {
    const float4 a = __ldcg(reinterpret_cast<const float4*>(p));
    return Vec4<C>{C(a.x), C(a.y), C(a.z), C(a.w)};
  }
#else
  return *p;
#endif
}

// Every team waits until this rank's flag reaches `number` (the partner's peer_send: one thread
// a team spinning on a system-scope acquire), then copies its part of the arrivals from the
// window into place (through L2). It runs even when nothing arrives (one team): see
// receive_swap. A partner that never writes the flag (it hangs, and its launcher does not end
// this rank) stops the device after 2^42 cycles (over half an hour at a GPU's clock, so that
// a partner busy writing a large output between two steps is still waited for) instead of
// hanging it: the next synchronisation then fails with a CUDA error. At most kReceiveTeams
// teams, each copying every kReceiveTeams-th block of entries: while they wait they hold room on
// the multiprocessors that the overlapped forces could use (a swap's 70,000 ghosts would be 274
// teams), and the copy itself is short.
constexpr int kReceiveTeams = 64;
template <class C>
void peer_receive(const Exec& space, const std::uint64_t* flag, std::uint64_t number,
                  const Vec4<C>* in, Kokkos::View<Vec4<C>*> recv, std::int64_t n) {
  const int league = std::min(teams_for(n), kReceiveTeams);
  Kokkos::parallel_for(
      "Comm::peer_receive", Kokkos::TeamPolicy<Exec>(space, league, kTeam),
      KOKKOS_LAMBDA(const Team& t) {
        if (t.team_rank() == 0) await_flag(flag, number);
        t.team_barrier();
        for (std::int64_t k = std::int64_t(t.league_rank()) * kTeam + t.team_rank(); k < n;
             k += std::int64_t(league) * kTeam)
          recv(k) = load_through_l2(in + k);
      });
}

}  // namespace

template <class S, class C>
DomainExchange<S, C>::DomainExchange(const RankGrid& grid, int rank, const Box<double>& box,
                                     double rlist, Transfer transfer)
    : grid_(grid), rank_(rank), box_(box), rlist_(rlist), want_(transfer) {
  const std::array<double, 3> lo{box.lo[0], box.lo[1], box.lo[2]};
  const std::array<double, 3> len{box.len[0], box.len[1], box.len[2]};
  sub_ = sub_domain(grid, rank, lo, len);
  for (int d = 0; d < 3; ++d) {
    owner_.lo[d] = lo[d];
    owner_.len[d] = len[d];
    owner_.p[d] = grid.p[d];
  }
  direct_ = kHostMemory || (transfer == Transfer::Auto && comm::cuda_aware());
  peer_ = !direct_ && transfer != Transfer::Host && PeerWindow::available();
  if (transfer == Transfer::Peer && !peer_)  // the deck reader refuses it first (params.cpp)
    throw Error("parallel.transfer=peer: this build has no GPU memory to share");
  // Two swaps per axis: the lo-face shell to the rank below, then the hi-face shell above. A
  // shell crossing the box edge is the periodic image: shifted by a box length. The axes this
  // rank alone spans come first (their swaps are its own periodic images, made from the local
  // atoms alone; later axes forward them, so corners are still covered): a step's update makes
  // them before the forces start, and only atoms near a face between ranks wait for ghosts
  // (near_faces_last; 6.6% of the atoms instead of 9.8% on a 2x2x1 grid of 4M-atom cubes).
  std::vector<int> axes;
  for (int d = 0; d < 3; ++d)
    if (grid.p[d] == 1) axes.push_back(d);
  own_swaps_ = 2 * static_cast<int>(axes.size());
  for (int d = 0; d < 3; ++d)
    if (grid.p[d] != 1) axes.push_back(d);
  for (const int d : axes)
    for (bool to_hi : {false, true}) {
      Swap s;
      s.dim = d;
      s.to_hi = to_hi;
      s.dest = to_hi ? sub_.hi_rank[d] : sub_.lo_rank[d];
      s.source = to_hi ? sub_.lo_rank[d] : sub_.hi_rank[d];
      const bool edge = to_hi ? sub_.coord[d] == grid.p[d] - 1 : sub_.coord[d] == 0;
      s.shift = edge ? (to_hi ? -C(len[d]) : C(len[d])) : C(0);
      s.done = Kokkos::View<unsigned>("comm_swap_done");
      swaps_.push_back(s);
      windows_.push_back(std::make_unique<PeerWindow>());
    }
  for (auto& w : move_windows_) w = std::make_unique<PeerWindow>();
  // A test's knob: the atoms each migration window holds at first (test_mpi sets it small, so
  // that arrivals overflow it: the MPI fallback, then the window grown and mapped again).
  if (const char* v = std::getenv("MDREMAP_MOVE_WINDOW_ATOMS")) move_floor_ = std::atoll(v);
}

template <class S, class C>
std::string DomainExchange<S, C>::transfer() const {
  if (kHostMemory) return "host memory";
  if (direct_) return "GPU-aware MPI";
  if (peer_) return "CUDA IPC (each rank writes its partners' ghosts into their GPU memory)";
  return peer_problem_.empty()
             ? "host staging (pinned buffers)"
             : "host staging (pinned buffers; CUDA IPC failed: " + peer_problem_ + ")";
}

// The window swap `s` receives into, sized for its ghosts and handed to the rank that writes
// it (s.source); the window of s.dest mapped for writing. Every rank passes here for every
// swap (a collective: all keep peer windows or all give them up).
template <class S, class C>
void DomainExchange<S, C>::link_peer(const Swap& s, int index) {
  std::string problem;
  if (s.dest != rank_ || s.source != rank_) {
    PeerWindow& w = *windows_[index];
    PeerWindowInfo mine = w.reserve(std::max<std::size_t>(1, s.nrecv) * sizeof(Vec4<C>));
    PeerWindowInfo theirs;
    comm::sendrecv(&mine, sizeof mine, s.source, &theirs, sizeof theirs, s.dest, 40 + index);
    problem = w.open_remote(theirs);
    if (problem.empty() && w.remote_slot_bytes() < s.nsend * sizeof(Vec4<C>))
      problem = "the partner's window is smaller than the ghosts sent";
  }
  if (comm::max(problem.empty() ? 0.0 : 1.0) == 0.0) return;
  // Some rank could not: every rank stages through the host from here on.
  peer_ = false;
  peer_problem_ = problem.empty() ? "on another rank" : problem;
  if (want_ == Transfer::Peer)
    throw CollectiveError(
        fmt::format("parallel.transfer=peer: ranks cannot write into each other's GPU memory "
                    "(rank {}: {})",
                    rank_, peer_problem_),
        1);
}

template <class S, class C>
Box<C> DomainExchange<S, C>::sub_box() const {
  double lo[3], len[3];
  for (int d = 0; d < 3; ++d) lo[d] = sub_.lo[d], len[d] = sub_.hi[d] - sub_.lo[d];
  return Box<C>::make(lo, len);
}

template <class S, class C>
bool DomainExchange<S, C>::owns(double x, double y, double z) const {
  const double c[3] = {x, y, z};
  for (int d = 0; d < 3; ++d)
    if (owner_.coord(c[d], d) != sub_.coord[d]) return false;
  return true;
}

// Per-atom arrays of exactly n atoms over the one of two kept buffer sets that `a` does not
// use (a migration reads a and writes them; allocating afresh at every list build cost a
// device-wide wait per array, freeing the old ones another). The velocity and force arrays'
// column-major components lie a multiple of 32 entries apart (vectors_over): with n apart, as
// an n x 3 view has them, a count off a multiple of 32 (any after a migration) put the second
// and third components inside 128-byte lines, and the integration took longer per atom on
// several GPUs than on one.
template <class S, class C>
AtomArrays<S> DomainExchange<S, C>::arrays_beside(const AtomArrays<S>& a, std::int64_t n) {
  int k = 0;
  for (int q = 0; q < 2; ++q)
    if (spare_[q].cap > 0 && a.id.data() == spare_[q].id.data()) k = 1 - q;
  AtomBuffers& s = spare_[k];
  if (s.cap < n) {
    s.cap = n + n / 8 + 64;
    s.x = Kokkos::View<Vec4<S>*>(Kokkos::view_alloc("x", Kokkos::WithoutInitializing), s.cap);
    s.v = Kokkos::View<S*>(Kokkos::view_alloc("v", Kokkos::WithoutInitializing),
                           3 * warp_multiple(s.cap));
    s.f = Kokkos::View<S*>(Kokkos::view_alloc("f", Kokkos::WithoutInitializing),
                           3 * warp_multiple(s.cap));
    s.type = Kokkos::View<int*>(Kokkos::view_alloc("type", Kokkos::WithoutInitializing), s.cap);
    s.id =
        Kokkos::View<std::int64_t*>(Kokkos::view_alloc("id", Kokkos::WithoutInitializing), s.cap);
  }
  AtomArrays<S> b;
  b.n = n;
  b.x = Kokkos::View<Vec4<S>*>(s.x.data(), n);
  b.v = vectors_over<S>(s.v.data(), n, warp_multiple(s.cap));
  b.f = vectors_over<S>(s.f.data(), n, warp_multiple(s.cap));
  b.type = Kokkos::View<int*>(s.type.data(), n);
  b.id = Kokkos::View<std::int64_t*>(s.id.data(), n);
  return b;
}

// Migration with peer windows: the leaving atoms are packed straight into the partner's window
// (CUDA IPC; staging them through pinned host buffers and MPI made migrations measurably
// slower). Per axis and direction, three small messages: the counts
// with the window each rank offers for what comes back, then, once the pack has finished (a host
// wait), whether the atoms were written straight into the partner's window (a partner whose window
// could not be mapped or is too small gets them through MPI instead). A window is written again
// only at the next list build, after the counts of that build, which its owner sends only after it
// has unpacked this one (split_atoms' scan waits for the device).
template <class S, class C>
void DomainExchange<S, C>::migrate(AtomArrays<S>& a) {
  forward_join();
  constexpr std::size_t kAtomBytes = kAtomDoubles * sizeof(double);
  for (int d = 0; d < 3; ++d) {
    if (grid_.p[d] == 1) continue;  // nobody to move to along d
    // Persistent scratch (a rebuild allocated it afresh: allocations are device-wide waits).
    grow<unsigned char>(marks_, 0, a.n);
    grow<int>(slot_, 0, a.n);
    auto dest = marks_;
    auto slot = slot_;
    // With overlap the staying atoms near a face between ranks go after the others (arrivals
    // follow them, and are near the face they crossed): near_faces_last then has nothing to do.
    const Dest3 c =
        split_atoms<S>(a, owner_, d, sub_.coord[d], near_test(), dest, slot, split_scan_);
    if (c.n[3] > 0)
      throw Error(fmt::format(
          "{} atoms moved farther than one sub-box along {} between list builds: the run blew "
          "up",
          c.n[3], "xyz"[d]));
    const std::int64_t nlo = c.n[1], nhi = c.n[2];
    // down: atoms going to the rank below (this rank's window takes those coming down from
    // above); up: the other way.
    PeerWindow& down = *move_windows_[2 * d];
    PeerWindow& up = *move_windows_[2 * d + 1];
    MoveNote to_lo{nlo, {}}, to_hi{nhi, {}}, from_hi, from_lo;
    if (peer_) {
      const std::int64_t floor =
          move_floor_ > 0 ? move_floor_ : std::max<std::int64_t>(4096, a.n / 128);
      for (const int k : {2 * d, 2 * d + 1}) move_cap_[k] = std::max(move_cap_[k], floor);
      to_lo.window = up.reserve(kAtomBytes * move_cap_[2 * d + 1]);  // the rank below writes
      to_hi.window = down.reserve(kAtomBytes * move_cap_[2 * d]);    // the rank above writes
    }
    // To the rank below, from the rank above; then the other way (tags apart per axis).
    const int lo_rank = sub_.lo_rank[d], hi_rank = sub_.hi_rank[d];
    comm::sendrecv(&to_lo, sizeof to_lo, lo_rank, &from_hi, sizeof from_hi, hi_rank, 100 + 2 * d);
    comm::sendrecv(&to_hi, sizeof to_hi, hi_rank, &from_lo, sizeof from_lo, lo_rank, 101 + 2 * d);
    const std::int64_t nfrom_hi = from_hi.count, nfrom_lo = from_lo.count;
    // The partners' windows mapped at every build, whether or not atoms go there this time: a
    // window its owner replaced by a larger one is freed at the owner's next reserve, by when
    // every writer must have let go of it (it has: the owner reaches that reserve only after this
    // build's borders(), whose messages from this rank follow this mapping).
    bool mapped_lo = false, mapped_hi = false;
    if (peer_) {
      mapped_lo = down.open_remote(from_lo.window).empty();
      mapped_hi = up.open_remote(from_hi.window).empty();
    }
    if (nlo + nhi + nfrom_hi + nfrom_lo == 0) continue;  // nobody crossed a face along d
    // Straight into the partner's window where it is mapped and holds them.
    auto into = [&](const PeerWindow& w, bool mapped, std::int64_t n) {
      return mapped && n > 0 && kAtomBytes * n <= w.remote_slot_bytes();
    };
    const int direct_lo = into(down, mapped_lo, nlo) ? 1 : 0;
    const int direct_hi = into(up, mapped_hi, nhi) ? 1 : 0;
    if (!direct_lo) grow<double>(out_lo_, 0, kAtomDoubles * nlo + 1);
    if (!direct_hi) grow<double>(out_hi_, 0, kAtomDoubles * nhi + 1);
    double* below = direct_lo ? static_cast<double*>(down.remote_slot(0)) : out_lo_.data();
    double* above = direct_hi ? static_cast<double*>(up.remote_slot(0)) : out_hi_.data();
    // Every entry is written below (kept atoms, then arrivals): no zero fill.
    const std::int64_t kept = c.n[0] + c.n[kStayNear];
    AtomArrays<S> b = arrays_beside(a, kept + nfrom_hi + nfrom_lo);
    pack_leaving<S>(a, dest, slot, c.n[0], b, below, above);
    int came_hi = 0, came_lo = 0;  // the partners wrote their atoms into this rank's windows
    if (peer_) {
      Exec().fence("Comm::moved");  // the pack's writes into the partners' windows are done
      // Only where atoms travel (a rank with none along d skipped the axis above).
      auto bytes = [](std::int64_t n) { return n > 0 ? sizeof(int) : std::size_t(0); };
      comm::sendrecv(&direct_lo, bytes(nlo), lo_rank, &came_hi, bytes(nfrom_hi), hi_rank,
                     110 + 2 * d);
      comm::sendrecv(&direct_hi, bytes(nhi), hi_rank, &came_lo, bytes(nfrom_lo), lo_rank,
                     111 + 2 * d);
      // Room for twice the largest arrival seen (the next reserve grows a window that lacks it).
      move_cap_[2 * d] = std::max(move_cap_[2 * d], 2 * nfrom_hi);
      move_cap_[2 * d + 1] = std::max(move_cap_[2 * d + 1], 2 * nfrom_lo);
    }
    auto arrivals = [&](PeerWindow& w, bool came, Kokkos::View<double*>& staged, std::int64_t n) {
      if (came) return Kokkos::View<double*>(static_cast<double*>(w.slot(0)), kAtomDoubles * n);
      grow<double>(staged, 0, kAtomDoubles * n + 1);
      return staged;
    };
    auto in_hi = arrivals(down, came_hi, in_hi_, nfrom_hi);
    auto in_lo = arrivals(up, came_lo, in_lo_, nfrom_lo);
    // The rest through MPI (a part written straight into a window is not sent again; tags of
    // their own).
    const std::int64_t send_lo = direct_lo ? 0 : nlo, recv_hi = came_hi ? 0 : nfrom_hi;
    const std::int64_t send_hi = direct_hi ? 0 : nhi, recv_lo = came_lo ? 0 : nfrom_lo;
    if (send_lo + recv_hi > 0)
      exchange_buffers<double>(Exec(), out_lo_, kAtomDoubles * send_lo, lo_rank, in_hi,
                               kAtomDoubles * recv_hi, hi_rank, 120 + 2 * d, direct_, stage_out_,
                               stage_in_);
    if (send_hi + recv_lo > 0)
      exchange_buffers<double>(Exec(), out_hi_, kAtomDoubles * send_hi, hi_rank, in_lo,
                               kAtomDoubles * recv_lo, lo_rank, 121 + 2 * d, direct_, stage_out_,
                               stage_in_);
    unpack_arrivals<S>(in_hi, nfrom_hi, b, kept);
    unpack_arrivals<S>(in_lo, nfrom_lo, b, kept + nfrom_hi);
    migrated_ += nlo + nhi;
    staged_moves_ += send_lo + send_hi;
    a = b;
  }
}

template <class S, class C>
std::int64_t DomainExchange<S, C>::borders(Kokkos::View<const Vec4<S>*> x,
                                           Kokkos::View<const std::int64_t*> id,
                                           std::int64_t nlocal, Kokkos::View<Vec4<C>*>& xall) {
  forward_join();
  const bool aliased = static_cast<const void*>(x.data()) == static_cast<const void*>(xall.data());
  if (!aliased || xall.extent(0) < static_cast<size_t>(nlocal)) {
    if (xall.extent(0) < static_cast<size_t>(nlocal))
      xall = Kokkos::View<Vec4<C>*>(Kokkos::view_alloc("x_all", Kokkos::WithoutInitializing),
                                    nlocal + nlocal / 4 + 16);
    convert_locals<S, C>(x, xall, nlocal);
  }
  if (keep_ids_) {
    if (ids_.extent(0) < static_cast<size_t>(nlocal))
      ids_ = Kokkos::View<std::int64_t*>(
          Kokkos::view_alloc("comm_ids", Kokkos::WithoutInitializing), nlocal + nlocal / 4 + 16);
    Kokkos::deep_copy(Kokkos::subview(ids_, std::make_pair(std::int64_t(0), nlocal)),
                      Kokkos::subview(id, std::make_pair(std::int64_t(0), nlocal)));
  }
  std::int64_t n = nlocal;
  for (int q = 0; q < 3; ++q) {
    // Both swaps of an axis send from what was here before it: locals and earlier ghosts.
    Swap& lo_face = swaps_[2 * q];  // to the rank below
    Swap& hi_face = swaps_[2 * q + 1];
    const int d = lo_face.dim;
    const ShellCounts sent = select_shells<C>(xall, n, d, sub_.lo[d] + rlist_, sub_.hi[d] - rlist_,
                                              lo_face.list, hi_face.list, marks_, pair_scan_);
    lo_face.nsend = sent.n[0];
    hi_face.nsend = sent.n[1];
    for (int k = 0; k < 2; ++k) {
      Swap& s = swaps_[2 * q + k];
      s.nrecv = sendrecv_count(s.nsend, s.dest, s.source, 10 + 2 * d + k);
      s.first = n;
      grow<Vec4<C>>(xall, n, n + s.nrecv);
      if (keep_ids_) grow<std::int64_t>(ids_, n, n + s.nrecv);
      if (peer_) link_peer(s, 2 * q + k);
      exchange_swap(s, 2 * q + k, xall);
      if (keep_ids_) exchange_ids(s);
      n += s.nrecv;
    }
  }
  nghost_ = n - nlocal;
  return nghost_;
}

template <class S, class C>
Kokkos::View<const std::int64_t*> DomainExchange<S, C>::ids() const {
  if (!keep_ids_) throw Error("DomainExchange::ids(): the ghosts' ids were not kept (keep_ids)");
  return ids_;
}

template <class S, class C>
void DomainExchange<S, C>::locals(Kokkos::View<const Vec4<S>*> x, std::int64_t nlocal,
                                  Kokkos::View<Vec4<C>*> xall) {
  forward_join();
  if (static_cast<const void*>(x.data()) != static_cast<const void*>(xall.data()))
    convert_locals<S, C>(x, xall, nlocal);
}

// Near-face atoms counted, and the places where a near atom is followed by a far one (none: the
// near atoms are last already).
struct NearCounts {
  std::int64_t near = 0, breaks = 0;
  KOKKOS_INLINE_FUNCTION NearCounts& operator+=(const NearCounts& o) {
    near += o.near;
    breaks += o.breaks;
    return *this;
  }
};

// Near a face between ranks: within the ghost shell's width, beyond which every other rank's ghost
// lies. The margin covers positions rounded to the force precision (a float's 1e-7 of the
// coordinates' size) with room to spare; an atom more among the near ones costs nothing but time.
// Along an axis this rank alone spans the ghosts are its own periodic images, made before the
// forces start (forward_begin): they do not count. Off (nobody near) unless overlap(true).
template <class S, class C>
NearTest DomainExchange<S, C>::near_test() const {
  NearTest t;
  t.on = side_ != nullptr;
  for (int d = 0; d < 3; ++d) {
    // float rounding grows with the coordinates' size: the box's length or its distance from 0
    const double size =
        std::max({box_.len[d], std::abs(box_.lo[d]), std::abs(box_.lo[d] + box_.len[d])});
    const double margin = 1e-3 * rlist_ + 1e-5 * size;
    const bool shared = grid_.p[d] != 1;
    t.lo[d] = shared ? sub_.lo[d] + rlist_ + margin : -Kokkos::Experimental::infinity_v<double>;
    t.hi[d] = shared ? sub_.hi[d] - rlist_ - margin : Kokkos::Experimental::infinity_v<double>;
  }
  return t;
}

template <class S, class C>
std::int64_t DomainExchange<S, C>::near_faces_last(AtomArrays<S>& a) {
  forward_join();
  const std::int64_t n = a.n;
  grow<unsigned char>(marks_, 0, n);
  grow<int>(slot_, 0, n);
  // A ghost is outside the sub-box, so an atom farther than rlist from every face has none in
  // its row (near_test). After a migration along some axis the atoms are in place already.
  NearTest is_near_face = near_test();
  is_near_face.on = true;
  auto mark = marks_;
  auto slot = slot_;
  auto x = a.x;
  NearCounts count;
  Kokkos::parallel_reduce(
      "Comm::near_faces_mark", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(const std::int64_t i, NearCounts& acc) {
        const bool here = is_near_face(x(i));
        mark(i) = here;
        acc.near += here;
        acc.breaks += here && i + 1 < n && !is_near_face(x(i + 1));
      },
      count);
  const std::int64_t first = n - count.near;  // the split: near atoms go to [first, n)
  if (count.breaks == 0) return first;        // in place already (a migration put them there)
  // Stable: the far atoms in their order, then the near ones in theirs, so both parts keep the
  // spatial order the atoms had (swapping the misplaced ones instead scattered far atoms among
  // the others: a slower force kernel).
  using Scan = TileScan<2, Exec>;
  pair_scan_.launch(  // the totals reach the slots on the device: no wait
      "Comm::near_faces_slots", n,
      KOKKOS_LAMBDA(const std::int64_t i) { return Scan::one(mark(i) ? 1 : 0); },
      KOKKOS_LAMBDA(const std::int64_t i, const Scan::Counts& before, const Scan::Counts& total) {
        slot(i) = static_cast<int>(mark(i) ? total.n[0] + before.n[1] : before.n[0]);
      });
  ++reorders_;
  AtomArrays<S> b = arrays_beside(a, n);
  Kokkos::parallel_for(
      "Comm::near_faces_order", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const std::int64_t at = slot(i);
        b.x(at) = a.x(i);
        for (int e = 0; e < 3; ++e) b.v(at, e) = a.v(i, e);
        b.type(at) = a.type(i);
        b.id(at) = a.id(i);
      });
  a = b;
  return first;
}

template <class S, class C>
void DomainExchange<S, C>::overlap(bool on) {
  forward_join();
  side_ = on ? std::make_unique<SideStream>() : nullptr;
}

template <class S, class C>
void DomainExchange<S, C>::forward(Kokkos::View<const Vec4<S>*> x, std::int64_t nlocal,
                                   Kokkos::View<Vec4<C>*> xall) {
  forward_begin(x, nlocal, xall);
  forward_join();
}

template <class S, class C>
void DomainExchange<S, C>::forward_begin(Kokkos::View<const Vec4<S>*> x, std::int64_t nlocal,
                                         Kokkos::View<Vec4<C>*> xall) {
  forward_join();
  if (static_cast<const void*>(x.data()) != static_cast<const void*>(xall.data()))
    convert_locals<S, C>(x, xall, nlocal);
  // This rank's own periodic images first, on the default instance (copies from local atoms).
  for (int k = 0; k < own_swaps_; ++k) send_swap(Exec(), swaps_[k], k, xall);
  if (side_) side_->after_default();
  in_flight_ = xall;
  pending_run_ = pending_join_ = true;
}

template <class S, class C>
void DomainExchange<S, C>::forward_run() {
  if (!pending_run_) return;
  pending_run_ = false;
  const Exec space = side_ ? side_->space() : Exec();
  if (side_) side_->mark_start();
  // Both swaps of an axis send from what was here before it (the arrivals go beyond): both are
  // sent before either is waited for.
  for (std::size_t k = own_swaps_; k < swaps_.size(); k += 2) {
    send_swap(space, swaps_[k], int(k), in_flight_);
    send_swap(space, swaps_[k + 1], int(k + 1), in_flight_);
    receive_swap(space, swaps_[k], int(k), in_flight_);
    receive_swap(space, swaps_[k + 1], int(k + 1), in_flight_);
  }
  if (side_) side_->mark_stop();
  in_flight_ = Kokkos::View<Vec4<C>*>();
}

// The default instance's next work waits for the ghost update (stream order; no host wait).
// Every exchange of this rank, the list builds' on the default instance and the steps' on the
// side stream, thus stays one chain in stream order: what receive_swap's slot reuse needs.
template <class S, class C>
void DomainExchange<S, C>::forward_join() {
  forward_run();
  if (!pending_join_) return;
  pending_join_ = false;
  if (side_) side_->join_default();
}

template <class S, class C>
void DomainExchange<S, C>::exchange_swap(Swap& s, int index, Kokkos::View<Vec4<C>*> xall) {
  send_swap(Exec(), s, index, xall);
  receive_swap(Exec(), s, index, xall);
}

// The ghost positions a swap sends. Peer windows: packed straight into the partner's window
// (the slot of this exchange), then the exchange's number stored in the partner's flag, both
// queued on the stream (no host wait); else packed and exchanged through MPI here.
template <class S, class C>
void DomainExchange<S, C>::send_swap(const Exec& space, Swap& s, int index,
                                     Kokkos::View<Vec4<C>*> xall) {
  if (s.dest == rank_ && s.source == rank_) {
    // This rank is its own neighbour along the axis: the periodic images straight into place.
    pack_positions<C>(space, xall, s.list, s.nsend, s.dim, s.shift, xall, s.first);
    return;
  }
  if (peer_) {
    const PeerWindow& w = *windows_[index];
    peer_send<C>(space, xall, s.list, s.nsend, s.dim, s.shift,
                 static_cast<Vec4<C>*>(w.remote_slot(s.uses)), s.done, w.remote_flag(), s.uses + 1);
    return;
  }
  const int tag = 20 + 2 * s.dim + (s.to_hi ? 1 : 0);
  const auto recv = Kokkos::subview(xall, std::make_pair(s.first, s.first + s.nrecv));
  grow<Vec4<C>>(send_, 0, s.nsend + 1);
  pack_positions<C>(space, xall, s.list, s.nsend, s.dim, s.shift, send_, 0);
  exchange_buffers<Vec4<C>>(space, send_, s.nsend, s.dest, recv, s.nrecv, s.source, tag, direct_,
                            stage_out_, stage_in_, &mpi_seconds_);
}

// The ghost positions a swap receives. Peer windows: a kernel waits until the partner's flag
// says this exchange's slot is written, then the arrivals are copied into place, both queued.
// Why a slot is not overwritten before it is copied: the partner fills this slot again two
// exchanges later, and before that its stream has waited (in the next exchange) for the swap
// of the other direction along this axis, which this rank signals only after this copy (one
// stream each; the wait runs even when nothing arrives, so the chain never breaks).
template <class S, class C>
void DomainExchange<S, C>::receive_swap(const Exec& space, Swap& s, int index,
                                        Kokkos::View<Vec4<C>*> xall) {
  if (!peer_ || (s.dest == rank_ && s.source == rank_)) return;
  const PeerWindow& w = *windows_[index];
  const std::uint64_t use = s.uses++;
  const auto recv = Kokkos::subview(xall, std::make_pair(s.first, s.first + s.nrecv));
  peer_receive<C>(space, w.flag(), use + 1, static_cast<const Vec4<C>*>(w.slot(use)), recv,
                  s.nrecv);
}

template <class S, class C>
void DomainExchange<S, C>::exchange_ids(const Swap& s) {
  if (s.dest == rank_ && s.source == rank_) {
    pack_ids(ids_, s.list, s.nsend, ids_, s.first);
    return;
  }
  grow<std::int64_t>(send_ids_, 0, s.nsend + 1);
  pack_ids(ids_, s.list, s.nsend, send_ids_, 0);
  exchange_buffers<std::int64_t>(Exec(), send_ids_, s.nsend, s.dest,
                                 Kokkos::subview(ids_, std::make_pair(s.first, s.first + s.nrecv)),
                                 s.nrecv, s.source, 30 + 2 * s.dim + (s.to_hi ? 1 : 0), direct_,
                                 stage_out_, stage_in_);
}

template class DomainExchange<double, double>;
template class DomainExchange<double, float>;
template class DomainExchange<float, float>;

}  // namespace mdremap::comm

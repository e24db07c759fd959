#pragma once
// Domain decomposition over MPI ranks (the scheme of LAMMPS' CommBrick and
// ExaMiniMD's CommMPI): each rank owns the atoms of its sub-box; at every list rebuild atoms that
// left it migrate to their new owner and the ghost shell (atoms within cutoff + skin of a face)
// is exchanged with the adjacent ranks, staged x then y then z, two messages per axis, ghosts of
// earlier axes forwarded (so edge and corner ghosts need no diagonal messages), periodic images
// across the box edge made by the same swaps with a shift. Every step the ghosts' positions are
// refreshed through the same send lists (forward communication). Buffers are packed and
// unpacked on the device; MPI reads device memory itself where it is GPU-aware (comm::cuda_aware);
// otherwise, in a CUDA build, each rank writes its ghosts straight into its partner's GPU memory
// through CUDA IPC where the two share a node (comm/peer_window.hpp: what a GPU-aware MPI does
// there), else the buffers are staged through pinned host memory. This replaces the neighbour
// layer's ghost-image unit (neighbor/ghosts.hpp) when a run has more than one rank; the list then
// holds the ghosts as atoms of their own (BasicGhostAtoms::images = false).
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "comm/peer_window.hpp"
#include "comm/rank_grid.hpp"
#include "comm/side_stream.hpp"
#include "comm/transfer.hpp"
#include "mdremap/atoms.hpp"
#include "neighbor/tile_scan.hpp"

namespace mdremap::comm {

// The sub-box test that decides ownership, on host and device alike (the two must agree).
struct OwnerTest {
  double lo[3] = {}, len[3] = {};
  int p[3] = {1, 1, 1};
  // The grid coordinate along d of the sub-box holding coordinate c (wrapped into the box).
  KOKKOS_INLINE_FUNCTION int coord(double c, int d) const {
    const int k = static_cast<int>(Kokkos::floor((c - lo[d]) * p[d] / len[d]));
    return k < 0 ? 0 : (k >= p[d] ? p[d] - 1 : k);
  }
};

// Whether a position is within the ghost shell's width of a face between ranks
// (DomainExchange::near_test): the far region's bounds, infinite along an axis a rank spans alone.
struct NearTest {
  bool on = false;
  double lo[3] = {}, hi[3] = {};
  template <class S>
  KOKKOS_INLINE_FUNCTION bool operator()(const Vec4<S>& p) const {
    const double x = p.x, y = p.y, z = p.z;
    return on && !(x >= lo[0] && x < hi[0] && y >= lo[1] && y < hi[1] && z >= lo[2] && z < hi[2]);
  }
};

template <class S, class C>
class DomainExchange {
 public:
  // This rank's sub-box of `grid` over the box; `rlist` is the ghost shell (cutoff + skin).
  DomainExchange(const RankGrid& grid, int rank, const Box<double>& box, double rlist,
                 Transfer transfer = Transfer::Auto);

  const RankGrid& grid() const { return grid_; }
  const SubDomain& sub() const { return sub_; }
  // The sub-box as the list builder bins it (cells tile it; ghosts fill cells beyond).
  Box<C> sub_box() const;
  // Whether this rank owns an atom at (x, y, z), wrapped into the box.
  bool owns(double x, double y, double z) const;

  // Sends the atoms of `a` (positions wrapped into the box) whose owner is another rank to it
  // and takes in the atoms sent here: positions, velocities, types, ids. Not the forces: a
  // migration runs in a list build, between the integration's first half and the force
  // computation that overwrites them (their values after it are undefined). `a` is
  // reallocated; the kept atoms keep their order, arrivals follow.
  void migrate(AtomArrays<S>& a);
  // New ghost shell: xall[0, nlocal) = x converted to C (skipped where x is the head of xall
  // itself), then the ghosts, xall grown as they arrive (contents kept); their atom ids with
  // them (ids()). Returns the ghost count.
  std::int64_t borders(Kokkos::View<const Vec4<S>*> x, Kokkos::View<const std::int64_t*> id,
                       std::int64_t nlocal, Kokkos::View<Vec4<C>*>& xall);
  // The atom id of every xall entry of the last borders(): local atoms, then ghosts. Only after
  // keep_ids(true) (the ids travel with the ghosts then: a message and two host copies per swap
  // at every list build, which only neighbor.row_order=id needs).
  void keep_ids(bool on) { keep_ids_ = on; }
  Kokkos::View<const std::int64_t*> ids() const;
  // Per step: xall[0, nlocal) from x (skipped where x is its head), then the ghosts' positions
  // through the send lists of the last borders().
  void forward(Kokkos::View<const Vec4<S>*> x, std::int64_t nlocal, Kokkos::View<Vec4<C>*> xall);
  // forward() in three parts, for work that overlaps the ghosts' travel: forward_begin()
  // converts the locals on the default instance and marks the point the ghost update waits for
  // (everything launched there so far); forward_run() queues the update, on the side stream
  // where overlap(true) made one (host staging exchanges its messages here, the host waiting in
  // MPI while the GPU runs what was launched before); forward_join() runs it if not yet run and
  // makes the default instance's next work wait for it (no host wait). Between begin and join
  // the default instance may run anything that neither reads the ghosts nor writes what the
  // update reads (the local positions, this rank's own periodic images). migrate(), borders()
  // and the next forward_begin() join first themselves.
  void forward_begin(Kokkos::View<const Vec4<S>*> x, std::int64_t nlocal,
                     Kokkos::View<Vec4<C>*> xall);
  void forward_run();
  void forward_join();
  // xall[0, nlocal) from x only (skipped where x is its head): what the displacement check reads.
  void locals(Kokkos::View<const Vec4<S>*> x, std::int64_t nlocal, Kokkos::View<Vec4<C>*> xall);
  // Puts the atoms whose neighbour rows may hold other ranks' ghosts last: those within the
  // ghost shell's width (cutoff + skin, and a rounding margin) of a face between ranks, beyond
  // which every such ghost lies. A stable partition into the spare arrays (`a` replaced; none when
  // already in place): both parts keep their order; the forces are not carried (as migrate()).
  // Returns how many atoms come first (none near a face). Call before the ghost shell and the
  // list build.
  std::int64_t near_faces_last(AtomArrays<S>& a);
  // How many near_faces_last() calls had to move atoms (the others found them in place).
  std::int64_t near_face_reorders() const { return reorders_; }
  // The ghost update on a stream of its own (comm/side_stream.hpp) from now on, or not.
  void overlap(bool on);
  bool overlapped() const { return side_ != nullptr; }
  // Where the ghost update runs (the side stream, else the default instance): work launched
  // there after forward_run() sees the ghosts, and forward_join() makes the default wait for it.
  ExecSpace side_space() const { return side_ ? side_->space() : ExecSpace(); }
  // Seconds the ghost updates of forward_begin() ran on the side stream so far (waits for it).
  double overlapped_seconds() { return side_ ? side_->seconds() : 0.0; }

  std::int64_t nghost() const { return nghost_; }
  std::int64_t migrated() const { return migrated_; }  // atoms sent away so far
  // Of those, the atoms that travelled through MPI (host staging, or GPU-aware MPI), not
  // straight into the partner's GPU memory (peer windows).
  std::int64_t migrated_through_mpi() const { return staged_moves_; }
  // How ghost positions travel now (summary, run header), and why peer windows are not used
  // where they were wanted ("" otherwise).
  std::string transfer() const;
  // Seconds spent in MPI by the ghost position exchanges so far (the messages, and waiting for
  // the partners to reach them: a slower rank shows here).
  double mpi_seconds() const { return mpi_seconds_; }
  const std::string& peer_problem() const { return peer_problem_; }

 private:
  struct Swap {
    int dim = 0;
    bool to_hi = false;        // sends the atoms near the hi face to the rank above
    int dest = 0, source = 0;  // ranks sent to, received from
    C shift = 0;               // added along dim to the sent positions (periodic image)
    Kokkos::View<int*> list;   // xall entries sent
    std::int64_t nsend = 0, nrecv = 0;
    std::int64_t first = 0;       // where the received ghosts go in xall
    Kokkos::View<unsigned> done;  // teams of the peer send finished (reset by the last)
    std::uint64_t uses = 0;       // exchanges received so far: the peer window's slot alternates
                                  // with it, its flag counts them
  };
  // send, then receive, on the default instance (borders)
  void exchange_swap(Swap& s, int index, Kokkos::View<Vec4<C>*> xall);
  void send_swap(const ExecSpace& space, Swap& s, int index, Kokkos::View<Vec4<C>*> xall);
  void receive_swap(const ExecSpace& space, Swap& s, int index, Kokkos::View<Vec4<C>*> xall);
  // Kept capacity for the per-atom arrays a migration writes (two sets, used in turn).
  struct AtomBuffers {
    std::int64_t cap = 0;
    Kokkos::View<Vec4<S>*> x;
    Kokkos::View<S*> v, f;  // 3 x warp_multiple(cap): components on lines (vectors_over)
    Kokkos::View<int*> type;
    Kokkos::View<std::int64_t*> id;
  };
  AtomArrays<S> arrays_beside(const AtomArrays<S>& a, std::int64_t n);
  NearTest near_test() const;
  void link_peer(const Swap& s, int index);
  void exchange_ids(const Swap& s);

  RankGrid grid_;
  int rank_;
  SubDomain sub_;
  OwnerTest owner_;
  Box<double> box_;
  double rlist_;
  std::vector<Swap> swaps_;  // two per axis: the axes this rank alone spans first
  int own_swaps_ = 0;        // those first swaps (its own periodic images)
  std::int64_t nghost_ = 0;
  std::int64_t migrated_ = 0;
  std::int64_t staged_moves_ = 0;  // migrated atoms sent through MPI
  std::int64_t reorders_ = 0;      // near_faces_last() calls that moved atoms
  double mpi_seconds_ = 0;
  bool direct_;        // MPI may read and write the device buffers (host memory or GPU-aware MPI)
  bool peer_ = false;  // ghosts written into the partner's GPU memory (CUDA IPC)
  bool keep_ids_ = false;
  std::unique_ptr<SideStream> side_;  // the ghost update's stream (overlap(true))
  bool pending_run_ = false;          // a forward_begin() whose update is not yet queued
  bool pending_join_ = false;         // a forward_begin() not yet joined
  Kokkos::View<Vec4<C>*> in_flight_;  // its xall
  Transfer want_;
  std::string peer_problem_;
  std::vector<std::unique_ptr<PeerWindow>> windows_;  // per swap: where its partner writes
  // Per migration axis d: [2 d] the atoms going to the rank below (this rank's window takes
  // those coming down from the rank above), [2 d + 1] those going up; and the atoms each window
  // is to hold at its next reserve.
  std::array<std::unique_ptr<PeerWindow>, 6> move_windows_;
  std::array<std::int64_t, 6> move_cap_{};
  std::int64_t move_floor_ =
      0;  // MDREMAP_MOVE_WINDOW_ATOMS (tests), else 0: max(4096, atoms / 128)
  Kokkos::View<std::int64_t*> ids_;       // atom id of each xall entry (borders)
  Kokkos::View<Vec4<C>*> send_;           // packed positions of a swap
  Kokkos::View<std::int64_t*> send_ids_;  // packed ids of a swap (borders)
  // A byte per entry: where each atom goes along an axis (migrate), which face shells an entry
  // is in (borders); and an atom's place among the atoms going where it goes (migrate).
  Kokkos::View<unsigned char*> marks_;
  Kokkos::View<int*> slot_;
  // The scans' tile sums and offsets (kept: allocations are device-wide waits).
  TileScan<5, ExecSpace> split_scan_;  // migrate: a counter per destination
  TileScan<2, ExecSpace> pair_scan_;   // borders: the two shells; near_faces_last: far, near
  Kokkos::View<double*> out_lo_, out_hi_, in_lo_, in_hi_;  // migrating atoms (migrate)
  AtomBuffers spare_[2];
  // Pinned host staging of every message MPI may not take from device memory (ghost
  // positions, ids, migrating atoms).
  Kokkos::View<unsigned char*, Kokkos::SharedHostPinnedSpace> stage_out_, stage_in_;
};

}  // namespace mdremap::comm

#pragma once
// Ghost images: the periodic copies of atoms within the list cutoff of a box face. This unit is
// the seam where a domain decomposition exchanges ghosts with neighbouring ranks (BRIEF section
// 11): here the only neighbour is the periodic box itself. Its whole interface is the two calls
// below and what they leave in BasicGhostAtoms; the binning, the list kernels and the force read
// only nlocal, nghost, owner and shift.
#include <cstdint>

#include "neighbor/tile_scan.hpp"
#include "neighbor/spaces.hpp"

namespace mdremap::neighbor {

// Ghost g is atom owner[g] shifted by shift[g] box lengths, stored after the local atoms: index
// nlocal + g. Pairs then need no minimum image. Where ghosts come from other MPI ranks
// (comm/domain_exchange.hpp), `images` is false: they are atoms of their own, owner and shift
// are empty, the binning places them by their coordinates and lists are full (no Newton's third
// law across ranks).
template <class Space>
struct BasicGhostAtoms {
  std::int64_t nlocal = 0;
  std::int64_t nghost = 0;
  bool images = true;
  Kokkos::View<int*, Space> owner;   // nghost
  Kokkos::View<int*, Space> shift;   // nghost, (sx+1) + 3 (sy+1) + 9 (sz+1), s in {-1, 0, 1}
  Kokkos::View<int*, Space> count;   // nlocal, images per atom (scratch)
  Kokkos::View<int*, Space> offset;  // nlocal + 1 (scratch)
  TileScan<1, Space> offsets_scan;   // count -> offset (its scratch)
};
using GhostAtoms = BasicGhostAtoms<ExecSpace>;

// Finds the images of wrapped local positions x[0, nlocal) within `rlist` of the faces.
template <class T, class Space>
void build_ghosts(nondeduced_t<Kokkos::View<const Vec4<T>*, Space>> x, std::int64_t nlocal,
                  const Box<T>& box, double rlist, BasicGhostAtoms<Space>& g);

// xall[0, nlocal) = convert(x), xall[nlocal + g] = convert(x[owner[g]]) + shift[g] * len:
// the per-step position update of local and ghost copies in the force precision C, from entry
// `first` on (nlocal: the ghosts only, where x is the head of xall itself).
template <class S, class C, class Space>
void update_positions(nondeduced_t<Kokkos::View<const Vec4<S>*, Space>> x,
                      const BasicGhostAtoms<Space>& g, const Box<C>& box,
                      nondeduced_t<Kokkos::View<Vec4<C>*, Space>> xall, std::int64_t first = 0);

}  // namespace mdremap::neighbor

#pragma once
// The full-list pair sum of one atom for any evaluator (evaluator.hpp) and any remap accessor
// (include/mdremap/remap/accessors.hpp): thread i reads its neighbours through nb(j, i),
// j < nb.count(i), and writes f(i) once. Neighbours are local atoms or periodic ghost images, so
// no minimum image is needed. How the neighbours are walked is the backend's (Rows: this file's
// portable walk, full_cuda.hpp's pipelined one); the host's own loops are in full_host.hpp.
#include <cstdint>
#include <type_traits>

#include "mdremap/atoms.hpp"
#include "mdremap/remap/accessors.hpp"
#include "mdremap/remap/delta_index.hpp"
#include "mdremap/remap/lanes.hpp"

namespace mdremap::md {

// An accessor whose strided index and data a pair loop may walk itself (remap::AccessTraits),
// one element a reference: the host's SIMD loops read through it.
template <class Access>
inline constexpr bool kWalksIndex =
    remap::AccessTraits<Access>::kIndexWalk && !remap::AccessTraits<Access>::kNumberedElements;

// One pair's arithmetic, shared by every pair functor: the separation d = xi - xj, its square,
// and the scalar force fp (the force on i is fp * d); EV: the pair energy into ep.
template <bool EV, bool OneType, class P, class C, class Xj>
KOKKOS_FORCEINLINE_FUNCTION C pair_force(const P& pot, const Vec4<C>& xi, const int ti,
                                         const Xj& xj, C& dx, C& dy, C& dz, C& rsq, C& ep) {
  dx = xi.x - xj.x, dy = xi.y - xj.y, dz = xi.z - xj.z;
  rsq = dx * dx + dy * dy + dz * dz;
  const int k = OneType ? 0 : ti + static_cast<int>(xj.w);
  return pot.template eval<EV, OneType>(rsq, k, ep);
}

// One neighbour xj of atom i (position xi, type row ti) into i's sums: the evaluator's F/r and
// energy. OneType (the common case): the coefficients are loop constants and the neighbour's
// type is never decoded.
template <bool EV, bool OneType, class P, class C, class A>
struct FullPair {
  using Point = Vec4<C>;
  static constexpr bool kEnergy = EV, kOneType = OneType;
  const P& pot;
  const Vec4<C>& xi;
  const int ti;
  A& fx;
  A& fy;
  A& fz;
  double& ei;
  double& wi;
  template <class Xj>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const Xj& xj) const {
    C dx, dy, dz, rsq, ep = 0;
    const C fp = pair_force<EV, OneType>(pot, xi, ti, xj, dx, dy, dz, rsq, ep);
    fx += fp * dx;
    fy += fp * dy;
    fz += fp * dz;
    if constexpr (EV) {
      ei += ep;
      wi += double(fp) * double(rsq);
    }
  }
};

// The portable walk: nb(j, i) is a reference where the accessor has one (no copy on CPUs). The
// gather's 16-bit index is decoded in order by its accessor (remap.index_bits 16).
struct PortableRows {
  template <class Access, class Pair>
  KOKKOS_FORCEINLINE_FUNCTION static void run(const Access& nb, const std::int64_t i, const int cnt,
                                              const Pair& pair) {
    if constexpr (remap::AccessTraits<Access>::kInOrderOnly) {
      nb.for_each(i, pair);
    } else {
      for (int j = 0; j < cnt; ++j) pair(nb(j, i));
    }
  }
  // Lane `lane` of L: neighbours lane, lane + L, ... (remap.lanes; the 16-bit index: L = 1).
  template <int L, class Access, class Pair>
  KOKKOS_FORCEINLINE_FUNCTION static void run_lanes(const Access& nb, const std::int64_t i,
                                                    const int lane, const int cnt,
                                                    const Pair& pair) {
    if constexpr (L == 1)
      run(nb, i, cnt, pair);
    else
      for (int j = lane; j < cnt; j += L) pair(nb(j, i));
  }
};

// One atom's full-list force and (EV) half its pairs' energy and virial, its neighbours walked
// by Rows, on lane `lane` of the L lanes serving atom i (remap.lanes, lanes.hpp): each lane sums
// every L-th neighbour, the lanes' forces are added by shuffles and lane 0 writes f(i); each
// lane's share of the energy and virial goes into the range reduction. L = 1: one thread an atom.
template <class Rows, bool EV, int L, class P, class C, class A, class Access>
KOKKOS_INLINE_FUNCTION void full_atom_lanes(const Access& nb, const Kokkos::View<const Vec4<C>*>& x,
                                            const Kokkos::View<A* [3]>& f, const P& pot,
                                            const std::int64_t i, const int lane, double& e,
                                            double& w) {
  const Vec4<C> xi = x(i);
  const int ti = static_cast<int>(xi.w) * kMaxTypes;
  A fx = 0, fy = 0, fz = 0;
  double ei = 0, wi = 0;
  const int cnt = nb.count(i);
  if (pot.ntypes == 1)
    Rows::template run_lanes<L>(nb, i, lane, cnt,
                                FullPair<EV, true, P, C, A>{pot, xi, ti, fx, fy, fz, ei, wi});
  else
    Rows::template run_lanes<L>(nb, i, lane, cnt,
                                FullPair<EV, false, P, C, A>{pot, xi, ti, fx, fy, fz, ei, wi});
  fx = remap::LaneGroup<L>::sum(fx);
  fy = remap::LaneGroup<L>::sum(fy);
  fz = remap::LaneGroup<L>::sum(fz);
  if (lane == 0) {
    f(i, 0) = fx;
    f(i, 1) = fy;
    f(i, 2) = fz;
  }
  if constexpr (EV) {
    e += 0.5 * ei;  // each pair is seen from both atoms
    w += 0.5 * wi;
  }
}

template <class Rows, bool EV, class P, class C, class A, class Access>
KOKKOS_INLINE_FUNCTION void full_atom(const Access& nb, const Kokkos::View<const Vec4<C>*>& x,
                                      const Kokkos::View<A* [3]>& f, const P& pot,
                                      const std::int64_t i, double& e, double& w) {
  full_atom_lanes<Rows, EV, 1>(nb, x, f, pot, i, 0, e, w);
}

// The portable full-list loop (any backend, any accessor).
struct PortableFullLoop {
  using Rows = PortableRows;
  template <bool EV, class P, class C, class A, class Access>
  KOKKOS_INLINE_FUNCTION static void atom(const Access& nb, const Kokkos::View<const Vec4<C>*>& x,
                                          const Kokkos::View<A* [3]>& f, const P& pot,
                                          const std::int64_t i, double& e, double& w) {
    full_atom<PortableRows, EV>(nb, x, f, pot, i, e, w);
  }
};

}  // namespace mdremap::md

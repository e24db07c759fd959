#pragma once
// The LJ pair-force drivers: one generic loop over neighbours that calls the evaluator (lj.hpp),
// reading neighbour data through a remap accessor (remap/gather.hpp), so every remap strategy
// reuses the same loop. C: arithmetic/gather precision; A: force accumulation and storage.
#include <Kokkos_ScatterView.hpp>

#include "md/lj.hpp"
#include "neighbor/neighbor_list.hpp"
#include "remap/gather.hpp"

namespace mdremap::md {

struct ForceResult {
  double e_pair = 0;  // total pair energy (not per atom)
  double virial = 0;  // sum over pairs r_ij . f_ij
};

// Full list, one thread per atom, no write conflicts: f[i] is written once. Neighbours are local
// atoms or periodic ghost images, so no minimum image is needed.
template <class C, class A, class Access>
struct LJFullKernel {
  Access nb;
  Kokkos::View<const Vec4<C>*> x;
  Kokkos::View<A* [3]> f;
  LJTable<C> lj;

  template <bool EV>
  KOKKOS_INLINE_FUNCTION void atom(const int i, double& e, double& w) const {
    const Vec4<C> xi = x(i);
    const int ti = static_cast<int>(xi.w) * kMaxTypes;
    A fx = 0, fy = 0, fz = 0;
    double ei = 0, wi = 0;
    const int cnt = nb.count(i);
    for (int j = 0; j < cnt; ++j) {
      const Vec4<C> xj = nb(j, i);
      const C dx = xi.x - xj.x, dy = xi.y - xj.y, dz = xi.z - xj.z;
      const C rsq = dx * dx + dy * dy + dz * dz;
      C ep = 0;
      const C fp = lj.template eval<EV>(rsq, ti + static_cast<int>(xj.w), ep);
      fx += fp * dx;
      fy += fp * dy;
      fz += fp * dz;
      if constexpr (EV) {
        ei += ep;
        wi += double(fp) * double(rsq);
      }
    }
    f(i, 0) = fx;
    f(i, 1) = fy;
    f(i, 2) = fz;
    if constexpr (EV) {
      e += 0.5 * ei;  // each pair is seen from both atoms
      w += 0.5 * wi;
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    double e, w;
    atom<false>(i, e, w);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int i, double& e, double& w) const {
    atom<true>(i, e, w);
  }
};

// Half list (Newton's third law): each pair once, the partner's force scattered (atomics on the
// GPU, per-thread copies on OpenMP through Kokkos::ScatterView).
template <class C, class A, class Access, class Scatter>
struct LJHalfKernel {
  Access nb;
  Kokkos::View<const Vec4<C>*> x;
  Scatter fs;
  LJTable<C> lj;
  Kokkos::View<const int*> owner;
  std::int64_t nlocal;

  template <bool EV>
  KOKKOS_INLINE_FUNCTION void atom(const int i, double& e, double& w) const {
    auto fa = fs.access();
    const Vec4<C> xi = x(i);
    const int ti = static_cast<int>(xi.w) * kMaxTypes;
    A fx = 0, fy = 0, fz = 0;
    double ei = 0, wi = 0;
    const int cnt = nb.count(i);
    for (int jj = 0; jj < cnt; ++jj) {
      const Vec4<C> xj = nb(jj, i);
      const C dx = xi.x - xj.x, dy = xi.y - xj.y, dz = xi.z - xj.z;
      const C rsq = dx * dx + dy * dy + dz * dz;
      const int k = ti + static_cast<int>(xj.w);
      if (rsq < lj.cutsq[k]) {  // one branch per pair: about a third of the list is beyond rc
        C ep = 0;
        const C fp = lj.template force<EV>(rsq, k, ep);
        int j = nb.source(jj, i);
        if (j >= nlocal) j = owner(j - nlocal);  // a ghost's force goes to its owner
        fx += fp * dx;
        fy += fp * dy;
        fz += fp * dz;
        fa(j, 0) -= A(fp * dx);
        fa(j, 1) -= A(fp * dy);
        fa(j, 2) -= A(fp * dz);
        if constexpr (EV) {
          ei += ep;
          wi += double(fp) * double(rsq);
        }
      }
    }
    fa(i, 0) += fx;
    fa(i, 1) += fy;
    fa(i, 2) += fz;
    if constexpr (EV) {
      e += ei;
      w += wi;
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    double e, w;
    atom<false>(i, e, w);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int i, double& e, double& w) const {
    atom<true>(i, e, w);
  }
};

template <class C, class A>
class LJForce {
 public:
  LJForce(const PairCoeffs& pc, bool shift) : lj_(make_lj_table<C>(pc, shift)) {}

  // Forces on the local atoms into f (overwritten); xall holds local atoms then ghosts. Energy
  // and virial only when `ev` (thermo steps).
  ForceResult compute(Kokkos::View<const Vec4<C>*> xall, const neighbor::NeighborList& list,
                      const neighbor::GhostAtoms& ghosts, Kokkos::View<A* [3]> f, bool ev,
                      remap::GatherPath path = remap::GatherPath::ReadOnly);
  const LJTable<C>& table() const { return lj_; }

 private:
  template <class Access>
  ForceResult run(const Access& acc, Kokkos::View<const Vec4<C>*> x, bool half,
                  const neighbor::GhostAtoms& ghosts, Kokkos::View<A* [3]> f, bool ev);
  using ScatterF =
      Kokkos::Experimental::ScatterView<A* [3], typename Kokkos::View<A* [3]>::array_layout,
                                        ExecSpace>;
  LJTable<C> lj_;
  ScatterF scatter_;
  A* scatter_target_ = nullptr;
};

}  // namespace mdremap::md

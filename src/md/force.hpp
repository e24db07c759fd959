#pragma once
// The LJ pair-force drivers: one generic loop over neighbours that calls the evaluator (lj.hpp),
// reading neighbour data through a remap accessor (remap/gather.hpp), so every remap strategy
// reuses the same loop. C: arithmetic/gather precision; A: force accumulation and storage.
#include <Kokkos_ScatterView.hpp>

#include "md/lj.hpp"
#include "neighbor/neighbor_list.hpp"
#include "remap/device_pattern.hpp"
#include "remap/gather.hpp"
#include "remap/texture.hpp"

namespace mdremap::md {

struct ForceResult {
  double e_pair = 0;  // total pair energy (not per atom)
  double virial = 0;  // sum over pairs r_ij . f_ij
};

// One atom of the full-list force: thread i reads its neighbours through any remap accessor
// (nb(j, i), j < nb.count(i)) and writes f(i) once. Neighbours are local atoms or periodic ghost
// images, so no minimum image is needed. Every full-list kernel (range or team) calls this.
template <bool EV, class C, class A, class Access>
KOKKOS_INLINE_FUNCTION void lj_full_atom(const Access& nb, const Kokkos::View<const Vec4<C>*>& x,
                                         const Kokkos::View<A* [3]>& f, const LJTable<C>& lj,
                                         const std::int64_t i, double& e, double& w) {
  const Vec4<C> xi = x(i);
  const int ti = static_cast<int>(xi.w) * kMaxTypes;
  A fx = 0, fy = 0, fz = 0;
  double ei = 0, wi = 0;
  const int cnt = nb.count(i);
  for (int j = 0; j < cnt; ++j) {
    const auto& xj = nb(j, i);  // a reference where the accessor has one: no copy on CPUs
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

// Full list, one thread per atom, no write conflicts: f[i] is written once.
template <class C, class A, class Access>
struct LJFullKernel {
  Access nb;
  Kokkos::View<const Vec4<C>*> x;
  Kokkos::View<A* [3]> f;
  LJTable<C> lj;

  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    double e, w;
    lj_full_atom<false>(nb, x, f, lj, i, e, w);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int i, double& e, double& w) const {
    lj_full_atom<true>(nb, x, f, lj, i, e, w);
  }
};

// The same atom as a remap compute body (remap/strategy.hpp): the strategy launches the kernels
// (dup's chunked range kernels, sharing's team kernel staging shared memory) and hands in its
// accessor. The MD force kernel has three reference patterns: the gather pos[P[j][i]], its own
// pos[i] and the write f[i] (padding refuses it, seed 001 §3.3).
template <class C, class A>
struct LJFullBody {
  static constexpr int kReferencePatterns = 3;
  Kokkos::View<const Vec4<C>*> x;
  Kokkos::View<A* [3]> f;
  LJTable<C> lj;
  template <bool EV, class Access>
  KOKKOS_INLINE_FUNCTION void thread(const std::int64_t i, const Access& nb,
                                     remap::Sums2& s) const {
    lj_full_atom<EV>(nb, x, f, lj, i, s.s0, s.s1);
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
      const auto& xj = nb(jj, i);
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
  remap::TextureObject<Vec4<C>> tex_;  // gather path texture (CUDA)
  ScatterF scatter_;
  A* scatter_target_ = nullptr;
};

}  // namespace mdremap::md

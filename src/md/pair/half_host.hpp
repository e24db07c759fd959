#pragma once
// Host (OpenMP) half list over the plain gather for any evaluator, LAMMPS OPENMP-package style:
// each thread adds into its own force copy covering local and ghost slots, so the partner update
// needs neither atomics nor an owner lookup (PairDriver clears the copies before and folds them,
// ghost slots into their owners, after). The loop stays scalar: GCC's AVX-512 masked
// gather/scatter form of it, and a split form (an `omp simd` loop computing a chunk's pair forces
// into a buffer, then a scalar loop subtracting them from the partners), both measured slower,
// and this form faster than the ScatterView kernel (half_portable.hpp; docs/benchmarks.md).
#include <cstdint>

#include "md/pair/full_portable.hpp"
#include "mdremap/remap/strategy.hpp"

#ifdef KOKKOS_ENABLE_OPENMP
namespace mdremap::md {

template <bool EV, class P, class C, class A>
inline void half_atom_host(const C* __restrict xd, const int* __restrict idx, const std::int64_t sj,
                           const int cnt, const P& pot, const std::int64_t i, A* __restrict ft,
                           double& e, double& w) {
  A fx = 0, fy = 0, fz = 0;
  double ei = 0, wi = 0;
  const C xx = xd[4 * i], xy = xd[4 * i + 1], xz = xd[4 * i + 2];
  const int ti = static_cast<int>(xd[4 * i + 3]) * kMaxTypes;
  const bool one = pot.ntypes == 1;
  for (int jj = 0; jj < cnt; ++jj) {
    const std::int64_t j = idx[jj * sj];
    const C dx = xx - xd[4 * j], dy = xy - xd[4 * j + 1], dz = xz - xd[4 * j + 2];
    const C rsq = dx * dx + dy * dy + dz * dz;
    const int k = one ? 0 : ti + static_cast<int>(xd[4 * j + 3]);
    if (rsq < pot.cutsq(k)) {
      C ep = 0;
      const C fp = pot.template force<EV>(rsq, k, ep);
      fx += fp * dx;
      fy += fp * dy;
      fz += fp * dz;
      ft[3 * j] -= A(fp * dx);
      ft[3 * j + 1] -= A(fp * dy);
      ft[3 * j + 2] -= A(fp * dz);
      if constexpr (EV) {
        ei += ep;
        wi += double(fp) * double(rsq);
      }
    }
  }
  ft[3 * i] += fx;
  ft[3 * i + 1] += fy;
  ft[3 * i + 2] += fz;
  if constexpr (EV) {
    e += ei;
    w += wi;
  }
}

// The host half list as a remap body: each OpenMP thread adds into its own force copy.
template <class P, class C, class A>
struct HalfHostBody {
  static constexpr remap::PatternLayout kLayout = remap::PatternLayout::Strided;
  static constexpr bool kWritesThroughPattern = true;
  A* copies = nullptr;
  std::int64_t stride = 0;  // 3 * (local + ghost atoms)
  P pot;
  template <bool EV, class Access>
  KOKKOS_INLINE_FUNCTION void thread(const std::int64_t i, const Access& nb,
                                     remap::Sums2& s) const {
    if constexpr (kWalksIndex<Access>) {
      A* ft = copies + Kokkos::OpenMP::impl_hardware_thread_id() * stride;
      half_atom_host<EV, P, C, A>(reinterpret_cast<const C*>(nb.data.data()),
                                  nb.index.data() + i * nb.stride_t, nb.stride_j, nb.count(i), pot,
                                  i, ft, s.s0, s.s1);
    }
  }
};

}  // namespace mdremap::md
#endif

#pragma once
// The pair virial as a tensor, W_ab = sum over pairs of r_a F_b (r = x_i - x_j, F the force on
// i), in the order xx yy zz xy xz yz (LAMMPS' compute pressure vector). A pass of its own over
// the force engine's list, run only where a run asks for it (the thermo columns pxx..pyz,
// per-axis pressure coupling): the force kernels, and every step that does not ask, stay as
// they are. Its trace is the scalar virial the force kernels sum.
#include <Kokkos_Core.hpp>
#include <array>
#include <cstdint>

#include "md/force.hpp"
#include "md/pair/full_cuda.hpp"
#include "md/pair/full_portable.hpp"
#include "mdremap/remap/device_pattern.hpp"
#include "neighbor/cluster_list.hpp"

namespace mdremap::md {

// One pair into the six sums (the evaluator's F/r, zero beyond the cut-off). OneType: the
// coefficients are loop constants, as in the force kernels (same values, so the same sums).
template <bool OneType, class P, class C, class Xj>
KOKKOS_INLINE_FUNCTION void tally_pair(const P& pot, const Vec4<C>& xi, const int ti, const Xj& xj,
                                       double& xx, double& yy, double& zz, double& xy, double& xz,
                                       double& yz) {
  C dx, dy, dz, rsq, ep = 0;
  const double fp = pair_force<false, OneType>(pot, xi, ti, xj, dx, dy, dz, rsq, ep);
  const double ddx = dx, ddy = dy, ddz = dz;
  xx += fp * ddx * ddx;
  yy += fp * ddy * ddy;
  zz += fp * ddz * ddz;
  xy += fp * ddx * ddy;
  xz += fp * ddx * ddz;
  yz += fp * ddy * ddz;
}

// One atom's pairs into its six sums, as a row walker calls it (pair(xj) per neighbour).
template <bool OneType, class P, class C>
struct TensorPair {
  using Point = Vec4<C>;
  const P& pot;
  const Vec4<C>& xi;
  const int ti;
  double &xx, &yy, &zz, &xy, &xz, &yz;
  template <class Xj>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const Xj& xj) const {
    tally_pair<OneType>(pot, xi, ti, xj, xx, yy, zz, xy, xz, yz);
  }
};

// Over a plain list (neighbour j < len(i) of atom i at index[j * stride_j + i * stride_t]): a
// full list sees each pair twice (weight 1/2), a half list once (weight 1). The rows are walked
// as the force kernels walk them (on CUDA the pipelined walk, index loads in flight ahead of
// the positions), in list order.
template <bool OneType, class P, class C>
VirialTensor list_virial_tensor_of(const P& pot, const Kokkos::View<const Vec4<C>*>& x,
                                   const remap::PatternView& pv, const double weight) {
#if defined(__CUDACC__)
  using Rows = CudaPipelinedRows;
#else
  using Rows = PortableRows;
#endif
  using Access = remap::GatherAccess<Vec4<C>>;
  const Access nb = Access::of(pv, x);
  double s[6] = {};
  Kokkos::parallel_reduce(
      "ForceLJ::virial_tensor", Kokkos::RangePolicy<ExecSpace>(0, pv.threads),
      KOKKOS_LAMBDA(const std::int64_t i, double& xx, double& yy, double& zz, double& xy,
                    double& xz, double& yz) {
        const Vec4<C> xi = x(i);
        const int ti = static_cast<int>(xi.w) * kMaxTypes;
        const TensorPair<OneType, P, C> pair{pot, xi, ti, xx, yy, zz, xy, xz, yz};
        Rows::run(nb, i, nb.count(i), pair);
      },
      s[0], s[1], s[2], s[3], s[4], s[5]);
  VirialTensor w;
  for (int k = 0; k < 6; ++k) w[k] = weight * s[k];
  return w;
}

template <class P, class C>
VirialTensor list_virial_tensor(const P& pot, const Kokkos::View<const Vec4<C>*>& x,
                                const remap::PatternView& pv, const double weight) {
  return pot.ntypes == 1 ? list_virial_tensor_of<true>(pot, x, pv, weight)
                         : list_virial_tensor_of<false>(pot, x, pv, weight);
}

// Over a cluster-pair list's masks (every pair from both sides, neighbor/cluster_list.hpp), on
// the positions in cluster order (weight 1/2).
template <bool OneType, class P, class C>
VirialTensor cluster_virial_tensor_of(const P& pot, const Kokkos::View<const Vec4<C>*>& xc,
                                      const neighbor::ClusterList& list) {
  const auto atom = list.atom;
  const auto count = list.count;
  const auto cj = list.cj;
  const auto mask = list.mask;
  const int m = list.m, words = list.words, cap = list.max_pairs;
  const std::uint32_t row_bits = m >= 32 ? ~0u : (1u << m) - 1u;
  double s[6] = {};
  Kokkos::parallel_reduce(
      "ForceLJ::cluster_virial_tensor",
      Kokkos::RangePolicy<ExecSpace>(0, std::int64_t(list.n_iclusters) * m),
      KOKKOS_LAMBDA(const std::int64_t slot, double& xx, double& yy, double& zz, double& xy,
                    double& xz, double& yz) {
        if (atom(slot) < 0) return;  // padding
        const std::int64_t ic = slot / m;
        const int ii = static_cast<int>(slot % m);
        const int word = (ii * m) / 32, shift = (ii * m) % 32;
        const Vec4<C> xi = xc(slot);
        const int ti = static_cast<int>(xi.w) * kMaxTypes;
        const std::int64_t row = ic * cap;
        for (int k = 0; k < count(ic); ++k) {
          std::uint32_t bits = (mask((row + k) * words + word) >> shift) & row_bits;
          const std::int64_t j0 = std::int64_t(cj(row + k)) * m;
          for (int jj = 0; bits != 0u; ++jj, bits >>= 1)
            if (bits & 1u) tally_pair<OneType>(pot, xi, ti, xc(j0 + jj), xx, yy, zz, xy, xz, yz);
        }
      },
      s[0], s[1], s[2], s[3], s[4], s[5]);
  VirialTensor w;
  for (int k = 0; k < 6; ++k) w[k] = 0.5 * s[k];
  return w;
}

template <class P, class C>
VirialTensor cluster_virial_tensor(const P& pot, const Kokkos::View<const Vec4<C>*>& xc,
                                   const neighbor::ClusterList& list) {
  return pot.ntypes == 1 ? cluster_virial_tensor_of<true>(pot, xc, list)
                         : cluster_virial_tensor_of<false>(pot, xc, list);
}

}  // namespace mdremap::md

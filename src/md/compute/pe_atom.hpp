#pragma once
// Per-atom potential energy (LAMMPS' compute pe/atom): half of each pair's energy to each of its
// two atoms, with the energy shift at the cut-off that the thermo's pair energy has, so the sum
// over the atoms is the thermo's pair energy times N (the tail correction is added per type by
// the engine, md/pair/lj.hpp tail_energy_per_type). A pass of its own over the force engine's
// list on the positions of its last evaluation, run only for the frames that write the field
// (output.h5md.fields potential_energy): the force kernels stay as they are.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "md/pair/full_portable.hpp"
#include "mdremap/remap/device_pattern.hpp"
#include "neighbor/cluster_list.hpp"

namespace mdremap::md {

// Over a plain list (neighbour j < len(i) of atom i at index[j * stride_j + i * stride_t]) into
// e[0, threads). A full list holds each pair from both sides: each side keeps its half. A half
// list holds it once: the half of a ghost's side goes to the atom it images (owner, the ghosts
// from nlocal on).
template <class P, class C>
void list_atom_energies(const P& pot, const Kokkos::View<const Vec4<C>*>& x,
                        const remap::PatternView& pv, bool half, Kokkos::View<const int*> owner,
                        std::int64_t nlocal, Kokkos::View<double*> e) {
  const auto index = pv.index;
  const auto len = pv.len;
  const std::int64_t sj = pv.stride_j, st = pv.stride_t;
  Kokkos::deep_copy(e, 0.0);
  Kokkos::parallel_for(
      "ForceLJ::atom_energies", Kokkos::RangePolicy<ExecSpace>(0, pv.threads),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const Vec4<C> xi = x(i);
        const int ti = static_cast<int>(xi.w) * kMaxTypes;
        double ei = 0;
        for (int j = 0; j < len(i); ++j) {
          const int k = index(j * sj + i * st);
          C dx, dy, dz, rsq, ep = 0;
          pair_force<true, false>(pot, xi, ti, x(k), dx, dy, dz, rsq, ep);
          ei += 0.5 * double(ep);
          if (half) Kokkos::atomic_add(&e(k < nlocal ? k : owner(k - nlocal)), 0.5 * double(ep));
        }
        if (half)
          Kokkos::atomic_add(&e(i), ei);
        else
          e(i) = ei;
      });
}

// Over a cluster-pair list's masks (every pair from both sides, neighbor/cluster_list.hpp), on
// the positions in cluster order: each i atom slot's half into its atom's entry of e.
template <class P, class C>
void cluster_atom_energies(const P& pot, const Kokkos::View<const Vec4<C>*>& xc,
                           const neighbor::ClusterList& list, Kokkos::View<double*> e) {
  const auto atom = list.atom;
  const auto count = list.count;
  const auto cj = list.cj;
  const auto mask = list.mask;
  const int m = list.m, words = list.words, cap = list.max_pairs;
  const std::uint32_t row_bits = m >= 32 ? ~0u : (1u << m) - 1u;
  Kokkos::deep_copy(e, 0.0);
  Kokkos::parallel_for(
      "ForceLJ::cluster_atom_energies",
      Kokkos::RangePolicy<ExecSpace>(0, std::int64_t(list.n_iclusters) * m),
      KOKKOS_LAMBDA(const std::int64_t slot) {
        if (atom(slot) < 0) return;  // padding
        const std::int64_t ic = slot / m;
        const int ii = static_cast<int>(slot % m);
        const int word = (ii * m) / 32, shift = (ii * m) % 32;
        const Vec4<C> xi = xc(slot);
        const int ti = static_cast<int>(xi.w) * kMaxTypes;
        const std::int64_t row = ic * cap;
        double ei = 0;
        for (int k = 0; k < count(ic); ++k) {
          std::uint32_t bits = (mask((row + k) * words + word) >> shift) & row_bits;
          const std::int64_t j0 = std::int64_t(cj(row + k)) * m;
          for (int jj = 0; bits != 0u; ++jj, bits >>= 1)
            if (bits & 1u) {
              C dx, dy, dz, rsq, ep = 0;
              pair_force<true, false>(pot, xi, ti, xc(j0 + jj), dx, dy, dz, rsq, ep);
              ei += 0.5 * double(ep);
            }
        }
        e(atom(slot)) = ei;
      });
}

}  // namespace mdremap::md

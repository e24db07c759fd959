#pragma once
// The LJ pair force as remap compute bodies: one loop over neighbours that calls the evaluator
// (lj.hpp), reading neighbour data through whichever accessor the remap strategy hands in
// (include/mdremap/remap/accessors.hpp), and the one force engine (PairForce) that runs them
// through the strategy of remap.mode — the plain gather included. C: arithmetic/gather precision;
// A: force accumulation and storage.
#include <Kokkos_ScatterView.hpp>
#include <memory>
#include <string>
#include <type_traits>

#include "md/lj.hpp"
#include "md/lj_avx512.hpp"
#include "mdremap/remap/chunk_pipeline.hpp"
#include "mdremap/remap/options.hpp"
#include "mdremap/remap/report.hpp"
#include "mdremap/remap/strategy.hpp"
#include "neighbor/neighbor_list.hpp"

namespace mdremap::md {

struct ForceResult {
  double e_pair = 0;  // total pair energy (not per atom)
  double virial = 0;  // sum over pairs r_ij . f_ij
};

// Host (OpenMP) form of one atom's full-list sum over the plain gather: raw pointers and one
// `omp simd` loop, so the compiler vectorises across neighbours (AVX-512: 8 doubles or 16 floats
// per gather; the cutoff test becomes a lane mask). The sums become per-lane partial sums: the
// result differs from the scalar loop in rounding only, and is the same on every run.
template <bool EV, class C, class A>
inline void lj_full_atom_simd(const C* __restrict xd, const int* __restrict idx,
                              const std::int64_t sj, const int cnt, const LJTable<C>& lj,
                              const Vec4<C>& xi, A& fxo, A& fyo, A& fzo, double& e, double& w) {
  A fx = 0, fy = 0, fz = 0;
  double ei = 0, wi = 0;
  const C xx = xi.x, xy = xi.y, xz = xi.z;
  const int ti = static_cast<int>(xi.w) * kMaxTypes;
  // One type (the common case): k is the constant 0, so the coefficients are loop constants.
  auto loop = [&](auto one_type) {
#pragma omp simd reduction(+ : fx, fy, fz, ei, wi)
    for (int jj = 0; jj < cnt; ++jj) {
      const std::int64_t j = 4 * std::int64_t(idx[jj * sj]);
      const C dx = xx - xd[j], dy = xy - xd[j + 1], dz = xz - xd[j + 2];
      const C rsq = dx * dx + dy * dy + dz * dz;
      const int k = decltype(one_type)::value ? 0 : ti + static_cast<int>(xd[j + 3]);
      if (rsq < lj.cutsq[k]) {
        C ep = 0;
        const C fp = lj.template force<EV>(rsq, k, ep);
        fx += fp * dx;
        fy += fp * dy;
        fz += fp * dz;
        if constexpr (EV) {
          ei += ep;
          wi += double(fp) * double(rsq);
        }
      }
    }
  };
  if (lj.ntypes == 1)
    loop(std::true_type{});
  else
    loop(std::false_type{});
  fxo = fx;
  fyo = fy;
  fzo = fz;
  if constexpr (EV) {
    e += 0.5 * ei;
    w += 0.5 * wi;
  }
}

template <class Access>
struct IsPlainGather : std::false_type {};
template <class T, remap::GatherPath P>
struct IsPlainGather<remap::GatherAccess<T, P, remap::PatternLayout::Strided>> : std::true_type {};

// One atom of the full-list force: thread i reads its neighbours through any remap accessor
// (nb(j, i), j < nb.count(i)) and writes f(i) once. Neighbours are local atoms or periodic ghost
// images, so no minimum image is needed. Every full-list kernel (range or team) calls this.
template <bool EV, class C, class A, class Access>
KOKKOS_INLINE_FUNCTION void lj_full_atom(const Access& nb, const Kokkos::View<const Vec4<C>*>& x,
                                         const Kokkos::View<A* [3]>& f, const LJTable<C>& lj,
                                         const std::int64_t i, double& e, double& w) {
#ifndef __CUDACC__
  if constexpr (std::is_same_v<ExecSpace, Kokkos::DefaultHostExecutionSpace> &&
                IsPlainGather<Access>::value) {
    A fx, fy, fz;
    const C* xd = reinterpret_cast<const C*>(nb.data.data());
    const int* row = nb.index.data() + i * nb.stride_t;
#ifdef MDREMAP_HOST_AVX512
    if (nb.stride_j == 1 && lj.ntypes == 1)  // row-major: the row's indices are contiguous
      avx512::lj_full_atom<EV, true, C, A>(xd, row, nb.count(i), lj, x(i), fx, fy, fz, e, w);
    else if (nb.stride_j == 1)
      avx512::lj_full_atom<EV, false, C, A>(xd, row, nb.count(i), lj, x(i), fx, fy, fz, e, w);
    else
#endif
      lj_full_atom_simd<EV, C, A>(xd, row, nb.stride_j, nb.count(i), lj, x(i), fx, fy, fz, e, w);
    f(i, 0) = fx;
    f(i, 1) = fy;
    f(i, 2) = fz;
    return;
  }
#endif
  const Vec4<C> xi = x(i);
  const int ti = static_cast<int>(xi.w) * kMaxTypes;
  A fx = 0, fy = 0, fz = 0;
  double ei = 0, wi = 0;
  const int cnt = nb.count(i);
  // One atom type (the common case): the coefficients are loop constants and the neighbour's
  // type is never decoded.
  auto pair = [&](const auto& xj, auto one_type) {
    const C dx = xi.x - xj.x, dy = xi.y - xj.y, dz = xi.z - xj.z;
    const C rsq = dx * dx + dy * dy + dz * dz;
    C ep = 0;
    constexpr bool one = decltype(one_type)::value;
    const int k = one ? 0 : ti + static_cast<int>(xj.w);
    const C fp = lj.template eval<EV, one>(rsq, k, ep);
    fx += fp * dx;
    fy += fp * dy;
    fz += fp * dz;
    if constexpr (EV) {
      ei += ep;
      wi += double(fp) * double(rsq);
    }
  };
  auto loop = [&](auto one_type) {
#ifdef __CUDA_ARCH__
    if constexpr (IsPlainGather<Access>::value) {
      // The plain gather on the GPU, software-pipelined: the next kBatch list entries are
      // loaded while the current batch's positions are gathered and summed, so each thread
      // keeps several index loads in flight (the list streams from DRAM, read once:
      // cache-streaming loads that leave L1/L2 to the positions). Same sums in the same order
      // as the plain loop: the forces are bit-identical. Nsight before it (4M atoms, single,
      // H200): 32 cycles between a warp's instructions, mostly waiting on the index load, with
      // DRAM at 28% of its bandwidth. A batch of 8 measured slower than 4 (0.85 against
      // 0.74 ms: registers, occupancy).
      constexpr int kBatch = 4;
      const int* const idx = nb.index.data() + i * nb.stride_t;
      const std::int64_t sj = nb.stride_j;
      const int full = cnt - cnt % kBatch;
      int next[kBatch];
      if (full > 0)
#pragma unroll
        for (int u = 0; u < kBatch; ++u) next[u] = __ldcs(idx + u * sj);
      for (int j = 0; j < full; j += kBatch) {
        int cur[kBatch];
#pragma unroll
        for (int u = 0; u < kBatch; ++u) cur[u] = next[u];
        if (j + kBatch < full)
#pragma unroll
          for (int u = 0; u < kBatch; ++u) next[u] = __ldcs(idx + (j + kBatch + u) * sj);
        Vec4<C> xj[kBatch];
#pragma unroll
        for (int u = 0; u < kBatch; ++u) xj[u] = nb.element(cur[u]);
#pragma unroll
        for (int u = 0; u < kBatch; ++u) pair(xj[u], one_type);
      }
      for (int j = full; j < cnt; ++j) pair(nb.element(__ldcs(idx + j * sj)), one_type);
      return;
    }
#endif
    // nb(j, i) is a reference where the accessor has one: no copy on CPUs.
    for (int j = 0; j < cnt; ++j) pair(nb(j, i), one_type);
  };
  if (lj.ntypes == 1)
    loop(std::true_type{});
  else
    loop(std::false_type{});
  f(i, 0) = fx;
  f(i, 1) = fy;
  f(i, 2) = fz;
  if constexpr (EV) {
    e += 0.5 * ei;  // each pair is seen from both atoms
    w += 0.5 * wi;
  }
}

// Full list, one thread per atom, no write conflicts: f[i] is written once. A remap compute body
// (include/mdremap/remap/strategy.hpp): the strategy launches the kernels (gather's range kernel,
// dup's chunked ones, sharing's team kernel staging shared memory) and hands in its accessor. The
// MD force kernel has three reference patterns: the gather pos[P[j][i]], its own pos[i] and the
// write f[i] (padding refuses it, seed 001 §3.3).
template <class C, class A>
struct LJFullBody {
  static constexpr remap::PatternLayout kLayout = remap::PatternLayout::Strided;
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

// Half list (Newton's third law): each pair once, the partner's force scattered through the list
// (atomics on the GPU through Kokkos::ScatterView). Only the gather serves it: the kernel writes
// through the pattern (RemapOptions::writes_through_pattern).
template <class C, class A, class Scatter>
struct LJHalfBody {
  static constexpr remap::PatternLayout kLayout = remap::PatternLayout::Strided;
  static constexpr bool kWritesThroughPattern = true;
  Kokkos::View<const Vec4<C>*> x;
  Scatter fs;
  LJTable<C> lj;
  Kokkos::View<const int*> owner;
  std::int64_t nlocal;

  template <bool EV, class Access>
  KOKKOS_INLINE_FUNCTION void thread(const std::int64_t i, const Access& nb,
                                     remap::Sums2& s) const {
    double& e = s.s0;
    double& w = s.s1;
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
};

#ifdef KOKKOS_ENABLE_OPENMP
// Host (OpenMP) half list over the plain gather, LAMMPS OPENMP-package style: each thread adds
// into its own force copy covering local and ghost slots, so the partner update needs neither
// atomics nor an owner lookup. A second pass sums the copies and folds each ghost slot into its
// owner in a fixed order. The loop stays scalar: GCC's AVX-512 masked gather/scatter form of it
// measured 30% slower on the bench (18.9 vs 13.7 ms per step, one thread), and so did a split
// form (an `omp simd` loop computing a chunk's pair forces into a buffer, then a scalar loop
// subtracting them from the partners: 14.5-17.1 against 12.5-15.5 ms, interleaved runs). This
// form is 8-11% faster than the Kokkos::ScatterView kernel (LJHalfKernel) in interleaved runs.
template <bool EV, class C, class A>
inline void lj_half_atom_host(const C* __restrict xd, const int* __restrict idx,
                              const std::int64_t sj, const int cnt, const LJTable<C>& lj,
                              const std::int64_t i, A* __restrict ft, double& e, double& w) {
  A fx = 0, fy = 0, fz = 0;
  double ei = 0, wi = 0;
  const C xx = xd[4 * i], xy = xd[4 * i + 1], xz = xd[4 * i + 2];
  const int ti = static_cast<int>(xd[4 * i + 3]) * kMaxTypes;
  const bool one = lj.ntypes == 1;
  for (int jj = 0; jj < cnt; ++jj) {
    const std::int64_t j = idx[jj * sj];
    const C dx = xx - xd[4 * j], dy = xy - xd[4 * j + 1], dz = xz - xd[4 * j + 2];
    const C rsq = dx * dx + dy * dy + dz * dz;
    const int k = one ? 0 : ti + static_cast<int>(xd[4 * j + 3]);
    if (rsq < lj.cutsq[k]) {
      C ep = 0;
      const C fp = lj.template force<EV>(rsq, k, ep);
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
#endif

#ifdef KOKKOS_ENABLE_OPENMP
// The host half list as a body: each OpenMP thread adds into its own force copy (the copies are
// cleared before and folded after the execution by PairForce).
template <class C, class A>
struct LJHalfHostBody {
  static constexpr remap::PatternLayout kLayout = remap::PatternLayout::Strided;
  static constexpr bool kWritesThroughPattern = true;
  A* copies = nullptr;
  std::int64_t stride = 0;  // 3 * (local + ghost atoms)
  LJTable<C> lj;
  template <bool EV, class Access>
  KOKKOS_INLINE_FUNCTION void thread(const std::int64_t i, const Access& nb,
                                     remap::Sums2& s) const {
    if constexpr (IsPlainGather<Access>::value) {
      A* ft = copies + Kokkos::OpenMP::impl_hardware_thread_id() * stride;
      lj_half_atom_host<EV, C, A>(reinterpret_cast<const C*>(nb.data.data()),
                                  nb.index.data() + i * nb.stride_t, nb.stride_j, nb.count(i), lj,
                                  i, ft, s.s0, s.s1);
    }
  }
};
#endif

// The force kernel's irregular reference, for measurements outside the engine (compare): the
// neighbour pattern and the gathered positions in the force precision.
struct ForcePattern {
  remap::PatternView pattern;
  Kokkos::View<const Vec4<float>*> xf;   // single / mixed precision
  Kokkos::View<const Vec4<double>*> xd;  // double precision
};

// What `compare` times through: the force strategy's phases on the current state, each fenced by
// the caller, and the stream pipeline's device timestamps.
class ForceProbe {
 public:
  virtual ~ForceProbe() = default;
  virtual void probe_remap() = 0;    // the remap alone (data marked changed)
  virtual void probe_compute() = 0;  // the compute alone on remapped data
  virtual void probe_execute() = 0;  // remap + compute as the strategy runs them
  // dup's pipeline: device timestamps of each chunk's remap and compute (CUDA).
  virtual void set_pipeline_timing(bool on) = 0;
  virtual remap::PipelineTimeline pipeline_timeline() const = 0;
  virtual bool pipeline_streams_distinct() const = 0;
  virtual ForcePattern force_pattern() const = 0;
};

struct RemapStats {
  remap::RemapReport report;
  remap::TransactionCount tx;  // modelled, one force evaluation: the data loads
  remap::TransactionBreakdown all;  // every load of the reference (index, lengths included)
  bool have_tx = false;
  // Fenced time the engine spent in the strategy so far (plans and force evaluations, setup
  // included): what auto's whole-run prediction is compared with.
  double realised_ms = 0;
  std::int64_t executions = 0;
  std::string memory_selection;  // gather_path auto: seed 003 Algorithm 3's classes and choice
};

// The one force engine of an MD run: the LJ bodies run through the remap strategy of remap.mode
// (include/mdremap/remap/registry.hpp), `gather` included.
template <class C, class A>
class PairForce final : public ForceProbe {
 public:
  using T = Vec4<C>;
  // auto_path: remap.gather_path = auto, decided from the first neighbour list (seed 003).
  PairForce(const PairCoeffs& pc, bool shift, bool half, const remap::RemapOptions& o,
            const std::string& mode, bool auto_path = false);
  ~PairForce() override;
  // After every neighbour-list build: the new pattern (plans the strategy).
  void plan(const neighbor::NeighborList& list, const neighbor::GhostAtoms& ghosts);
  // Forces on the local atoms into f (overwritten); xall holds local atoms then ghosts. Energy
  // and virial only when `ev` (thermo steps).
  ForceResult compute(Kokkos::View<const T*> xall, Kokkos::View<A* [3]> f, bool ev);
  const LJTable<C>& table() const { return lj_; }
  std::string name() const;
  RemapStats stats(bool with_transactions) const;

  void probe_remap() override;
  void probe_compute() override;
  void probe_execute() override;
  void set_pipeline_timing(bool on) override;
  remap::PipelineTimeline pipeline_timeline() const override;
  bool pipeline_streams_distinct() const override;
  ForcePattern force_pattern() const override;

 private:
  ForceResult compute_half_host(bool ev);
  using ScatterF =
      Kokkos::Experimental::ScatterView<A* [3], typename Kokkos::View<A* [3]>::array_layout,
                                        ExecSpace>;
  LJTable<C> lj_;
  bool half_;
  remap::RemapOptions opt_;
  std::string mode_;
  bool auto_path_ = false;
  std::string memory_text_;
  std::unique_ptr<remap::RemapStrategy<T>> s_;
  remap::PatternView pv_;
  neighbor::GhostAtoms ghosts_;
  Kokkos::View<const T*> x_;
  Kokkos::View<A* [3]> f_;
  Kokkos::View<A*, Kokkos::HostSpace> fcopies_;  // host half list: threads x 3 (local + ghost)
  ScatterF scatter_;
  A* scatter_target_ = nullptr;
};

}  // namespace mdremap::md

#pragma once
// The SpMV as a remap-layer compute body (BRIEF section 5: CSR SpMV's x[col[rowptr[t] + j]] is an
// irregular reference A[P[j][t]] with thread t = row t, data A = x, weight = val): written once,
// run by every remap strategy through its accessor (count(t), a(j, t): the data element,
// a.weight(j, t): the coefficient stored like the index), and by the lane-parallel (warp per row)
// kernel below through CsrGatherAccess, the plain CSR gather (seed 000 §6.3.1's original kernel:
// row_ptr, then col_ind and val).
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "cg/device_csr.hpp"
#include "mdremap/remap/device_pattern.hpp"

namespace mdremap::cg {

using remap::Sums2;

struct CsrGatherAccess {
  Kokkos::View<const double*, Kokkos::MemoryTraits<Kokkos::RandomAccess>> x;
  Kokkos::View<const std::int64_t*> start;  // rowptr
  Kokkos::View<const int*> index;           // col
  Kokkos::View<const double*> coef;         // val

  CsrGatherAccess(const DeviceCsr& a, Kokkos::View<const double*> xv)
      : x(xv), start(a.rowptr), index(a.col), coef(a.val) {}
  KOKKOS_INLINE_FUNCTION int count(const std::int64_t t) const {
    return static_cast<int>(start(t + 1) - start(t));
  }
  KOKKOS_INLINE_FUNCTION double operator()(const int j, const std::int64_t t) const {
    return x(index(start(t) + j));
  }
  KOKKOS_INLINE_FUNCTION double weight(const int j, const std::int64_t t) const {
    return coef(start(t) + j);
  }
};

// What a row does with its sum. StoreRow: y(t) = (A x)_t; with EV, s0 = sum over rows of y.
// Besides the gather it writes only its own row (remap contract: one reference pattern).
struct StoreRow {
  static constexpr int kReferencePatterns = 1;
  Kokkos::View<double*> y;
  template <bool EV>
  KOKKOS_INLINE_FUNCTION void finish(const std::int64_t t, const double sum, Sums2& s) const {
    y(t) = sum;
    if constexpr (EV) s.s0 += sum;
  }
};

// The CG iteration's SpMV w = A u with its two dot products fused in (Chronopoulos-Gear CG needs
// both right after the SpMV): s0 = w . u, s1 = r . u. Unpreconditioned, u is r and s1 = r . r.
// It also reads u(t) and r(t) of its own row: a second reference pattern, so strategies that
// regroup threads (padding, seed 001 §3.3) do not apply to it.
struct CgRow {
  static constexpr int kReferencePatterns = 2;
  Kokkos::View<double*> w;
  Kokkos::View<const double*> u, r;
  template <bool EV>
  KOKKOS_INLINE_FUNCTION void finish(const std::int64_t t, const double sum, Sums2& s) const {
    w(t) = sum;
    if constexpr (EV) {
      const double ut = u(t);
      s.s0 += sum * ut;
      s.s1 += r(t) * ut;
    }
  }
};

// The compute body (remap contract): thread t sums weight(j, t) * a(j, t) over its row, reading
// the CSR pattern (Offsets layout: col[rowptr[t] + j]).
template <class Finish>
struct SpmvBody {
  static constexpr remap::PatternLayout kLayout = remap::PatternLayout::Offsets;
  static constexpr int kReferencePatterns = Finish::kReferencePatterns;
  Finish fin;
  template <bool EV, class Access>
  KOKKOS_INLINE_FUNCTION void thread(const std::int64_t t, const Access& a, Sums2& s) const {
    double sum = 0;
    const int n = a.count(t);
    for (int j = 0; j < n; ++j) sum += a.weight(j, t) * a(j, t);
    fin.template finish<EV>(t, sum, s);
  }
};

// Lanes per row (warp / team per row, the CSR-vector kernel): `rows_per_team` rows per team, one
// team thread per row, its `vector_length` lanes splitting the row's entries and reducing the sum;
// one lane finishes the row.
template <class Finish, class Access>
struct RowLanes {
  using Member = Kokkos::TeamPolicy<>::member_type;
  Finish fin;
  Access acc;
  std::int64_t rows = 0;
  int rows_per_team = 1;

  template <bool EV>
  KOKKOS_INLINE_FUNCTION void run(const Member& m, Sums2& s) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, rows_per_team), [&](const int i) {
      const std::int64_t t = static_cast<std::int64_t>(m.league_rank()) * rows_per_team + i;
      if (t >= rows) return;
      double sum = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(m, acc.count(t)),
          [&](const int j, double& part) { part += acc.weight(j, t) * acc(j, t); }, sum);
      Kokkos::single(Kokkos::PerThread(m), [&]() { fin.template finish<EV>(t, sum, s); });
    });
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
    Sums2 s;
    run<false>(m, s);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& m, Sums2& s) const { run<true>(m, s); }
};

template <class Finish, class Access>
void run_lanes_per_row(const char* label, const Finish& fin, const Access& acc, std::int64_t rows,
                       int vector_length, int rows_per_team, bool ev, Sums2& sums) {
  const std::int64_t league = (rows + rows_per_team - 1) / rows_per_team;
  if (league == 0) return;
  // Host backends run a team's rows on however many threads the team gets (lanes are serial).
  constexpr bool host =
      Kokkos::SpaceAccessibility<Kokkos::DefaultExecutionSpace, Kokkos::HostSpace>::accessible;
  auto policy = host ? Kokkos::TeamPolicy<>(static_cast<int>(league), Kokkos::AUTO, vector_length)
                     : Kokkos::TeamPolicy<>(static_cast<int>(league), rows_per_team, vector_length);
  RowLanes<Finish, Access> k{fin, acc, rows, rows_per_team};
  if (ev) {
    Sums2 s;
    Kokkos::parallel_reduce(label, policy, k, Kokkos::Sum<Sums2>(s));
    sums += s;
  } else {
    Kokkos::parallel_for(label, policy, k);
  }
}

}  // namespace mdremap::cg

#pragma once
// The minimisers' vector kernels over the atoms' 3N degrees of freedom: dot products and
// largest components (summed in double), and the position updates. Positions are the xyz of
// AtomArrays::x (w holds the type and is never touched).
#include "mdremap/atoms.hpp"

namespace mdremap::md::minimize_ops {

template <class S>
using Vectors = Kokkos::View<S* [3]>;

// a . b over every component.
template <class S>
double dot(const Vectors<S>& a, const Vectors<S>& b, std::int64_t n) {
  double s = 0;
  Kokkos::parallel_reduce(
      "Minimize::dot", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const int i, double& acc) {
        acc += double(a(i, 0)) * b(i, 0) + double(a(i, 1)) * b(i, 1) + double(a(i, 2)) * b(i, 2);
      },
      s);
  return s;
}

// a . a and a . b in one pass.
template <class S>
void dot2(const Vectors<S>& a, const Vectors<S>& b, std::int64_t n, double& aa, double& ab) {
  double s0 = 0, s1 = 0;
  Kokkos::parallel_reduce(
      "Minimize::dot2", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const int i, double& x0, double& x1) {
        for (int d = 0; d < 3; ++d) {
          x0 += double(a(i, d)) * a(i, d);
          x1 += double(a(i, d)) * b(i, d);
        }
      },
      s0, s1);
  aa = s0;
  ab = s1;
}

// The largest |a_id|.
template <class S>
double max_abs(const Vectors<S>& a, std::int64_t n) {
  double m = 0;
  Kokkos::parallel_reduce(
      "Minimize::max_abs", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const int i, double& mx) {
        for (int d = 0; d < 3; ++d) {
          const double v = Kokkos::fabs(double(a(i, d)));
          if (v > mx) mx = v;
        }
      },
      Kokkos::Max<double>(m));
  return m;
}

// x = x0 + alpha h.
template <class S>
void step_along(const Kokkos::View<Vec4<S>*>& x, const Vectors<S>& x0, const Vectors<S>& h,
                double alpha, std::int64_t n) {
  const S a = static_cast<S>(alpha);
  Kokkos::parallel_for(
      "Minimize::step_along", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(const int i) {
        Vec4<S> p = x(i);
        p.x = x0(i, 0) + a * h(i, 0);
        p.y = x0(i, 1) + a * h(i, 1);
        p.z = x0(i, 2) + a * h(i, 2);
        x(i) = p;
      });
}

// x0 = x.
template <class S>
void store_positions(const Vectors<S>& x0, const Kokkos::View<Vec4<S>*>& x, std::int64_t n) {
  Kokkos::parallel_for(
      "Minimize::store", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(const int i) {
        const Vec4<S> p = x(i);
        x0(i, 0) = p.x;
        x0(i, 1) = p.y;
        x0(i, 2) = p.z;
      });
}

// After a rebuild wrapped x into the box: x0 moved by the same box lengths (the minimum image
// of x - x0 taken back from x), so x0 + alpha h stays the wrapped atom's line.
template <class S>
void follow_wrap(const Vectors<S>& x0, const Kokkos::View<Vec4<S>*>& x, const Box<double>& box,
                 std::int64_t n) {
  Kokkos::parallel_for(
      "Minimize::follow_wrap", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(const int i) {
        const Vec4<S> p = x(i);
        double d[3] = {double(p.x) - x0(i, 0), double(p.y) - x0(i, 1), double(p.z) - x0(i, 2)};
        const double d0[3] = {d[0], d[1], d[2]};
        box.minimum_image(d[0], d[1], d[2]);
        const double xp[3] = {double(p.x), double(p.y), double(p.z)};
        for (int k = 0; k < 3; ++k)
          if (d[k] != d0[k]) x0(i, k) = static_cast<S>(xp[k] - d[k]);
      });
}

}  // namespace mdremap::md::minimize_ops

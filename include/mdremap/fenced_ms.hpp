#pragma once
// The wall time of device work in milliseconds, its end fenced (kernels are asynchronous).
#include <Kokkos_Core.hpp>
#include <utility>

namespace mdremap {

// f's time with the whole device idle before and after (every execution space instance).
template <class F>
double fenced_ms(F&& f) {
  Kokkos::fence();
  Kokkos::Timer t;
  std::forward<F>(f)();
  Kokkos::fence();
  return 1e3 * t.seconds();
}

// f's time until `space` has finished its work: work on other instances (a plan running beside
// the steps) is not waited for.
template <class Space, class F>
double fenced_ms(const Space& space, const char* label, F&& f) {
  Kokkos::Timer t;
  std::forward<F>(f)();
  space.fence(label);
  return 1e3 * t.seconds();
}

}  // namespace mdremap

// The step's phase timers (src/md/phase_clock.hpp): nested phases past the pool of pending
// events (on a GPU the clock settles when 2,048 phases wait, and settling inside an open phase
// once read an unrecorded stop event: an error, or a negative time), and phases that add up.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include "md/phase_clock.hpp"
#include "mdremap/error.hpp"

using namespace mdremap;

namespace {

// A kernel of measurable length (a few microseconds on a GPU, more on a CPU).
void work(Kokkos::View<double*> a) {
  Kokkos::parallel_for(
      "test_phase_clock::work", a.extent(0), KOKKOS_LAMBDA(const int i) { a(i) = a(i) * 0.5 + i; });
}

TEST(PhaseClock, NestedPhasesPastThePendingPoolStayOrdered) {
  Kokkos::View<double*> a("a", 1 << 16);
  md::PhaseClock clock;
  double outer = 0, inner = 0, also = 0, after = 0;
  // Three pending phases per round: the pool fills inside the outer phase many times over.
  for (int round = 0; round < 3000; ++round) {
    clock.time(&outer, nullptr, [&] {
      work(a);
      clock.time(&inner, &also, [&] { work(a); });
      work(a);
    });
    clock.time(&after, nullptr, [&] { work(a); });
  }
  clock.settle();
  EXPECT_GT(inner, 0.0);
  EXPECT_EQ(inner, also);
  // The outer phase holds the inner one and two more kernels of the same size.
  EXPECT_GT(outer, inner);
  EXPECT_GT(after, 0.0);
}

TEST(PhaseClock, SettleInsideAnOpenPhaseIsRefused) {
  md::PhaseClock clock;
  double t = 0;
  Kokkos::View<double*> a("a", 1024);
  if (!Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                  Kokkos::DefaultExecutionSpace::memory_space>::accessible) {
    EXPECT_THROW(clock.time(&t, nullptr,
                            [&] {
                              work(a);
                              clock.settle();
                            }),
                 Error);
  } else {
    // On the host a phase is fenced and timed at once: nothing is pending, settle() is a no-op.
    EXPECT_NO_THROW(clock.time(&t, nullptr, [&] {
      work(a);
      clock.settle();
    }));
  }
}

}  // namespace

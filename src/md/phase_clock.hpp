#pragma once
// The step's phase timers (force, neighbour, integrate, ...) without host round-trips.
//
// On the host a phase is timed as before: the work, a fence, the wall clock. On a GPU a fence per
// phase would make every step wait for each of its kernels in turn, and in a small system the
// kernels are shorter than the launch and the wait: the timing would make the run launch-bound.
// There the clock records a CUDA event on the default instance's stream before and after the phase,
// the host goes on launching, and the events' elapsed times are added when the host waits anyway
// (settle(): at the end of a run, or when the pool of pending events is full). A phase then counts
// the device's timeline between its events, including any idle gap while the host had not yet
// launched its next kernel, so the phases still add up to the loop. Phases may nest (the rebuild
// inside the neighbour phase): each keeps its own pair of events.
#include <Kokkos_Core.hpp>
#include <vector>

namespace mdremap::md {

class PhaseClock {
 public:
  PhaseClock() = default;
  PhaseClock(const PhaseClock&) = delete;
  PhaseClock& operator=(const PhaseClock&) = delete;
  ~PhaseClock();

  // Runs f and adds its time in seconds to *acc (and to *also, if given) now or at settle().
  template <class F>
  void time(double* acc, double* also, F&& f) {
    if (!kEvents) {
      Kokkos::Timer t;
      f();
      Kokkos::DefaultExecutionSpace().fence("mdremap::phase");
      const double s = t.seconds();
      *acc += s;
      if (also) *also += s;
      return;
    }
    const int k = begin(acc, also);
    try {
      f();
    } catch (...) {
      // A phase that throws is still closed (settle() reads only recorded events); the error
      // that ended it is the one passed on, not one from closing it.
      try {
        end(k);
      } catch (...) {
      }
      throw;
    }
    end(k);
  }
  // Adds every recorded phase's time (waits for the last one to finish on the device). Only
  // between phases, never inside time()'s f.
  void settle();

 private:
#ifdef KOKKOS_ENABLE_CUDA
  static constexpr bool kEvents = true;
#else
  static constexpr bool kEvents = false;
#endif
  struct Pending {
    void* start = nullptr;
    void* stop = nullptr;
    double* acc = nullptr;
    double* also = nullptr;
  };
  int begin(double* acc, double* also);
  void end(int k);
  void* event();

  std::vector<Pending> pending_;
  int open_ = 0;               // phases begun and not yet ended (they nest)
  void* last_stop_ = nullptr;  // the stop event recorded last (phases nest: not pending_.back())
  std::vector<void*> free_;    // events to reuse
  std::vector<void*> all_;     // every event made, destroyed with the clock
};

}  // namespace mdremap::md

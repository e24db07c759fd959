#include "md/phase_clock.hpp"

#include <string>

#include "mdremap/error.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime.h>
#endif

namespace mdremap::md {

namespace {
// Pending phases before settle() waits on its own: a few hundred steps' worth.
constexpr std::size_t kMaxPending = 2048;

#ifdef KOKKOS_ENABLE_CUDA
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw Error(std::string("phase timer: ") + what + ": " + cudaGetErrorString(e));
}
#endif
}  // namespace

PhaseClock::~PhaseClock() {
#ifdef KOKKOS_ENABLE_CUDA
  for (void* e : all_) cudaEventDestroy(static_cast<cudaEvent_t>(e));
#endif
}

void* PhaseClock::event() {
#ifdef KOKKOS_ENABLE_CUDA
  if (!free_.empty()) {
    void* e = free_.back();
    free_.pop_back();
    return e;
  }
  cudaEvent_t e = nullptr;
  check(cudaEventCreate(&e), "cudaEventCreate");
  all_.push_back(e);
  return e;
#else
  return nullptr;
#endif
}

int PhaseClock::begin(double* acc, double* also) {
  // Only between phases: settling inside an open one read its stop event before it was
  // recorded (an error, or a stale time from the event's last use: a negative phase) and
  // dropped the entry its end() was about to write.
  if (open_ == 0 && pending_.size() >= kMaxPending) settle();
  Pending p;
  p.start = event();
  p.stop = event();
  p.acc = acc;
  p.also = also;
#ifdef KOKKOS_ENABLE_CUDA
  check(cudaEventRecord(static_cast<cudaEvent_t>(p.start),
                        Kokkos::DefaultExecutionSpace().cuda_stream()),
        "cudaEventRecord");
#endif
  pending_.push_back(p);
  ++open_;  // only once begun: a begin that throws leaves nothing open
  return static_cast<int>(pending_.size()) - 1;
}

void PhaseClock::end(const int k) {
  --open_;
#ifdef KOKKOS_ENABLE_CUDA
  Pending& p = pending_[k];
  const cudaError_t e = cudaEventRecord(static_cast<cudaEvent_t>(p.stop),
                                        Kokkos::DefaultExecutionSpace().cuda_stream());
  if (e != cudaSuccess) p.acc = nullptr;  // never timed: settle() skips it
  check(e, "cudaEventRecord");
  last_stop_ = p.stop;
#else
  (void)k;
#endif
}

void PhaseClock::settle() {
#ifdef KOKKOS_ENABLE_CUDA
  if (pending_.empty()) return;
  if (open_ != 0) throw Error("phase timer: settle() inside an open phase");
  // Events complete in stream order: the stop recorded last is the last to complete.
  check(cudaEventSynchronize(static_cast<cudaEvent_t>(last_stop_)), "cudaEventSynchronize");
  for (const Pending& p : pending_) {
    free_.push_back(p.start);
    free_.push_back(p.stop);
    if (!p.acc) continue;
    float ms = 0;
    check(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(p.start),
                               static_cast<cudaEvent_t>(p.stop)),
          "cudaEventElapsedTime");
    *p.acc += 1e-3 * ms;
    if (p.also) *p.also += 1e-3 * ms;
  }
  pending_.clear();
#endif
}

}  // namespace mdremap::md

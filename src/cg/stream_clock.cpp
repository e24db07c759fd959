#include "cg/stream_clock.hpp"

#include <string>

#include "mdremap/error.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime.h>
#endif

namespace mdremap::cg {

#ifdef KOKKOS_ENABLE_CUDA
namespace {
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw Error(std::string("cg clock: ") + what + ": " + cudaGetErrorString(e));
}
cudaEvent_t ev(void* p) {
  return static_cast<cudaEvent_t>(p);
}
}  // namespace

StreamClock::StreamClock() {
  cudaEvent_t a = nullptr, b = nullptr;
  check(cudaEventCreate(&a), "cudaEventCreate");
  if (const cudaError_t e = cudaEventCreate(&b); e != cudaSuccess) {
    cudaEventDestroy(a);  // the destructor does not run for a constructor that throws
    check(e, "cudaEventCreate");
  }
  begin_ = a;
  end_ = b;
}

StreamClock::~StreamClock() {
  if (begin_) cudaEventDestroy(ev(begin_));
  if (end_) cudaEventDestroy(ev(end_));
}

void StreamClock::start() {
  check(cudaEventRecord(ev(begin_), Kokkos::DefaultExecutionSpace().cuda_stream()),
        "cudaEventRecord");
}

double StreamClock::stop_ms() {
  check(cudaEventRecord(ev(end_), Kokkos::DefaultExecutionSpace().cuda_stream()),
        "cudaEventRecord");
  check(cudaEventSynchronize(ev(end_)), "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, ev(begin_), ev(end_)), "cudaEventElapsedTime");
  return ms;
}
#else
StreamClock::StreamClock() = default;
StreamClock::~StreamClock() = default;

void StreamClock::start() {
  Kokkos::fence();
  host_.reset();
}

double StreamClock::stop_ms() {
  Kokkos::fence();
  return 1e3 * host_.seconds();
}
#endif

}  // namespace mdremap::cg

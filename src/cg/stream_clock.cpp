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
    throw Error(std::string("cg marks: ") + what + ": " + cudaGetErrorString(e));
}
cudaEvent_t ev(void* p) {
  return static_cast<cudaEvent_t>(p);
}
}  // namespace

StreamMarks::~StreamMarks() {
  for (void* e : events_) cudaEventDestroy(ev(e));
}

int StreamMarks::mark() {
  if (count_ == events_.size()) {
    cudaEvent_t e = nullptr;
    check(cudaEventCreate(&e), "cudaEventCreate");
    events_.push_back(e);
  }
  check(cudaEventRecord(ev(events_[count_]), Kokkos::DefaultExecutionSpace().cuda_stream()),
        "cudaEventRecord");
  return static_cast<int>(count_++);
}

std::optional<double> StreamMarks::elapsed_ms(int i, int j, bool wait) {
  if (i < 0 || j <= i || j >= size()) throw Error("cg marks: no such pair of marks");
  if (wait) {
    check(cudaEventSynchronize(ev(events_[j])), "cudaEventSynchronize");
  } else {
    const cudaError_t e = cudaEventQuery(ev(events_[j]));
    if (e == cudaErrorNotReady) return std::nullopt;
    check(e, "cudaEventQuery");
  }
  float ms = 0;
  check(cudaEventElapsedTime(&ms, ev(events_[i]), ev(events_[j])), "cudaEventElapsedTime");
  return static_cast<double>(ms);
}
#else
StreamMarks::~StreamMarks() = default;

int StreamMarks::mark() {
  Kokkos::fence();
  host_s_.push_back(host_.seconds());
  return static_cast<int>(count_++);
}

std::optional<double> StreamMarks::elapsed_ms(int i, int j, bool /*wait*/) {
  if (i < 0 || j <= i || j >= size()) throw Error("cg marks: no such pair of marks");
  return 1e3 * (host_s_[j] - host_s_[i]);
}
#endif

}  // namespace mdremap::cg

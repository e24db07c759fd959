#include "comm/side_stream.hpp"

#include <string>

#include "mdremap/error.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime.h>
#endif

namespace mdremap::comm {

namespace {
#ifdef KOKKOS_ENABLE_CUDA
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw Error(std::string("side stream: ") + what + ": " + cudaGetErrorString(e));
}

Kokkos::Cuda priority_instance() {
  int least = 0, greatest = 0;
  check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest),
        "cudaStreamCreateWithPriority");
  return Kokkos::Cuda(s, Kokkos::Impl::ManageStream::yes);  // Kokkos destroys it with the last copy
}

cudaEvent_t timing_free_event() {
  cudaEvent_t e = nullptr;
  check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
  return e;
}
#endif
}  // namespace

#ifdef KOKKOS_ENABLE_CUDA
SideStream::SideStream()
    : space_(priority_instance()),
      separate_(true),
      to_side_(timing_free_event()),
      to_default_(timing_free_event()) {}

SideStream::~SideStream() {
  cudaEventDestroy(static_cast<cudaEvent_t>(to_side_));
  cudaEventDestroy(static_cast<cudaEvent_t>(to_default_));
  for (void* e : all_) cudaEventDestroy(static_cast<cudaEvent_t>(e));
}

namespace {
// Pairs pending before mark_start() settles them itself.
constexpr std::size_t kMaxPending = 512;
}  // namespace

void SideStream::mark_start() {
  if (starts_.size() >= kMaxPending) add_settled();
  for (int k = 0; k < 2 && free_.size() < 2; ++k) {
    cudaEvent_t e = nullptr;
    check(cudaEventCreate(&e), "cudaEventCreate");
    all_.push_back(e);
    free_.push_back(e);
  }
  void* e = free_.back();
  free_.pop_back();
  check(cudaEventRecord(static_cast<cudaEvent_t>(e), space_.cuda_stream()), "cudaEventRecord");
  starts_.push_back(e);
}

void SideStream::mark_stop() {
  void* e = free_.back();  // mark_start() left one
  free_.pop_back();
  check(cudaEventRecord(static_cast<cudaEvent_t>(e), space_.cuda_stream()), "cudaEventRecord");
  stops_.push_back(e);
}

// One stream: its events complete in order, the last stop last.
void SideStream::add_settled() {
  if (stops_.empty()) return;
  check(cudaEventSynchronize(static_cast<cudaEvent_t>(stops_.back())), "cudaEventSynchronize");
  for (std::size_t k = 0; k < stops_.size(); ++k) {
    float ms = 0;
    check(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(starts_[k]),
                               static_cast<cudaEvent_t>(stops_[k])),
          "cudaEventElapsedTime");
    seconds_ += 1e-3 * ms;
    free_.push_back(starts_[k]);
    free_.push_back(stops_[k]);
  }
  starts_.clear();
  stops_.clear();
}

double SideStream::seconds() {
  add_settled();
  return seconds_;
}

void SideStream::after_default() {
  const auto e = static_cast<cudaEvent_t>(to_side_);
  check(cudaEventRecord(e, Kokkos::DefaultExecutionSpace().cuda_stream()), "cudaEventRecord");
  check(cudaStreamWaitEvent(space_.cuda_stream(), e, 0), "cudaStreamWaitEvent");
}

void SideStream::join_default() {
  const auto e = static_cast<cudaEvent_t>(to_default_);
  check(cudaEventRecord(e, space_.cuda_stream()), "cudaEventRecord");
  check(cudaStreamWaitEvent(Kokkos::DefaultExecutionSpace().cuda_stream(), e, 0),
        "cudaStreamWaitEvent");
}
#else
// Host backends: the default instance, whose kernels end before the host goes on; what runs
// "beside" is then timed where it runs (the caller's phases), not here.
SideStream::SideStream() = default;
SideStream::~SideStream() = default;
void SideStream::after_default() {}
void SideStream::join_default() {}
void SideStream::mark_start() {}
void SideStream::mark_stop() {}
void SideStream::add_settled() {}
double SideStream::seconds() {
  return 0;
}
#endif

}  // namespace mdremap::comm

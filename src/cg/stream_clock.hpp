#pragma once
// The time of one stretch of work on the default execution space, measured without a host fence
// before it (auto's kernel measurements on the solve's own iterations, auto_spmv.cpp).
//
// A fenced timer makes the host wait for the iteration's update kernel before it launches the
// SpMV, so the GPU idles for the SpMV's launch (cuSPARSE's host-side call included): tens of
// microseconds an iteration, more than auto's whole exploration on a stand-in solved in 126
// iterations. On a GPU the clock records a CUDA event on the default instance's stream before
// and after the work and reads their elapsed time once the host has waited for the work anyway
// (the SpMV's dot products reach the host); the update kernel ahead of it in the stream is not
// counted. On the host: a fence, then the wall clock.
#include <Kokkos_Core.hpp>

namespace mdremap::cg {

class StreamClock {
 public:
  StreamClock();
  ~StreamClock();
  StreamClock(const StreamClock&) = delete;
  StreamClock& operator=(const StreamClock&) = delete;

  void start();
  // Milliseconds since start(); waits for the work launched since.
  double stop_ms();

 private:
  void* begin_ = nullptr;  // cudaEvent_t in CUDA builds
  void* end_ = nullptr;
  Kokkos::Timer host_;
};

}  // namespace mdremap::cg

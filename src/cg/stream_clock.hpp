#pragma once
// Points marked on the default execution space's stream as work is launched, and the time
// between two of them once the device has reached the later one, asked without waiting (auto's
// kernel measurements on the solve's own iterations, auto_spmv.cpp).
//
// auto measures each kernel on the loop the solve runs: in the lagged loop (cg/solver.cpp) the
// host launches an iteration while the device runs the one before, and the time between the
// marks made at the start of two successive SpMVs is what an iteration of that kernel costs
// there, the host's launches included where they are slower than the device (cuSPARSE's SpMV
// call on a small matrix). A fenced timer would make the host wait for every iteration instead, and
// time a loop the solve does not run: three such timed iterations often ranked the kernels in the
// wrong order. On a GPU a mark is a CUDA event recorded in the stream; on the host a fence and the
// wall clock.
#include <Kokkos_Core.hpp>
#include <optional>
#include <vector>

namespace mdremap::cg {

class StreamMarks {
 public:
  StreamMarks() = default;
  ~StreamMarks();
  StreamMarks(const StreamMarks&) = delete;
  StreamMarks& operator=(const StreamMarks&) = delete;

  // Marks the stream here (after the work launched so far); returns the mark's index.
  int mark();
  int size() const { return static_cast<int>(count_); }
  // Milliseconds between marks i < j: once the device has reached j, or (wait) after waiting
  // for it; nothing while it has not.
  std::optional<double> elapsed_ms(int i, int j, bool wait);

 private:
  std::vector<void*> events_;   // cudaEvent_t in CUDA builds, made as the marks need them
  std::vector<double> host_s_;  // host builds: the wall clock at each mark
  std::size_t count_ = 0;
  Kokkos::Timer host_;
};

}  // namespace mdremap::cg

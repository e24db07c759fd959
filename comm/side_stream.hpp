#pragma once
// A second stream of the device for work that overlaps the default instance's (the
// ghosts' positions travel while the forces of the atoms that need none are computed), with the
// two orderings between them as stream events, so no host waits. On CUDA a stream of the
// highest priority, whose blocks the GPU schedules before those of the default stream's long
// kernels as soon as room frees up; on a host backend the default instance itself (kernels run
// in order there, and both orderings are nothing to do).
#include <Kokkos_Core.hpp>
#include <vector>

namespace mdremap::comm {

class SideStream {
 public:
  SideStream();
  ~SideStream();
  SideStream(const SideStream&) = delete;
  SideStream& operator=(const SideStream&) = delete;

  const Kokkos::DefaultExecutionSpace& space() const { return space_; }
  // The side stream's next work waits for everything launched on the default instance so far.
  void after_default();
  // The default instance's next work waits for everything launched on the side stream so far.
  void join_default();
  // Whether the side stream is a stream of its own (CUDA), not the default instance.
  bool separate() const { return separate_; }
  // The side stream's busy time: work between mark_start() and mark_stop() (stream events, no
  // host wait), summed by seconds(), which waits for the last stop. 0 on a host backend.
  void mark_start();
  void mark_stop();
  double seconds();

 private:
  void add_settled();
  std::vector<void*> starts_, stops_, free_, all_;  // cudaEvent_t: pending pairs, reusable, made
  double seconds_ = 0;

  Kokkos::DefaultExecutionSpace space_;
  bool separate_ = false;
  void* to_side_ = nullptr;  // cudaEvent_t recorded on the default stream
  void* to_default_ = nullptr;
};

}  // namespace mdremap::comm

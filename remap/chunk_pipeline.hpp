#pragma once
// The stream pipeline of seed 000 §5.1 (Listing 4, Fig. 5): remap kernels of chunk c run on
// remap stream c % S, the compute kernel of chunk c runs on the one compute stream after chunk
// c's event, so remapping chunk c+1 overlaps computing chunk c. Streams are Kokkos execution-space
// instances (partition_space); on CUDA the events are cudaEvents on instance.cuda_stream().
// Host backends run a kernel to completion on the calling thread, so there the instances are the
// default instance (partitioning the thread pool would only shrink every kernel) and the order
// of launches is the dependency.
#include <Kokkos_Core.hpp>
#include <vector>

#include "mdremap/error.hpp"

namespace mdremap::remap {

class ChunkPipeline {
 public:
  using Exec = Kokkos::DefaultExecutionSpace;
  static constexpr bool kAsync = !std::is_same_v<Exec, Kokkos::DefaultHostExecutionSpace>;

  ChunkPipeline() = default;
  ChunkPipeline(const ChunkPipeline&) = delete;
  ChunkPipeline& operator=(const ChunkPipeline&) = delete;
  ~ChunkPipeline() { destroy_events(); }

  void configure(int streams, int chunks) {
    if (streams < 1 || chunks < 1) throw Error("dup: streams and chunks must be at least 1");
    if (streams != streams_ || remap_.empty()) {
      remap_.clear();
      if constexpr (kAsync) {
        std::vector<int> w(streams + 1, 1);
        auto inst = Kokkos::Experimental::partition_space(Exec(), w);
        compute_ = inst[0];
        remap_.assign(inst.begin() + 1, inst.end());
      } else {
        compute_ = Exec();
        remap_.assign(streams, Exec());
      }
      streams_ = streams;
    }
    if (chunks != static_cast<int>(ready_.size())) {
      destroy_events();
      ready_.assign(chunks, nullptr);
#if defined(KOKKOS_ENABLE_CUDA)
      for (auto& e : ready_) {
        cudaEvent_t ev;
        cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
        e = ev;
      }
#endif
    }
  }
  const Exec& remap_instance(int chunk) const {
    return remap_[chunk % streams_];
  }
  const Exec& compute_instance() const {
    return compute_;
  }
  int streams() const {
    return streams_;
  }

  // Before any remap: the remap streams must see what the default instance wrote (the data).
  void begin() const {
    if constexpr (kAsync) Exec().fence("ChunkPipeline::begin");
  }
  // Chunk c's remap kernels are enqueued: record its event on the remap stream.
  void chunk_ready(int c) {
#if defined(KOKKOS_ENABLE_CUDA)
    cudaEventRecord(static_cast<cudaEvent_t>(ready_[c]), remap_instance(c).cuda_stream());
#else
    (void)c;
#endif
  }
  // The compute stream waits for chunk c's event (seed 000 Listing 4: check_Done before data_comp).
  void wait_chunk(int c) {
#if defined(KOKKOS_ENABLE_CUDA)
    cudaStreamWaitEvent(compute_.cuda_stream(), static_cast<cudaEvent_t>(ready_[c]), 0);
#else
    (void)c;
#endif
  }
  // Work after the pipeline (on the default instance) must see the compute results.
  void end() const {
    if constexpr (kAsync) compute_.fence("ChunkPipeline::end");
  }
  void fence_remaps() const {
    for (const auto& r : remap_) r.fence("ChunkPipeline::remaps");
  }

 private:
  void destroy_events() {
#if defined(KOKKOS_ENABLE_CUDA)
    for (auto e : ready_)
      if (e) cudaEventDestroy(static_cast<cudaEvent_t>(e));
#endif
    ready_.clear();
  }
  int streams_ = 0;
  Exec compute_;
  std::vector<Exec> remap_;
  std::vector<void*> ready_;  // cudaEvent_t per chunk (void* keeps the header CUDA-free elsewhere)
};

}  // namespace mdremap::remap

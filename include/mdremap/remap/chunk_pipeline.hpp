#pragma once
// The stream pipeline of seed 000 §5.1 (Listing 4, Fig. 5): remap kernels of chunk c run on
// remap stream c % S, the compute kernel of chunk c runs on the one compute stream after chunk
// c's event, so remapping chunk c+1 overlaps computing chunk c. Streams are Kokkos execution-space
// instances (partition_space); on CUDA the events are cudaEvents on instance.cuda_stream().
// Host backends run a kernel to completion on the calling thread, so there the instances are the
// default instance (partitioning the thread pool would only shrink every kernel) and the order
// of launches is the dependency.
//
// With timing on, every chunk's remap and compute are bracketed by timing events on their own
// streams, so the overlap achieved is read from device timestamps (timeline()), not inferred.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <vector>

#include "mdremap/error.hpp"

namespace mdremap::remap {

// Device timestamps of one pipelined execution, in ms from its first event.
struct PipelineTimeline {
  struct Interval {
    int chunk = 0;
    int stream = 0;  // index among the pipeline's streams: 0 = compute, 1.. = remap streams
    double begin = 0, end = 0;
  };
  std::vector<Interval> remaps, computes;
  // Share of the remap time during which some compute kernel ran (0 without remaps).
  double overlap() const {
    double total = 0, hidden = 0;
    for (const auto& r : remaps) {
      total += r.end - r.begin;
      // Compute kernels run in order on one stream: their intervals do not intersect.
      for (const auto& c : computes)
        hidden += std::max(0.0, std::min(r.end, c.end) - std::max(r.begin, c.begin));
    }
    return total > 0 ? std::min(1.0, hidden / total) : 0.0;
  }
  double remap_ms() const {
    double s = 0;
    for (const auto& r : remaps) s += r.end - r.begin;
    return s;
  }
  bool empty() const { return remaps.empty() && computes.empty(); }
};

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
      stamps_.assign(4 * chunks, nullptr);
#if defined(KOKKOS_ENABLE_CUDA)
      for (auto& e : ready_) e = make_event(cudaEventDisableTiming);
      for (auto& e : stamps_) e = make_event(cudaEventDefault);
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
  // Device timestamps around every chunk's remap and compute (costs an event record each).
  void set_timing(bool on) {
    timing_ = on;
  }

  // Before any remap: the remap streams must see what the default instance wrote (the data).
  void begin() {
    if constexpr (kAsync) Exec().fence("ChunkPipeline::begin");
    recorded_ = false;
  }
  void remap_begin(int c) {
    stamp(4 * c, remap_instance(c));
  }
  void remap_end(int c) {
    stamp(4 * c + 1, remap_instance(c));
  }
  void compute_begin(int c) {
    stamp(4 * c + 2, compute_);
  }
  void compute_end(int c) {
    stamp(4 * c + 3, compute_);
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
  // The remap and compute streams are distinct device streams (CUDA), as seed 000 needs.
  bool distinct_streams() const {
#if defined(KOKKOS_ENABLE_CUDA)
    std::vector<cudaStream_t> s{compute_.cuda_stream()};
    for (const auto& r : remap_) s.push_back(r.cuda_stream());
    std::sort(s.begin(), s.end());
    return std::adjacent_find(s.begin(), s.end()) == s.end();
#else
    return false;
#endif
  }

  // The last execution's intervals (timing on, after end()); empty on host backends or when
  // timing was off. Chunks whose remap was served by the cache have no remap interval.
  PipelineTimeline timeline() const {
    PipelineTimeline tl;
#if defined(KOKKOS_ENABLE_CUDA)
    if (!recorded_) return tl;
    fence_remaps();
    compute_.fence("ChunkPipeline::timeline");
    const int n = static_cast<int>(ready_.size());
    auto at = [&](int k) { return static_cast<cudaEvent_t>(stamps_[k]); };
    // The origin: the earliest recorded event.
    int first = -1;
    for (int k = 0; k < 4 * n; ++k) {
      if (!done_[k]) continue;
      if (first < 0) {
        first = k;
        continue;
      }
      float d = 0;
      if (cudaEventElapsedTime(&d, at(first), at(k)) == cudaSuccess && d < 0) first = k;
    }
    if (first < 0) return tl;
    auto rel = [&](int k) {
      float d = 0;
      cudaEventElapsedTime(&d, at(first), at(k));
      return static_cast<double>(d);
    };
    for (int c = 0; c < n; ++c) {
      if (done_[4 * c] && remapped_[c])
        tl.remaps.push_back({c, 1 + c % streams_, rel(4 * c), rel(4 * c + 1)});
      if (done_[4 * c + 2]) tl.computes.push_back({c, 0, rel(4 * c + 2), rel(4 * c + 3)});
    }
#endif
    return tl;
  }
  // Whether chunk c's remap kernel ran in the last execution (a cache hit runs none).
  void mark_remapped(int c, bool ran) {
    if (static_cast<int>(remapped_.size()) != static_cast<int>(ready_.size()))
      remapped_.assign(ready_.size(), 0);
    remapped_[c] = ran;
  }

 private:
#if defined(KOKKOS_ENABLE_CUDA)
  static void* make_event(unsigned flags) {
    cudaEvent_t ev;
    if (cudaEventCreateWithFlags(&ev, flags) != cudaSuccess)
      throw Error("dup: cudaEventCreate failed");
    return ev;
  }
#endif
  void stamp(int k, const Exec& on) {
    if (!timing_) return;
#if defined(KOKKOS_ENABLE_CUDA)
    if (!recorded_) {
      done_.assign(stamps_.size(), 0);
      recorded_ = true;
    }
    cudaEventRecord(static_cast<cudaEvent_t>(stamps_[k]), on.cuda_stream());
    done_[k] = 1;
#else
    (void)k;
    (void)on;
#endif
  }
  void destroy_events() {
#if defined(KOKKOS_ENABLE_CUDA)
    for (auto e : ready_)
      if (e) cudaEventDestroy(static_cast<cudaEvent_t>(e));
    for (auto e : stamps_)
      if (e) cudaEventDestroy(static_cast<cudaEvent_t>(e));
#endif
    ready_.clear();
    stamps_.clear();
  }
  int streams_ = 0;
  Exec compute_;
  std::vector<Exec> remap_;
  std::vector<void*> ready_;   // cudaEvent_t per chunk (void* keeps the header CUDA-free elsewhere)
  std::vector<void*> stamps_;  // timing events: 4 per chunk (remap begin/end, compute begin/end)
  std::vector<char> done_, remapped_;
  bool timing_ = false, recorded_ = false;
};

}  // namespace mdremap::remap

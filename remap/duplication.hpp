#pragma once
// `dup`: duplication with index redirection (seed 000 §4.1 eq. 2, §4.2): A'[j][t] = A[P[j][t]]
// for j < len[t], a trivial value otherwise; the compute kernel reads A'[j][t] (coalesced across
// a warp) and never touches P. Threads are cut into chunks (thread ranges, warp-aligned); chunk c
// is stored contiguously (seed 000 Listing 4: new_data + i * chunk_size) as rows-by-threads of
// its own width, remapped on stream c % S and computed on the compute stream after chunk c's event
// (seed 000 §5.1, Fig. 5). The remap cache (seed 000 §5.2) skips chunks whose source data did not
// change. Partial duplication (seed 001 §3.2): only rows j < fraction * R are duplicated, the
// remaining rows are gathered through P.
//
// Chunks are thread ranges rather than row ranges: a row-range chunk would make every compute
// launch re-read the thread's own data and read-modify-write its output once per chunk.
#include <algorithm>
#include <cmath>

#include "remap/cached_strategy.hpp"
#include "remap/chunk_pipeline.hpp"

namespace mdremap::remap {

// Reads one chunk's duplicated rows, and rows >= dup_rows through the index (partial dup).
template <class T>
struct DupAccess {
  Kokkos::View<const T*> dup;  // A' of the whole pattern (chunks back to back)
  std::int64_t base = 0, t0 = 0, width = 0;
  int dup_rows = 0;
  GatherAccess<T, GatherPath::ReadOnly> rest;
  KOKKOS_INLINE_FUNCTION int count(const std::int64_t t) const { return rest.count(t); }
  KOKKOS_INLINE_FUNCTION T operator()(const int j, const std::int64_t t) const {
    if (j < dup_rows) return dup(base + j * width + (t - t0));
    return rest(j, t);
  }
};

// seed 000 eq. 2 for one chunk: one thread per (row, thread) slot, coalesced writes.
template <class T>
struct DupRemapKernel {
  Kokkos::View<T*> dup;
  GatherAccess<T, GatherPath::ReadOnly> src;
  std::int64_t base = 0, t0 = 0, width = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k) const {
    const int j = static_cast<int>(k / width);
    const std::int64_t t = t0 + k % width;
    if (j < src.count(t)) dup(base + k) = src(j, t);  // trivial slots were filled at plan time
  }
};

template <class T>
class DuplicationStrategy final : public CachedRemapStrategy<T> {
  using CachedRemapStrategy<T>::data_;
  using CachedRemapStrategy<T>::cache_;

 public:
  explicit DuplicationStrategy(const RemapOptions& o) : CachedRemapStrategy<T>(o) {
    if (o.chunks < 1 || o.streams < 1) throw Error("dup: chunks and streams must be at least 1");
    if (!(o.dup_fraction > 0.0 && o.dup_fraction <= 1.0))
      throw Error("dup: dup_fraction must be in (0, 1]");
  }
  std::string name() const override { return "dup"; }

  void plan(const PatternView& pv, const IrregularPattern*) override {
    Kokkos::Timer timer;
    pv_ = pv;
    dup_rows_ = std::min(pv.rows, static_cast<int>(std::ceil(this->opt_.dup_fraction * pv.rows)));
    // Warp-aligned thread ranges keep every chunk's rows on 32-thread boundaries.
    const std::int64_t per = (pv.threads + this->opt_.chunks - 1) / this->opt_.chunks;
    const std::int64_t w = std::max<std::int64_t>(32, (per + 31) / 32 * 32);
    chunk_begin_.clear();
    for (std::int64_t t = 0; t < pv.threads; t += w) chunk_begin_.push_back(t);
    chunk_begin_.push_back(pv.threads);
    const std::int64_t need = static_cast<std::int64_t>(dup_rows_) * pv.threads;
    if (static_cast<std::int64_t>(dup_.extent(0)) != need)
      dup_ = Kokkos::View<T*>("Remap::dup", need);  // zero: eq. 2's trivial values
    else
      Kokkos::deep_copy(dup_, T{});
    pipe_.configure(this->opt_.streams, chunks());
    this->finish_plan(timer);
  }

  void remap_now() override {
    pipe_.begin();
    for (int c = 0; c < chunks(); ++c) remap_chunk(c);
    pipe_.fence_remaps();
  }

  // Remap (where the cache misses) and compute, chunk by chunk, overlapped (seed 000 Listing 4).
  template <class Body>
  void execute(const Body& body, bool ev, Sums2& sums) {
    pipe_.begin();
    for (int c = 0; c < chunks(); ++c) {
      remap_chunk(c);
      pipe_.wait_chunk(c);
      launch_range("Remap::dup_compute", pipe_.compute_instance(), body, access(c), chunk_begin_[c],
                   chunk_begin_[c + 1], ev, sums);
    }
    pipe_.end();
  }
  // The compute kernels alone on data remapped before (to time the kernel by itself).
  template <class Body>
  void compute_only(const Body& body, bool ev, Sums2& sums) {
    for (int c = 0; c < chunks(); ++c)
      launch_range("Remap::dup_compute", pipe_.compute_instance(), body, access(c), chunk_begin_[c],
                   chunk_begin_[c + 1], ev, sums);
    pipe_.end();
  }

  TransactionCount model_transactions(const IrregularPattern& host) const override {
    // Duplicated rows: each chunk is its own rows-by-threads array (aligned: 32-thread chunks).
    TransactionCount c;
    const IrregularPattern duped = row_slice(host, 0, dup_rows_);
    for (int k = 0; k < chunks(); ++k)
      c += count_transactions_duplicated(thread_slice(duped, chunk_begin_[k], chunk_begin_[k + 1]));
    if (dup_rows_ < host.rows) c += count_transactions(row_slice(host, dup_rows_, host.rows));
    return c;
  }

  RemapReport report() const override {
    RemapReport r = this->cached_report();
    r.extra_bytes = static_cast<std::int64_t>(dup_.extent(0) * sizeof(T));
    r.remapped_chunks = remapped_;
    r.chunks = chunks();
    r.streams = this->opt_.streams;
    r.rows = pv_.rows;
    r.dup_rows = dup_rows_;
    return r;
  }
  int chunks() const { return static_cast<int>(chunk_begin_.size()) - 1; }

 private:
  GatherAccess<T, GatherPath::ReadOnly> source() const {
    return {data_, pv_.index, pv_.len, pv_.stride_j, pv_.stride_t};
  }
  DupAccess<T> access(int c) const {
    const std::int64_t t0 = chunk_begin_[c];
    return {dup_, t0 * dup_rows_, t0, chunk_begin_[c + 1] - t0, dup_rows_, source()};
  }
  // Looks chunk c up in the remap cache; on a miss launches its remap kernel on stream c % S.
  void remap_chunk(int c) {
    const std::int64_t t0 = chunk_begin_[c], w = chunk_begin_[c + 1] - t0;
    T* addr_new = dup_.data() + t0 * dup_rows_;
    if (!(this->opt_.cache && cache_.lookup(data_.data(), c) != nullptr)) {
      if (dup_rows_ > 0) {
        Kokkos::parallel_for(
            "Remap::dup_remap",
            Kokkos::RangePolicy<ChunkPipeline::Exec, Kokkos::IndexType<std::int64_t>>(
                pipe_.remap_instance(c), 0, w * dup_rows_),
            DupRemapKernel<T>{dup_, source(), t0 * dup_rows_, t0, w});
      }
      cache_.insert(data_.data(), c, addr_new);
      ++remapped_;
    }
    pipe_.chunk_ready(c);
  }

  PatternView pv_;
  Kokkos::View<T*> dup_;
  int dup_rows_ = 0;
  std::vector<std::int64_t> chunk_begin_{0, 0};
  ChunkPipeline pipe_;
  std::int64_t remapped_ = 0;
};

}  // namespace mdremap::remap

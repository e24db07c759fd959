#pragma once
// `dup`: duplication with index redirection (seed 000 §4.1 eq. 2, §4.2): a rows-by-threads copy
// X'[j][t] = X[P[j][t]] for j < len[t] (a trivial value otherwise) that the compute kernel reads
// coalesced across a warp. What X is depends on which arrays the kernel reads non-coalesced:
//  - Strided patterns (MD's column-major neighbour list) index coalesced already; the data A are
//    the non-coalesced reads, so A is duplicated (A'[j][t] = A[P[j][t]]) and P is never touched.
//    The data change every execution (MD positions), so the copy is remade each time.
//  - Offsets patterns (CSR's col[rowptr[t]+j], SP's var_col[var_rowOff[dst[t]]+j]) read the index
//    and the weights themselves non-coalesced (seed 000 §2, Fig. 1: val[rowptr[tid]+k]). As in
//    seed 000 §6.3.1 (CG: "the remapping kernel is first called to reorder val and col_ind") and
//    §6.3.2 (SP: col_ind -> new_col_ind), the references are duplicated (index and weights:
//    ELL, padded column-major) and A is gathered through the new index. They do not change
//    between executions, so after the first remap the remap cache serves every execution.
// Threads are cut into chunks (warp-aligned thread ranges); chunk c is stored contiguously
// (seed 000 Listing 4: new_data + i * chunk_size) as rows-by-threads of its own width, remapped on
// stream c % S and computed on the compute stream after chunk c's event (seed 000 §5.1, Fig. 5).
// The remap cache (seed 000 §5.2) skips chunks whose source did not change. Partial duplication
// (seed 001 §3.2): only rows j < fraction * R are duplicated, the rest are read through P.
//
// Chunks are thread ranges rather than row ranges: a row-range chunk would make every compute
// launch re-read the thread's own data and read-modify-write its output once per chunk.
#include <algorithm>
#include <cmath>

#include "mdremap/remap/impl/cached_strategy.hpp"
#include "mdremap/remap/chunk_pipeline.hpp"

namespace mdremap::remap {

// Where slot (j, t) of a chunked rows-by-threads copy lives: chunk [t0, t0 + width) at base.
struct DupSlot {
  std::int64_t base = 0, t0 = 0, width = 0;
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(const int j, const std::int64_t t) const {
    return base + j * width + (t - t0);
  }
};

// Duplicated data (Strided patterns): rows < dup_rows from A', the rest through the index.
template <class T, PatternLayout L>
struct DupDataAccess {
  Kokkos::View<const T*> dup;  // A' of the whole pattern (chunks back to back)
  DupSlot slot;
  int dup_rows = 0;
  GatherAccess<T, GatherPath::ReadOnly, L> rest;
  KOKKOS_INLINE_FUNCTION int count(const std::int64_t t) const { return rest.count(t); }
  KOKKOS_INLINE_FUNCTION T operator()(const int j, const std::int64_t t) const {
    if (j < dup_rows) return dup(slot(j, t));
    return rest(j, t);
  }
  KOKKOS_INLINE_FUNCTION double weight(const int j, const std::int64_t t) const {
    return rest.weight(j, t);
  }
};

// Duplicated references (Offsets patterns): the index and weights of rows < dup_rows from their
// coalesced copies; A is gathered through the copied index.
template <class T, PatternLayout L>
struct DupRefAccess {
  Kokkos::View<const int*> index;       // P' (chunks back to back)
  Kokkos::View<const double*> weights;  // W' (empty without weights)
  DupSlot slot;
  int dup_rows = 0;
  GatherAccess<T, GatherPath::ReadOnly, L> rest;
  KOKKOS_INLINE_FUNCTION int count(const std::int64_t t) const { return rest.count(t); }
  KOKKOS_INLINE_FUNCTION int source(const int j, const std::int64_t t) const {
    return j < dup_rows ? index(slot(j, t)) : rest.source(j, t);
  }
  KOKKOS_INLINE_FUNCTION decltype(auto) operator()(const int j, const std::int64_t t) const {
    return rest.element(source(j, t));
  }
  KOKKOS_INLINE_FUNCTION double weight(const int j, const std::int64_t t) const {
    return j < dup_rows ? weights(slot(j, t)) : rest.weight(j, t);
  }
};

// seed 000 eq. 2 for one chunk: one thread per (row, thread) slot, coalesced writes. Slots past
// len[t] keep the trivial value written at plan time.
template <class T, PatternLayout L>
struct DupDataKernel {
  Kokkos::View<T*> dup;
  GatherAccess<T, GatherPath::ReadOnly, L> src;
  DupSlot slot;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k) const {
    const int j = static_cast<int>(k / slot.width);
    const std::int64_t t = slot.t0 + k % slot.width;
    if (j < src.count(t)) dup(slot.base + k) = src(j, t);
  }
};
template <PatternLayout L>
struct DupRefKernel {
  Kokkos::View<int*> index;
  Kokkos::View<double*> weights;
  GatherAccess<char, GatherPath::Global, L> src;  // only the index and weights are read
  DupSlot slot;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k) const {
    const int j = static_cast<int>(k / slot.width);
    const std::int64_t t = slot.t0 + k % slot.width;
    if (j >= src.count(t)) return;
    const std::int64_t p = src.pos(j, t);
    index(slot.base + k) = src.index(p);
    if (weights.extent(0) > 0) weights(slot.base + k) = src.weights(p);
  }
};

template <class T>
class DuplicationStrategy final : public CachedRemapStrategy<T> {
  using CachedRemapStrategy<T>::data_;
  using CachedRemapStrategy<T>::cache_;

 public:
  static constexpr const char* kName = "dup";
  // Reads A in place (no copy): serves kernels that also write through the pattern.
  static constexpr bool kReadsInPlace = false;
  static constexpr const char* kHelp =
      "duplication + index redirection, chunked over streams with a remap cache (seed 000)";
  static std::vector<RemapKey> keys() {
    return {
        RemapKey::integer(
            "chunks", "dup: thread-range chunks, remapped and computed one by one (seed 000 §5.1)",
            [](const RemapSettings& s) { return s.options.chunks; },
            [](RemapSettings& s, long long v) { s.options.chunks = static_cast<int>(v); })
            .at_least(1, "must be at least 1")
            .with_flag("--chunks"),
        RemapKey::integer(
            "streams", "dup: execution-space instances the chunks' remaps rotate over",
            [](const RemapSettings& s) { return s.options.streams; },
            [](RemapSettings& s, long long v) { s.options.streams = static_cast<int>(v); })
            .within(1, 32, "must be 1..32")
            .with_flag("--streams"),
        RemapKey::real(
            "dup_fraction",
            "dup: share of the reference rows duplicated, the rest gathered (seed "
            "001 §3.2)",
            [](const RemapSettings& s) { return s.options.dup_fraction; },
            [](RemapSettings& s, double v) { s.options.dup_fraction = v; })
            .within(0, 1, "must be in (0, 1]", true)
            .with_flag("--dup-fraction"),
        cache_key()};
  }
  static Applicability applies(const RemapOptions& o) {
    if (o.writes_through_pattern)
      return {false, o.kernel + " writes through the pattern; duplication copies reads only"};
    return {};
  }

  explicit DuplicationStrategy(const RemapOptions& o) : CachedRemapStrategy<T>(o) {
    if (o.chunks < 1 || o.streams < 1) throw Error("dup: chunks and streams must be at least 1");
    if (!(o.dup_fraction > 0.0 && o.dup_fraction <= 1.0))
      throw Error("dup: dup_fraction must be in (0, 1]");
    if (const auto a = applies(o); !a.ok) throw Error("dup does not apply: " + a.why);
  }
  const char* key() const override { return kName; }
  std::string name() const override { return kName; }
  // Duplicated references: the copy depends on the pattern only (the remap cache keys it by the
  // index array), not on the data.
  bool references() const { return pv_.layout == PatternLayout::Offsets; }

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
    if (references()) {
      dup_ = {};
      // Zero-initialised: slots past len[t] hold element 0 with weight 0, never read.
      dup_index_ = Kokkos::View<int*>("Remap::dup_index", need);
      dup_weight_ = pv.has_weight() ? Kokkos::View<double*>("Remap::dup_weight", need)
                                    : Kokkos::View<double*>();
    } else {
      dup_index_ = {};
      dup_weight_ = {};
      if (static_cast<std::int64_t>(dup_.extent(0)) != need)
        dup_ = Kokkos::View<T*>("Remap::dup", need);  // zero: eq. 2's trivial values
      else
        Kokkos::deep_copy(dup_, T{});
    }
    pipe_.configure(this->opt_.streams, chunks());
    this->finish_plan(timer);
  }
  void set_data(Kokkos::View<const T*> data, bool changed) override {
    if (references()) {
      data_ = data;  // the copies hold references, not data: they stay valid
      return;
    }
    CachedRemapStrategy<T>::set_data(data, changed);
  }

  void remap_now() override {
    pipe_.begin();
    for (int c = 0; c < chunks(); ++c) remap_chunk(c);
    pipe_.fence_remaps();
  }

  // Remap (where the cache misses) and compute, chunk by chunk, overlapped (seed 000 Listing 4).
  template <class Body, class Sums>
  void execute(const Body& body, bool ev, Sums& sums) {
    check_layout<Body>(pv_, kName);
    ++this->executions_;
    pipe_.begin();
    for (int c = 0; c < chunks(); ++c) {
      remap_chunk(c);
      pipe_.wait_chunk(c);
      compute_chunk(body, c, ev, sums);
    }
    pipe_.end();
  }
  // The compute kernels alone on data remapped before (to time the kernel by itself).
  template <class Body, class Sums>
  void compute_only(const Body& body, bool ev, Sums& sums) {
    check_layout<Body>(pv_, kName);
    ++this->executions_;
    for (int c = 0; c < chunks(); ++c) compute_chunk(body, c, ev, sums);
    pipe_.end();
  }

  TransactionCount model_transactions(const IrregularPattern& host) const override {
    // Duplicated rows: each chunk is its own rows-by-threads array (aligned: 32-thread chunks).
    // Duplicated references: the data gather through the copied index is what remains.
    if (references()) return count_transactions(host);
    TransactionCount c;
    const IrregularPattern duped = row_slice(host, 0, dup_rows_);
    for (int k = 0; k < chunks(); ++k)
      c += count_transactions_duplicated(thread_slice(duped, chunk_begin_[k], chunk_begin_[k + 1]));
    if (dup_rows_ < host.rows) c += count_transactions(row_slice(host, dup_rows_, host.rows));
    return c;
  }

  // Duplicated data: A' per chunk (no index loads), rows past dup_rows through P. Duplicated
  // references: A through the copied index (the gather's data loads); the index and weights of
  // rows below dup_rows from their per-chunk copies, the rest from the pattern's layout.
  TransactionBreakdown model_breakdown(const IrregularPattern& host) const override {
    const TransactionModel m = transaction_model(pv_);
    const TransactionBreakdown dup = count_breakdown_duplicated(host, m, dup_rows_, chunk_begin_);
    if (!references()) return dup;
    TransactionBreakdown b;
    b.data = count_breakdown_gather(host, m).data;
    IrregularPattern copied = row_slice(host, 0, dup_rows_);  // the index copy's shape
    copied.elem_bytes = m.index_bytes;
    b.index = count_breakdown_duplicated(copied, m, -1, chunk_begin_).data;
    b.index += dup.index;  // rows past dup_rows (none without partial duplication)
    b.weights = dup.weights;
    b.lengths = dup.lengths;
    return b;
  }
  RemapReport report() const override {
    RemapReport r = this->cached_report();
    r.extra_bytes =
        static_cast<std::int64_t>(dup_.extent(0) * sizeof(T) + dup_index_.extent(0) * sizeof(int) +
                                  dup_weight_.extent(0) * sizeof(double));
    r.remapped_chunks = remapped_;
    r.chunks = chunks();
    r.streams = this->opt_.streams;
    r.rows = pv_.rows;
    r.dup_rows = dup_rows_;
    r.dup_target = references() ? "references" : "data";
    return r;
  }
  // The plan is one zero-initialised allocation of R x T slots (references and weights, or data):
  // timed for an eighth of them and scaled, so the allocation's fixed cost is counted eight times
  // and the estimate errs long. Small copies are planned outright (-1).
  double estimate_plan_ms(const PatternView& pv, const IrregularPattern*) const override {
    const int rows =
        std::min(pv.rows, static_cast<int>(std::ceil(this->opt_.dup_fraction * pv.rows)));
    const double slot = pv.layout == PatternLayout::Offsets
                            ? sizeof(int) + (pv.has_weight() ? sizeof(double) : 0.0)
                            : static_cast<double>(sizeof(T));
    const double bytes = static_cast<double>(rows) * static_cast<double>(pv.threads) * slot;
    if (bytes < double(1 << 24)) return -1;
    Kokkos::fence();
    Kokkos::Timer t;
    {
      Kokkos::View<char*> sample("Remap::dup_plan_sample", static_cast<std::size_t>(bytes / 8));
      Kokkos::fence();
    }
    return 8e3 * t.seconds();
  }
  // Duplicated data that change every execution: A' is written and read back each time (seed 000
  // eq. 2, R x T elements; the gather of A by the remap kernel comes on top).
  double min_exec_bytes(const PatternView& pv) const override {
    if (pv.layout == PatternLayout::Offsets || !this->opt_.data_changes) return 0;
    const int rows =
        std::min(pv.rows, static_cast<int>(std::ceil(this->opt_.dup_fraction * pv.rows)));
    return 2.0 * static_cast<double>(rows) * static_cast<double>(pv.threads) * sizeof(T);
  }
  int chunks() const { return static_cast<int>(chunk_begin_.size()) - 1; }
  const ChunkPipeline& pipeline() const { return pipe_; }
  ChunkPipeline& pipeline() { return pipe_; }

 private:
  DupSlot slot(int c) const {
    const std::int64_t t0 = chunk_begin_[c];
    return {t0 * dup_rows_, t0, chunk_begin_[c + 1] - t0};
  }
  template <class Body, class Sums>
  void compute_chunk(const Body& body, int c, bool ev, Sums& sums) {
    constexpr PatternLayout L = body_layout_v<Body>;
    const auto rest = GatherAccess<T, GatherPath::ReadOnly, L>::of(pv_, data_);
    pipe_.compute_begin(c);
    if (references())
      launch_range("Remap::dup_compute", pipe_.compute_instance(), body,
                   DupRefAccess<T, L>{dup_index_, dup_weight_, slot(c), dup_rows_, rest},
                   chunk_begin_[c], chunk_begin_[c + 1], ev, sums);
    else
      launch_range("Remap::dup_compute", pipe_.compute_instance(), body,
                   DupDataAccess<T, L>{dup_, slot(c), dup_rows_, rest}, chunk_begin_[c],
                   chunk_begin_[c + 1], ev, sums);
    pipe_.compute_end(c);
  }
  // Looks chunk c up in the remap cache; on a miss launches its remap kernel on stream c % S.
  void remap_chunk(int c) {
    const DupSlot s = slot(c);
    const void* key = references() ? static_cast<const void*>(pv_.index.data())
                                   : static_cast<const void*>(data_.data());
    void* addr_new = references() ? static_cast<void*>(dup_index_.data() + s.base)
                                  : static_cast<void*>(dup_.data() + s.base);
    pipe_.remap_begin(c);
    const bool miss = !(this->opt_.cache && cache_.lookup(key, c) != nullptr);
    if (miss) {
      if (dup_rows_ > 0 && s.width > 0) {
        const auto policy =
            Kokkos::RangePolicy<ChunkPipeline::Exec, Kokkos::IndexType<std::int64_t>>(
                pipe_.remap_instance(c), 0, s.width * dup_rows_);
        if (pv_.layout == PatternLayout::Offsets)
          Kokkos::parallel_for(
              "Remap::dup_remap_references", policy,
              DupRefKernel<PatternLayout::Offsets>{
                  dup_index_, dup_weight_,
                  GatherAccess<char, GatherPath::Global, PatternLayout::Offsets>::of(pv_, {}), s});
        else
          Kokkos::parallel_for(
              "Remap::dup_remap", policy,
              DupDataKernel<T, PatternLayout::Strided>{
                  dup_,
                  GatherAccess<T, GatherPath::ReadOnly, PatternLayout::Strided>::of(pv_, data_),
                  s});
      }
      cache_.insert(key, c, addr_new);
      ++remapped_;
    }
    pipe_.remap_end(c);
    pipe_.mark_remapped(c, miss);
    pipe_.chunk_ready(c);
  }

  PatternView pv_;
  Kokkos::View<T*> dup_;
  Kokkos::View<int*> dup_index_;
  Kokkos::View<double*> dup_weight_;
  int dup_rows_ = 0;
  std::vector<std::int64_t> chunk_begin_{0, 0};
  ChunkPipeline pipe_;
  std::int64_t remapped_ = 0;
};

}  // namespace mdremap::remap

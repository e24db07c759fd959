#pragma once
// `gather`: the baseline (BRIEF section 5). The kernel reads A[P[j][t]] straight through the index,
// on the memory path of seed 003 Algorithm 3 (global, read-only cache, or texture on CUDA), through
// the index as given or (index_bits 16) through its 16-bit delta encoding, made at every plan.
#include "mdremap/remap/impl/cached_strategy.hpp"
#include "mdremap/remap/delta_index.hpp"
#include "mdremap/remap/lanes.hpp"
#include "mdremap/remap/texture.hpp"

namespace mdremap::remap {

// The gather's deck keys: the index's width, the memory path, the lanes a thread.
inline std::vector<RemapKey> gather_keys() {
  const std::vector<std::string> lanes = {"auto", "1", "2", "4", "8", "16", "32"};
  return {
      RemapKey::choice(
          "index_bits",
          "gather: bits per stored index: 16 delta-encodes the index at every plan (strided "
          "patterns, kernels that walk their rows in order), 32 reads it as given",
          {"32", "16"}, [](const RemapSettings& s) { return std::to_string(s.options.index_bits); },
          [](RemapSettings& s, const std::string& v) { s.options.index_bits = std::stoi(v); })
          .checked([](const RemapSettings& s) -> std::string {
            if (s.options.index_bits != 16) return "";
            if (!s.mode.is_gather())
              return "16 is the gather's compressed neighbour index: it needs remap.mode=gather, "
                     "not '" +
                     s.mode.name() + "'";
            if (s.path_auto ||
                (s.options.path != GatherPath::ReadOnly && s.options.path != GatherPath::Global))
              return "16 reads through the readonly or global path: set remap.gather_path to one "
                     "of them";
            return "";
          }),
      RemapKey::choice(
          "gather_path", "Memory path of the gathers (seed 003 Algorithm 3)",
          {"global", "readonly", "texture", "split", "auto"},
          [](const RemapSettings& s) -> std::string {
            if (s.path_auto) return "auto";
            // The 16-bit index decodes through the read-only path: its default.
            if (s.options.index_bits == 16 &&
                (s.options.path == GatherPath::Texture || s.options.path == GatherPath::Split))
              return "readonly";
            return gather_path_name(s.options.path);
          },
          [](RemapSettings& s, const std::string& v) {
            s.path_auto = v == "auto";
            for (GatherPath p :
                 {GatherPath::Global, GatherPath::ReadOnly, GatherPath::Texture, GatherPath::Split})
              if (v == gather_path_name(p)) s.options.path = p;
            if (s.path_auto) s.options.path = GatherPath::ReadOnly;
          })
          .with_flag("--gather-path")
          .noting("texture", "CUDA")
          .noting("split", "CUDA: the read-only cache through both of the L1's data pipes")
          .noting("auto", "chosen from the first pattern")
          .checked([](const RemapSettings& s) -> std::string {
#if !defined(KOKKOS_ENABLE_CUDA)
            if (!s.path_auto && s.options.path == GatherPath::Texture)
              return "'texture' needs CUDA texture objects (seed 003 Algorithm 3) and this binary "
                     "runs on a CPU backend: use readonly or global";
            if (!s.path_auto && s.options.path == GatherPath::Split)
              return "'split' reads through the load/store and texture pipes of a GPU's L1 (CUDA "
                     "texture objects) and this binary runs on a CPU backend: use readonly or "
                     "global";
#endif
            (void)s;
            return "";
          }),
      RemapKey::choice(
          "lanes",
          "gather: GPU lanes a thread's references are split over (lanes.hpp); auto: chosen from "
          "the first pattern and the GPU's resident threads",
          lanes,
          [](const RemapSettings& s) {
            return s.lanes_auto ? std::string("auto") : std::to_string(s.options.lanes);
          },
          [](RemapSettings& s, const std::string& v) {
            s.lanes_auto = v == "auto";
            s.options.lanes = s.lanes_auto ? 1 : std::stoi(v);
          })
          .checked([](const RemapSettings& s) -> std::string {
            const int l = s.options.lanes;
            if (l <= 1) return "";
            if (!s.mode.is_gather() && !s.mode.chooses())
              return std::to_string(l) +
                     " splits the gather's threads: it needs remap.mode gather or auto, not '" +
                     s.mode.name() + "'";
            if (s.options.index_bits == 16)
              return "the 16-bit index is decoded in order by one lane a thread: set lanes 1";
            if (!kLanesOnDevice)
              return std::to_string(l) +
                     " splits a thread over a GPU warp's lanes; this binary runs on a CPU "
                     "backend: use 1 or auto";
            return "";
          }),
  };
}

template <class T>
class GatherStrategy final : public CachedRemapStrategy<T> {
 public:
  static constexpr const char* kName = "gather";
  // Reads A in place (no copy): serves kernels that also write through the pattern.
  static constexpr bool kReadsInPlace = true;
  static constexpr const char* kHelp =
      "the baseline: the kernel reads A[P[j][t]] through the index";
  static constexpr bool kGather = true;  // StrategyChoice::is_gather
  static std::vector<RemapKey> keys() { return gather_keys(); }
  static Applicability applies(const RemapOptions&) { return {}; }

  explicit GatherStrategy(const RemapOptions& o) : CachedRemapStrategy<T>(o) {
    if (o.path == GatherPath::Texture || o.path == GatherPath::Split) require_texture_path();
    if (o.path == GatherPath::Split && sizeof(T) != 16 && sizeof(T) != 32)
      throw Error(
          "gather path 'split' reads elements of 16 or 32 bytes (one or two int4 texels), not " +
          std::to_string(sizeof(T)));
    if (o.index_bits != 32 && o.index_bits != 16)
      throw Error("gather: index_bits must be 16 or 32, not " + std::to_string(o.index_bits));
    if (o.index_bits == 16 && (o.path == GatherPath::Texture || o.path == GatherPath::Split))
      throw Error(std::string("gather: the 16-bit index reads through the global or read-only "
                              "path, not ") +
                  to_string(o.path));
    if (!valid_lanes(o.lanes))
      throw Error("gather: lanes must be 1, 2, 4, 8, 16 or 32, not " + std::to_string(o.lanes));
    if (o.lanes > 1 && o.index_bits == 16)
      throw Error("gather: the 16-bit index is decoded in order by one lane a thread (lanes 1)");
    if (o.lanes > 1 && !kLanesOnDevice)
      throw Error("gather: lanes > 1 split a thread over a CUDA warp's lanes; this binary runs " +
                  std::string(Kokkos::DefaultExecutionSpace::name()));
  }
  const char* key() const override { return kName; }
  std::string name() const override {
    std::string n = kName;
    if (this->opt_.path == GatherPath::Split && split_past_texture_)
      n += "(readonly: more elements than split's texture addresses)";
    else if (this->opt_.path != GatherPath::ReadOnly)
      n += "(" + std::string(to_string(this->opt_.path)) + ")";
    if (this->opt_.index_bits == 16) n += "(index16)";
    if (this->opt_.lanes > 1) n += "(lanes " + std::to_string(this->opt_.lanes) + ")";
    return n;
  }
  void plan(const PatternView& pv, const IrregularPattern*) override {
    Kokkos::Timer timer;
    pv_ = pv;
    if (this->opt_.index_bits == 16) {
      if (pv.layout != PatternLayout::Strided)
        throw Error("gather: the 16-bit index applies to strided patterns only");
      encode_delta16(pv, delta_);
    }
    this->finish_plan(timer);
  }
  // The 16-bit index of the last plan (index_bits 16): its bytes and escapes.
  const DeltaIndex& delta_index() const { return delta_; }
  TransactionCount model_transactions(const IrregularPattern& host) const override {
    return count_transactions(host);
  }
  TransactionBreakdown model_breakdown(const IrregularPattern& host) const override {
    TransactionModel m = transaction_model(pv_);
    if (this->opt_.index_bits == 16) m.index_bytes = 2;  // the escapes' side table not counted
    return count_breakdown_gather(host, m);
  }
  RemapReport report() const override {
    RemapReport r = this->cached_report();
    r.rows = pv_.rows;
    if (this->opt_.index_bits == 16) {
      r.extra_bytes += delta_.bytes();
      r.index_references = delta_.references;
      r.index_escapes = delta_.escapes;
    }
    return r;
  }
  double estimate_plan_ms(const PatternView&, const IrregularPattern*) const override { return 0; }

  template <class Body, class Sums>
  void execute(const Body& body, bool ev, Sums& sums) {
    compute_only(body, ev, sums);
  }
  template <class Body, class Sums>
  void compute_only(const Body& body, bool ev, Sums& sums) {
    ++this->executions_;
    run(body, ev, sums, nullptr);
  }
  // A part of the threads (ThreadSelection, strategy.hpp): the data is read in place, so the
  // rest may run later, after more of it is written. Counts as an execution with the part that
  // completes it (`last`).
  static constexpr bool kRunsSelections = true;
  template <class Body, class Sums>
  void compute_selected(const Body& body, bool ev, Sums& sums, const ThreadSelection& sel,
                        bool last) {
    if (last) ++this->executions_;
    run(body, ev, sums, &sel);
  }

 private:
  template <class Body, class Access, class Sums>
  void launch(const char* label, const Body& body, const Access& acc, std::int64_t threads, bool ev,
              Sums& sums, const ThreadSelection* sel) const {
    if (this->opt_.lanes > 1) {
      if constexpr (BodySplitsOverLanes<Body>::value && !IsDeltaGather<Access>::value) {
        if (sel)
          launch_lanes(label, sel->space, body, acc, sel->first, sel->first + sel->count,
                       this->opt_.lanes, ev, sums);
        else
          launch_lanes(label, ExecSpace(), body, acc, 0, threads, this->opt_.lanes, ev, sums);
        return;
      } else {
        throw Error(
            "gather: lanes > 1 need a kernel that splits a thread's references over "
            "lanes, and " +
            this->opt_.kernel + " does not");
      }
    }
    if (sel)
      launch_range(label, sel->space, body, acc, sel->first, sel->first + sel->count, ev, sums);
    else
      launch_range(label, ExecSpace(), body, acc, 0, threads, ev, sums);
  }
  template <class Body, class Sums>
  void run(const Body& body, bool ev, Sums& sums, const ThreadSelection* sel) {
    check_layout<Body>(pv_, kName);
    constexpr PatternLayout L = body_layout_v<Body>;
    if (this->opt_.index_bits == 16) {
      if constexpr (L == PatternLayout::Strided && BodyWalksInOrder<Body>::value) {
        if (this->opt_.path == GatherPath::Global)
          launch("Remap::gather16", body,
                 DeltaGatherAccess<T, GatherPath::Global>::of(delta_, pv_, this->data_),
                 pv_.threads, ev, sums, sel);
        else
          launch("Remap::gather16", body,
                 DeltaGatherAccess<T, GatherPath::ReadOnly>::of(delta_, pv_, this->data_),
                 pv_.threads, ev, sums, sel);
        return;
      } else {
        throw Error(std::string("gather: the 16-bit index needs a kernel that walks its "
                                "references in order, and ") +
                    this->opt_.kernel + " does not");
      }
    }
    switch (this->opt_.path) {
      case GatherPath::Global:
        launch("Remap::gather", body, GatherAccess<T, GatherPath::Global, L>::of(pv_, this->data_),
               pv_.threads, ev, sums, sel);
        break;
      case GatherPath::ReadOnly:
        launch("Remap::gather", body,
               GatherAccess<T, GatherPath::ReadOnly, L>::of(pv_, this->data_), pv_.threads, ev,
               sums, sel);
        break;
      case GatherPath::Texture: {
        const TextureHandle h = tex_.bind(this->data_.data(), this->data_.extent(0));
        launch("Remap::gather_texture", body, TextureGatherAccess<T, L>::of(pv_, h, tex_.shift()),
               pv_.threads, ev, sums, sel);
        break;
      }
      case GatherPath::Split: {
        if constexpr (sizeof(T) == 16 || sizeof(T) == 32) {
          // An array longer than one texture addresses (2^28 texels on Hopper: 134M
          // double-precision positions) reads through the read-only path, and the strategy's
          // name says so (split_past_texture_).
          split_past_texture_ = !TextureObject<T>::fits(this->data_.extent(0));
          if (split_past_texture_) {
            launch("Remap::gather", body,
                   GatherAccess<T, GatherPath::ReadOnly, L>::of(pv_, this->data_), pv_.threads, ev,
                   sums, sel);
          } else {
            const TextureHandle h = tex_.bind(this->data_.data(), this->data_.extent(0));
            launch("Remap::gather_split", body,
                   SplitGatherAccess<T, L>::of(pv_, this->data_, h, tex_.shift()), pv_.threads, ev,
                   sums, sel);
          }
        }
        break;
      }
    }
  }

  using ExecSpace = Kokkos::DefaultExecutionSpace;
  PatternView pv_;
  TextureObject<T> tex_;
  bool split_past_texture_ = false;  // path split, the array past the texture's width
  DeltaIndex delta_;
};

}  // namespace mdremap::remap

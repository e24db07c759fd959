#pragma once
// `gather`: the baseline (BRIEF section 5). The kernel reads A[P[j][t]] straight through the index,
// on the memory path of seed 003 Algorithm 3 (global, read-only cache, or texture on CUDA).
#include <memory>

#include "remap/strategy.hpp"
#include "remap/texture.hpp"

namespace mdremap::remap {

template <class T>
class GatherStrategy final : public RemapStrategy<T> {
 public:
  explicit GatherStrategy(const RemapOptions& o) : RemapStrategy<T>(o) {
    if (o.path == GatherPath::Texture) require_texture_path();
  }
  std::string name() const override {
    switch (this->opt_.path) {
      case GatherPath::Global:
        return "gather(global)";
      case GatherPath::ReadOnly:
        return "gather";
      case GatherPath::Texture:
        return "gather(texture)";
    }
    return "gather";
  }
  void plan(const PatternView& pv, const IrregularPattern*) override {
    pv_ = pv;
    ++plans_;
  }
  void set_data(Kokkos::View<const T*> data, bool) override { data_ = data; }
  TransactionCount model_transactions(const IrregularPattern& host) const override {
    return count_transactions(host);
  }
  RemapReport report() const override {
    RemapReport r;
    r.strategy = name();
    r.rows = pv_.rows;
    r.plans = plans_;
    return r;
  }

  template <class Body>
  void execute(const Body& body, bool ev, Sums2& sums) {
    compute_only(body, ev, sums);
  }
  template <class Body>
  void compute_only(const Body& body, bool ev, Sums2& sums) {
    const ExecSpace exec;
    switch (this->opt_.path) {
      case GatherPath::Global: {
        GatherAccess<T, GatherPath::Global> a{data_, pv_.index, pv_.len, pv_.stride_j,
                                              pv_.stride_t};
        launch_range("Remap::gather", exec, body, a, 0, pv_.threads, ev, sums);
        break;
      }
      case GatherPath::ReadOnly: {
        GatherAccess<T, GatherPath::ReadOnly> a{data_, pv_.index, pv_.len, pv_.stride_j,
                                                pv_.stride_t};
        launch_range("Remap::gather", exec, body, a, 0, pv_.threads, ev, sums);
        break;
      }
      case GatherPath::Texture: {
        TextureGatherAccess<T> a{tex_.bind(data_.data(), data_.extent(0)),
                                 pv_.index,
                                 pv_.len,
                                 pv_.stride_j,
                                 pv_.stride_t,
                                 tex_.shift()};
        launch_range("Remap::gather_texture", exec, body, a, 0, pv_.threads, ev, sums);
        break;
      }
    }
  }

 private:
  using ExecSpace = Kokkos::DefaultExecutionSpace;
  PatternView pv_;
  Kokkos::View<const T*> data_;
  TextureObject<T> tex_;
  int plans_ = 0;
};

}  // namespace mdremap::remap

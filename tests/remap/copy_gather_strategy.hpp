#pragma once
// A throwaway strategy for the extension test (test_strategy_extension.cpp): the gather under
// another name, with one key of its own. It is what a new strategy takes: this header (kName,
// kHelp, keys(), applies(), the contract's members) and one entry in a registry's type list.
#include <string>

#include "mdremap/remap/registry.hpp"

namespace mdremap::remap::testing {

template <class T>
class CopyGatherStrategy final : public RemapStrategy<T> {
 public:
  static constexpr const char* kName = "copy-gather";
  static constexpr bool kReadsInPlace = true;
  static constexpr const char* kHelp = "the gather again, under another name (a test's)";
  // Its own key, kept by name in RemapOptions::named: a label its name() reports.
  static std::vector<RemapKey> keys() {
    return {RemapKey::integer(
                "copy_label", "copy-gather: a number its name carries",
                [](const RemapSettings& s) {
                  const auto it = s.options.named.find("copy_label");
                  return it == s.options.named.end() ? 1LL : static_cast<long long>(it->second);
                },
                [](RemapSettings& s, long long v) {
                  s.options.named["copy_label"] = static_cast<double>(v);
                })
                .within(1, 99, "must be 1..99")
                .with_flag("--copy-label")};
  }
  static Applicability applies(const RemapOptions&) { return {}; }

  explicit CopyGatherStrategy(const RemapOptions& o) : RemapStrategy<T>(o), inner_(o) {}
  const char* key() const override { return kName; }
  std::string name() const override {
    const auto it = this->opt_.named.find("copy_label");
    const int label = it == this->opt_.named.end() ? 1 : static_cast<int>(it->second);
    return std::string(kName) + "(" + std::to_string(label) + ")";
  }
  void plan(const PatternView& pv, const IrregularPattern* host) override { inner_.plan(pv, host); }
  void set_data(Kokkos::View<const T*> data, bool changed) override {
    inner_.set_data(data, changed);
  }
  TransactionCount model_transactions(const IrregularPattern& host) const override {
    return inner_.model_transactions(host);
  }
  TransactionBreakdown model_breakdown(const IrregularPattern& host) const override {
    return inner_.model_breakdown(host);
  }
  RemapReport report() const override {
    RemapReport r = inner_.report();
    r.strategy = name();
    return r;
  }
  template <class Body, class Sums>
  void execute(const Body& body, bool ev, Sums& sums) {
    inner_.execute(body, ev, sums);
  }
  template <class Body, class Sums>
  void compute_only(const Body& body, bool ev, Sums& sums) {
    inner_.compute_only(body, ev, sums);
  }

 private:
  GatherStrategy<T> inner_;
};

// The default registry with the copy after its strategies.
struct WithCopyGather {
  template <class T>
  using list = typename Append<DefaultStrategies::list<T>, CopyGatherStrategy<T>>::type;
};

}  // namespace mdremap::remap::testing

#pragma once
// The reorders by name (remap.reorder), beside the strategies' registry: one vocabulary for every
// app, each app saying which it serves (remap_deck.hpp: RemapApp::reorders). A reorder permutes
// the app's threads before the strategy plans; the ones planned from the pattern are planned
// here (reorder_threads), the others by the app (a sort by position, the app's own grouping). A
// new reorder is its spec below (name, help, keys, whether the layer plans it) and its entry in
// ReorderSpecs. No Kokkos here.
#include <string>
#include <tuple>
#include <vector>

#include "mdremap/remap/impl/partition.hpp"
#include "mdremap/remap/pattern.hpp"
#include "mdremap/remap/settings.hpp"

namespace mdremap::remap {

struct NoReorderSpec {
  static constexpr Reorder kId = Reorder::None;
  static constexpr const char* kName = "none";
  static constexpr const char* kHelp = "the app's own order";
  static constexpr bool kFromPattern = false;
  static std::vector<RemapKey> keys() { return {}; }
};
struct SpatialSpec {
  static constexpr Reorder kId = Reorder::Spatial;
  static constexpr const char* kName = "spatial";
  static constexpr const char* kHelp = "threads along a space-filling curve of their positions";
  static constexpr bool kFromPattern = false;
  static std::vector<RemapKey> keys() { return {}; }
};
struct VariableSpec {
  static constexpr Reorder kId = Reorder::Variable;
  static constexpr const char* kName = "variable";
  static constexpr const char* kHelp = "threads grouped by the data element they serve";
  static constexpr bool kFromPattern = false;
  static std::vector<RemapKey> keys() { return {}; }
};
struct LabelPropSpec {
  static constexpr Reorder kId = Reorder::LabelProp;
  static constexpr const char* kName = "labelprop";
  static constexpr const char* kHelp =
      "clusters of about `block` threads that read the same data, by label propagation (seed "
      "001 §3.4)";
  static constexpr bool kFromPattern = true;
  static std::vector<RemapKey> keys() { return {block_key()}; }
};
struct LabelPropHostSpec {
  static constexpr Reorder kId = Reorder::LabelPropHost;
  static constexpr const char* kName = "labelprop-host";
  static constexpr const char* kHelp = "labelprop planned on the host";
  static constexpr bool kFromPattern = true;
  static std::vector<RemapKey> keys() { return {block_key()}; }
};
struct PartitionSpec {
  static constexpr Reorder kId = Reorder::Partition;
  static constexpr const char* kName = "partition";
  static constexpr const char* kHelp =
      "parts whose data fits `partition_bytes`, one after the other (seed 002 Algorithm 1)";
  static constexpr bool kFromPattern = true;
  static std::vector<RemapKey> keys() { return {partition_bytes_key()}; }
};
struct AutoReorderSpec {
  static constexpr Reorder kId = Reorder::Auto;
  static constexpr const char* kName = "auto";
  static constexpr const char* kHelp = "the app decides from its pattern whether to reorder";
  static constexpr bool kFromPattern = false;
  static std::vector<RemapKey> keys() { return {}; }
};

// The registry; help and errors list an app's reorders in this order.
using ReorderSpecs = std::tuple<NoReorderSpec, SpatialSpec, VariableSpec, LabelPropSpec,
                                LabelPropHostSpec, PartitionSpec, AutoReorderSpec>;

struct ReorderInfo {
  Reorder id = Reorder::None;
  std::string name;
  std::string help;
  std::vector<RemapKey> keys;
  bool from_pattern = false;  // reorder_threads plans it
};

const std::vector<ReorderInfo>& reorder_catalogue();
const ReorderInfo& reorder_info(Reorder r);
std::string to_string(Reorder r);
// The reorder named `name`; Error for another.
Reorder parse_reorder(const std::string& name);
// "none | labelprop | ..." of `rs`, for help texts.
std::string reorder_list(const std::vector<Reorder>& rs, const char* sep = " | ");

// How the app's pattern is partitioned (partition.hpp): the bisector, and the threads'
// positions for k-d tiling on them (3 per thread; empty: on the thread index and mean element).
struct ReorderHints {
  Bisector bisector = Bisector::kd_tiling;
  PartitionGranularity granularity = PartitionGranularity::threads;
  std::vector<float> coords;
};

// The thread order, new -> old, of a reorder planned from the pattern (from_pattern): labelprop
// clusters of about options.block_threads threads, partition parts of partition_bytes (0: half
// the device's L2). Error for a reorder the app plans itself.
ThreadPermutation reorder_threads(const RemapSettings& s, const IrregularPattern& host,
                                  const ReorderHints& hints = {});

}  // namespace mdremap::remap

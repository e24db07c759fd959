// The reorder registry (reorders.hpp) and the reorders planned from a pattern.
#include "mdremap/remap/reorders.hpp"

#include "mdremap/error.hpp"
#include "mdremap/remap/impl/clustering.hpp"
#include "mdremap/remap/device_cache.hpp"

namespace mdremap::remap {

const std::vector<ReorderInfo>& reorder_catalogue() {
  static const std::vector<ReorderInfo> c = [] {
    std::vector<ReorderInfo> v;
    std::apply(
        [&](auto... spec) {
          (v.push_back({decltype(spec)::kId, decltype(spec)::kName, decltype(spec)::kHelp,
                        decltype(spec)::keys(), decltype(spec)::kFromPattern}),
           ...);
        },
        ReorderSpecs{});
    return v;
  }();
  return c;
}

const ReorderInfo& reorder_info(Reorder r) {
  for (const auto& i : reorder_catalogue())
    if (i.id == r) return i;
  throw Error("remap: a reorder missing from ReorderSpecs");
}

std::string to_string(Reorder r) {
  return reorder_info(r).name;
}

Reorder parse_reorder(const std::string& name) {
  for (const auto& i : reorder_catalogue())
    if (i.name == name) return i.id;
  throw Error("unknown remap reorder '" + name + "'");
}

std::string reorder_list(const std::vector<Reorder>& rs, const char* sep) {
  std::string s;
  for (Reorder r : rs) s += (s.empty() ? "" : sep) + to_string(r);
  return s;
}

ThreadPermutation reorder_threads(const RemapSettings& s, const IrregularPattern& host,
                                  const ReorderHints& hints) {
  switch (s.reorder) {
    case Reorder::LabelProp:
    case Reorder::LabelPropHost: {
      // seed 001 §3.4: clusters of about one thread block of threads that read the same data.
      LabelPropagationOptions o;
      o.cluster_threads = s.options.block_threads;
      return LabelPropagationClustering(o).cluster(host).thread_perm;
    }
    case Reorder::Partition: {
      // seed 002 Algorithm 1: data-balanced parts that fit the cache.
      PartitionOptions o;
      o.cache_bytes = s.partition_bytes > 0 ? s.partition_bytes : default_partition_bytes();
      o.granularity = hints.granularity;
      o.bisector = hints.bisector;
      return partition_cache_fit(host, o, hints.coords).thread_perm;
    }
    default:
      throw Error(std::string("reorder_threads: '") + to_string(s.reorder) +
                  "' is not planned from the pattern");
  }
}

}  // namespace mdremap::remap

#include "compare/measure.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "mdremap/fenced_ms.hpp"
#include "mdremap/median.hpp"
#include "mdremap/remap/gather_reduce.hpp"
#include "mdremap/remap/registry.hpp"

namespace mdremap::compare {

namespace {

template <class C>
struct PosX {
  KOKKOS_INLINE_FUNCTION double operator()(const Vec4<C>& v) const { return double(v.x); }
};

template <class C>
GatherReduceResult gather_reduce_t(const remap::PatternView& pv, Kokkos::View<const Vec4<C>*> x,
                                   const std::string& mode, remap::RemapOptions o, int reps) {
  using T = Vec4<C>;
  o.reference_patterns = 1;
  o.writes_through_pattern = false;
  o.kernel = "the gather-reduce kernel";
  const remap::IrregularPattern host = remap::host_pattern(pv, sizeof(T));
  auto run = [&](const std::string& name, GatherReduceResult& res) {
    auto s = remap::make_strategy<T>(name, o);
    s->plan(pv, &host);
    Kokkos::View<double*> out("gather_reduce_out", pv.threads);
    const remap::GatherReduceBody<T, PosX<C>> body{out, PosX<C>{}};
    std::vector<double> rm, cm, pm;
    remap::Sums2 sums;
    for (int r = 0; r < std::max(1, reps); ++r) {
      s->set_data(x, true);
      rm.push_back(fenced_ms([&] { s->remap_now(); }));
      cm.push_back(fenced_ms([&] { remap::compute_only(*s, body, false, sums); }));
      s->set_data(x, true);
      pm.push_back(fenced_ms([&] { remap::execute(*s, body, false, sums); }));
    }
    res.timing.remap_ms = median(rm);
    res.timing.compute_ms = median(cm);
    res.timing.pipelined_ms = median(pm);
    res.stats.report = s->report();
    res.stats.tx = s->model_transactions(host);
    res.stats.all = s->model_breakdown(host);
    res.stats.have_tx = true;
    // Outputs back to the old thread order (padding runs threads regrouped).
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    std::vector<double> v(h.data(), h.data() + h.extent(0));
    const remap::ThreadPermutation& perm = s->thread_perm();
    if (!perm.empty()) {
      std::vector<double> back(v.size());
      for (std::size_t nt = 0; nt < v.size(); ++nt) back[perm[nt]] = v[nt];
      v.swap(back);
    }
    return v;
  };
  GatherReduceResult ref, res;
  const std::vector<double> a = run("gather", ref);
  const std::vector<double> b = run(mode, res);
  double err = 0, scale = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    err = std::max(err, std::abs(a[k] - b[k]));
    scale = std::max(scale, std::abs(a[k]));
    res.checksum += b[k];
  }
  res.max_rel_err = scale > 0 ? err / scale : err;
  return res;
}

}  // namespace

RemapTiming measure_phases(md::ForceProbe& probe, int reps) {
  std::vector<double> rm, cm, pm, ov;
  RemapTiming tm;
  for (int r = 0; r < std::max(1, reps); ++r) {
    rm.push_back(fenced_ms([&] { probe.probe_remap(); }));
    cm.push_back(fenced_ms([&] { probe.probe_compute(); }));
    probe.set_pipeline_timing(true);
    pm.push_back(fenced_ms([&] { probe.probe_execute(); }));
    probe.set_pipeline_timing(false);
    const remap::PipelineTimeline tl = probe.pipeline_timeline();
    if (!tl.remaps.empty()) {
      ov.push_back(tl.overlap());
      tm.timeline = tl;
    }
  }
  tm.remap_ms = median(rm);
  tm.compute_ms = median(cm);
  tm.pipelined_ms = median(pm);
  tm.overlap = ov.empty() ? -1.0 : median(ov);
  tm.streams_distinct = probe.pipeline_streams_distinct();
  return tm;
}

GatherReduceResult gather_reduce(const md::ForcePattern& fp, const std::string& mode,
                                 remap::RemapOptions opt, int reps) {
  if (fp.pattern.stride_t != 1)
    throw Error("gather-reduce: needs the full, column-major neighbour list");
  if (fp.xd.data()) return gather_reduce_t<double>(fp.pattern, fp.xd, mode, opt, reps);
  return gather_reduce_t<float>(fp.pattern, fp.xf, mode, opt, reps);
}

}  // namespace mdremap::compare

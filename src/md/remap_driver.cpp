#include "md/remap_driver.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "mdremap/error.hpp"
#include "mdremap/remap/clustering.hpp"
#include "mdremap/remap/partition.hpp"
#include "remap/gather_reduce.hpp"
#include "remap/registry.hpp"

namespace mdremap::md {

namespace {

remap::PatternView pattern_of(const neighbor::NeighborList& list, std::int64_t data_count) {
  remap::PatternView pv;
  pv.index = list.neighbors;
  pv.len = list.counts;
  pv.threads = list.n;
  pv.rows = list.max_count;
  pv.stride_j = list.stride_j;
  pv.stride_t = list.stride_i;
  pv.data_count = data_count;
  return pv;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

}  // namespace

remap::RemapOptions remap_options(const MdParams& p) {
  remap::RemapOptions o;
  o.chunks = p.remap_chunks;
  o.streams = p.remap_streams;
  o.dup_fraction = p.dup_fraction;
  o.cache = p.remap_cache;
  o.path = p.gather_path == "global"    ? remap::GatherPath::Global
           : p.gather_path == "texture" ? remap::GatherPath::Texture
                                        : remap::GatherPath::ReadOnly;
  o.block_threads = p.remap_block;
  o.smem_bytes = p.smem_bytes;
  o.profile_steps = p.profile_steps;
  o.reference_patterns = LJFullBody<double, double>::kReferencePatterns;
  o.kernel =
      "the MD force kernel (it reads pos[i] and writes f[i] besides the gather "
      "pos[neighbors[j][i]])";
  return o;
}

template <class C, class A>
RemapForce<C, A>::RemapForce(const MdParams& p, const LJTable<C>& lj)
    : lj_(lj), s_(remap::make_strategy<T>(p.remap, remap_options(p))) {}

template <class C, class A>
RemapForce<C, A>::~RemapForce() = default;

template <class C, class A>
std::string RemapForce<C, A>::name() const {
  return s_->name();
}

template <class C, class A>
void RemapForce<C, A>::plan(const neighbor::NeighborList& list, std::int64_t data_count) {
  if (list.half || !list.column_major)
    throw Error("remap: the strategies need the full, column-major neighbour list");
  pv_ = pattern_of(list, data_count);
  if (s_->needs_host_pattern()) {
    const remap::IrregularPattern host = remap::host_pattern(pv_, sizeof(T));
    s_->plan(pv_, &host);
  } else {
    s_->plan(pv_, nullptr);
  }
}

template <class C, class A>
ForceResult RemapForce<C, A>::compute(Kokkos::View<const T*> xall, Kokkos::View<A* [3]> f,
                                      bool ev) {
  // Positions move every step: the remap cache is invalidated (seed 000 §5.2).
  s_->set_data(xall, true);
  const LJFullBody<C, A> body{xall, f, lj_};
  remap::Sums2 sums;
  remap::visit(*s_, [&](auto& s) { s.execute(body, ev, sums); });
  ForceResult r;
  r.e_pair = sums.s0;
  r.virial = sums.s1;
  return r;
}

template <class C, class A>
RemapStats RemapForce<C, A>::stats(bool with_transactions) {
  RemapStats st;
  st.report = s_->report();
  if (with_transactions && pv_.threads > 0) {
    const remap::IrregularPattern host = remap::host_pattern(pv_, sizeof(T));
    st.tx = s_->model_transactions(host);
    st.have_tx = true;
  }
  return st;
}

template <class C, class A>
RemapTiming RemapForce<C, A>::measure(Kokkos::View<const T*> xall, Kokkos::View<A* [3]> f,
                                      int reps) {
  std::vector<double> rm, cm, pm;
  const LJFullBody<C, A> body{xall, f, lj_};
  remap::Sums2 sums;
  for (int r = 0; r < reps; ++r) {
    s_->set_data(xall, true);
    Kokkos::fence();
    Kokkos::Timer t;
    s_->remap_now();
    Kokkos::fence();
    rm.push_back(remap::ms_since(t));
    t.reset();
    remap::visit(*s_, [&](auto& s) { s.compute_only(body, false, sums); });
    Kokkos::fence();
    cm.push_back(remap::ms_since(t));
    s_->set_data(xall, true);
    Kokkos::fence();
    t.reset();
    remap::visit(*s_, [&](auto& s) { s.execute(body, false, sums); });
    Kokkos::fence();
    pm.push_back(remap::ms_since(t));
  }
  RemapTiming tm;
  tm.remap_ms = median(rm);
  tm.compute_ms = median(cm);
  tm.pipelined_ms = median(pm);
  // Host backends run every kernel to completion in order: nothing can overlap there, and the
  // formula would only measure noise. A remap too short to time has nothing to hide either.
  if (remap::ChunkPipeline::kAsync && tm.remap_ms > 1e-3 && tm.remap_ms > 0.01 * tm.compute_ms)
    tm.overlap =
        std::clamp((tm.remap_ms + tm.compute_ms - tm.pipelined_ms) / tm.remap_ms, 0.0, 1.0);
  return tm;
}

template <class C>
Kokkos::View<std::int64_t*> reorder_permutation(const MdParams& p,
                                                const neighbor::NeighborList& list,
                                                std::int64_t data_count,
                                                Kokkos::View<const Vec4<C>*> xlocal) {
  const remap::IrregularPattern host =
      remap::host_pattern(pattern_of(list, data_count), sizeof(Vec4<C>));
  remap::ThreadPermutation perm;
  if (p.reorder == "labelprop") {
    // seed 001 §3.4: clusters of about one thread block.
    remap::LabelPropagationOptions o;
    o.cluster_threads = p.remap_block;
    perm = remap::LabelPropagationClustering(o).cluster(host).thread_perm;
  } else if (p.reorder == "partition") {
    // seed 002 Algorithm 1 with k-d tiling on the atom positions.
    auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), xlocal);
    std::vector<float> coords(3 * host.threads);
    for (std::int64_t t = 0; t < host.threads; ++t) {
      coords[3 * t] = static_cast<float>(hx(t).x);
      coords[3 * t + 1] = static_cast<float>(hx(t).y);
      coords[3 * t + 2] = static_cast<float>(hx(t).z);
    }
    remap::PartitionOptions o;
    o.cache_bytes = p.partition_bytes;
    perm = remap::partition_cache_fit(host, o, coords).thread_perm;
  } else {
    throw Error("reorder_permutation: '" + p.reorder + "' is not a pattern-based reordering");
  }
  Kokkos::View<std::int64_t*> d("reorder_perm", perm.size());
  auto hd = Kokkos::create_mirror_view(d);
  for (std::size_t k = 0; k < perm.size(); ++k) hd(k) = perm[k];
  Kokkos::deep_copy(d, hd);
  return d;
}

namespace {
template <class C>
struct PosX {
  KOKKOS_INLINE_FUNCTION double operator()(const Vec4<C>& v) const { return double(v.x); }
};
}  // namespace

template <class C>
GatherReduceResult gather_reduce(const MdParams& p, const std::string& mode,
                                 const neighbor::NeighborList& list, std::int64_t data_count,
                                 Kokkos::View<const Vec4<C>*> xall, int reps) {
  using T = Vec4<C>;
  remap::RemapOptions o = remap_options(p);
  o.reference_patterns = 1;
  o.kernel = "the gather-reduce kernel";
  const remap::PatternView pv = pattern_of(list, data_count);
  const remap::IrregularPattern host = remap::host_pattern(pv, sizeof(T));
  auto run = [&](const std::string& name, Kokkos::View<double*> out, GatherReduceResult& res) {
    auto s = remap::make_strategy<T>(name, o);
    s->plan(pv, &host);
    const remap::GatherReduceBody<T, PosX<C>> body{out, PosX<C>{}};
    std::vector<double> rm, cm, pm;
    remap::Sums2 sums;
    for (int r = 0; r < std::max(1, reps); ++r) {
      s->set_data(xall, true);
      Kokkos::fence();
      Kokkos::Timer t;
      s->remap_now();
      Kokkos::fence();
      rm.push_back(remap::ms_since(t));
      t.reset();
      remap::visit(*s, [&](auto& st) { st.compute_only(body, false, sums); });
      Kokkos::fence();
      cm.push_back(remap::ms_since(t));
      s->set_data(xall, true);
      Kokkos::fence();
      t.reset();
      remap::visit(*s, [&](auto& st) { st.execute(body, false, sums); });
      Kokkos::fence();
      pm.push_back(remap::ms_since(t));
    }
    res.timing.remap_ms = median(rm);
    res.timing.compute_ms = median(cm);
    res.timing.pipelined_ms = median(pm);
    res.stats.report = s->report();
    res.stats.tx = s->model_transactions(host);
    res.stats.have_tx = true;
    // Outputs back to the old thread order (padding runs threads regrouped).
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    std::vector<double> v(h.data(), h.data() + h.extent(0));
    if (auto* pad = dynamic_cast<remap::PaddingStrategy<T>*>(s.get())) {
      std::vector<double> back(v.size());
      for (std::size_t nt = 0; nt < v.size(); ++nt) back[pad->thread_perm()[nt]] = v[nt];
      v.swap(back);
    }
    return v;
  };
  GatherReduceResult ref, res;
  Kokkos::View<double*> out0("gather_reduce_ref", pv.threads), out1("gather_reduce", pv.threads);
  const std::vector<double> a = run("gather", out0, ref);
  const std::vector<double> b = run(mode, out1, res);
  double err = 0, scale = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    err = std::max(err, std::abs(a[k] - b[k]));
    scale = std::max(scale, std::abs(a[k]));
    res.checksum += b[k];
  }
  res.max_rel_err = scale > 0 ? err / scale : err;
  return res;
}

template GatherReduceResult gather_reduce<double>(const MdParams&, const std::string&,
                                                  const neighbor::NeighborList&, std::int64_t,
                                                  Kokkos::View<const Vec4<double>*>, int);
template GatherReduceResult gather_reduce<float>(const MdParams&, const std::string&,
                                                 const neighbor::NeighborList&, std::int64_t,
                                                 Kokkos::View<const Vec4<float>*>, int);

template class RemapForce<double, double>;
template class RemapForce<float, double>;
template class RemapForce<float, float>;
template Kokkos::View<std::int64_t*> reorder_permutation<double>(const MdParams&,
                                                                 const neighbor::NeighborList&,
                                                                 std::int64_t,
                                                                 Kokkos::View<const Vec4<double>*>);
template Kokkos::View<std::int64_t*> reorder_permutation<float>(const MdParams&,
                                                                const neighbor::NeighborList&,
                                                                std::int64_t,
                                                                Kokkos::View<const Vec4<float>*>);

}  // namespace mdremap::md

#include "mdremap/remap/memory_selection.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <string>

#include "mdremap/error.hpp"
#include "mdremap/remap/pattern_ops.hpp"
#include "mdremap/remap/impl/sharing.hpp"
#include "mdremap/remap/transactions.hpp"

#include "omp.hpp"

namespace mdremap::remap {

namespace {

constexpr std::int64_t kSegment = 128;  // the segment count_transactions reports as seg128

std::string fmt_bytes(std::int64_t b) {
  char buf[32];
  if (b >= (1 << 20))
    std::snprintf(buf, sizeof buf, "%.1f MiB", b / 1048576.0);
  else if (b >= 1024)
    std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024.0);
  else
    std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(b));
  return buf;
}

std::string fmt2(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

const char* use_name(ReferenceUse u) {
  switch (u) {
    case ReferenceUse::Read:
      return "read";
    case ReferenceUse::Write:
      return "write";
    case ReferenceUse::ReadWrite:
      return "read-write";
  }
  return "?";
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// Segments of `seg` bytes touched by element e of `elem` bytes.
std::int64_t element_segments(std::int64_t e, std::int64_t elem, std::int64_t seg) {
  return (e * elem + elem - 1) / seg - e * elem / seg + 1;
}

// One reference, checked, with its index materialised where it is not uniform.
struct Ref {
  const ReferenceDesc* d = nullptr;
  std::string name;                     // label for messages and output
  IrregularPattern own;                 // ThreadIndexed: index[t] = shift + stride * t
  const IrregularPattern* p = nullptr;  // the pattern read (own or d->pattern); null for Uniform
};

[[noreturn]] void fail(const Ref& r, const std::string& what) {
  throw Error("memory selection: reference '" + r.name + "' (array '" + r.d->array + "'): " + what);
}

void check_and_build(Ref& r, const MemorySelectionOptions& opt) {
  const ReferenceDesc& d = *r.d;
  const std::int64_t T = opt.threads;
  if (d.array.empty()) fail(r, "the array needs a name");
  if (d.elements <= 0 || d.elem_bytes <= 0)
    fail(r, "elements (" + std::to_string(d.elements) + ") and elem_bytes (" +
                std::to_string(d.elem_bytes) + ") must be > 0");
  switch (d.kind) {
    case AccessKind::ThreadIndexed: {
      if (d.stride == 0) fail(r, "stride 0 reads one element in every thread: describe it Uniform");
      if (d.elements > std::numeric_limits<std::int32_t>::max())
        fail(r, "more than 2^31 elements are not supported");
      const std::int64_t lo = d.shift + std::min<std::int64_t>(0, d.stride * (T - 1));
      const std::int64_t hi = d.shift + std::max<std::int64_t>(0, d.stride * (T - 1));
      if (T > 0 && (lo < 0 || hi >= d.elements))
        fail(r, "thread-indexed elements " + std::to_string(lo) + " .. " + std::to_string(hi) +
                    " fall outside [0, " + std::to_string(d.elements) + ")");
      r.own.threads = T;
      r.own.rows = T > 0 ? 1 : 0;
      r.own.data_count = d.elements;
      r.own.elem_bytes = d.elem_bytes;
      r.own.len.assign(T, 1);
      r.own.index.resize(T);
      for (std::int64_t t = 0; t < T; ++t)
        r.own.index[t] = static_cast<std::int32_t>(d.shift + d.stride * t);
      r.p = &r.own;
      break;
    }
    case AccessKind::Uniform:
      if (d.count <= 0 || d.first < 0 || d.first + d.count > d.elements)
        fail(r, "uniform elements " + std::to_string(d.first) + " .. +" + std::to_string(d.count) +
                    " must lie in [0, " + std::to_string(d.elements) + ") and count must be > 0");
      break;
    case AccessKind::Irregular: {
      if (d.pattern == nullptr) fail(r, "an irregular reference needs its index (pattern)");
      const IrregularPattern& p = *d.pattern;
      if (p.threads != T)
        fail(r, "the pattern has " + std::to_string(p.threads) + " threads, the kernel " +
                    std::to_string(T));
      if (p.data_count != d.elements || p.elem_bytes != d.elem_bytes)
        fail(r, "the pattern describes " + std::to_string(p.data_count) + " elements of " +
                    std::to_string(p.elem_bytes) + " B, the array " + std::to_string(d.elements) +
                    " of " + std::to_string(d.elem_bytes) + " B");
      try {
        validate_pattern(p);
      } catch (const Error& e) {
        fail(r, e.what());
      }
      r.p = &p;
      break;
    }
  }
}

std::string pattern_name(const ReferenceDesc& d) {
  switch (d.kind) {
    case AccessKind::ThreadIndexed: {
      std::string s;
      if (d.stride == 1)
        s = "linear";
      else if (d.stride == -1)
        s = "reverse linear";
      else
        s = "non-unit stride " + std::to_string(d.stride);
      if (d.shift != 0 && d.stride > 0) s += ", shifted " + std::to_string(d.shift);
      return s;
    }
    case AccessKind::Uniform:
      return "same address (uniform, " + std::to_string(d.count) + " per thread)";
    case AccessKind::Irregular:
      return d.pattern != nullptr && d.pattern->csr() ? "random (index array, CSR rows)"
                                                      : "random (index array)";
  }
  return "?";
}

// Per warp-load over the real indices: distinct elements, the minimum segments they need, and
// whether they are one element (seed 003 §4.2.1-4.2.2 made concrete).
struct WarpStats {
  std::int64_t loads = 0, distinct = 0, min_segments = 0, same = 0;
};

WarpStats warp_stats(const IrregularPattern& p, int warp) {
  const std::int64_t T = p.threads, E = p.elem_bytes;
  const std::int64_t nwarps = ceil_div(T, warp);
  std::int64_t loads = 0, distinct = 0, min_segments = 0, same = 0;
  MDREMAP_OMP(omp parallel reduction(+ : loads, distinct, min_segments, same)) {
    std::vector<std::int32_t> lanes;
    lanes.reserve(warp);
    MDREMAP_OMP(omp for schedule(dynamic, 256))
    for (std::int64_t w = 0; w < nwarps; ++w) {
      const std::int64_t t0 = w * warp, t1 = std::min(T, t0 + warp);
      int max_len = 0;
      for (std::int64_t t = t0; t < t1; ++t) max_len = std::max(max_len, p.len[t]);
      for (int j = 0; j < max_len; ++j) {
        lanes.clear();
        for (std::int64_t t = t0; t < t1; ++t)
          if (j < p.len[t]) lanes.push_back(p.at(j, t));
        std::sort(lanes.begin(), lanes.end());
        const std::int64_t d = std::unique(lanes.begin(), lanes.end()) - lanes.begin();
        ++loads;
        distinct += d;
        min_segments += ceil_div(d * E, kSegment);
        same += d == 1;
      }
    }
  }
  return {loads, distinct, min_segments, same};
}

// Temporal reuse of every instance of one array (see the header): per block of B threads, the
// in-block accesses, by all the array's instances, of the elements each instance touches,
// summed with those elements' count over blocks. Returns accesses / elements per instance.
// Works on the block's sorted accesses, so memory stays O(block accesses), not O(array).
std::vector<double> block_reuse(const std::vector<const Ref*>& inst, std::int64_t T,
                                std::int64_t B) {
  const std::size_t K = inst.size();
  const std::int64_t nblocks = ceil_div(T, B);
  std::vector<std::int64_t> acc_total(K, 0), elem_total(K, 0);
  MDREMAP_OMP(omp parallel) {
    std::vector<std::int32_t> all, mine;
    std::vector<std::int64_t> acc(K, 0), elems(K, 0);
    MDREMAP_OMP(omp for schedule(dynamic, 16))
    for (std::int64_t b = 0; b < nblocks; ++b) {
      const std::int64_t t0 = b * B, t1 = std::min(T, t0 + B), nb = t1 - t0;
      auto collect = [&](const IrregularPattern& p, std::vector<std::int32_t>& v) {
        for (std::int64_t t = t0; t < t1; ++t)
          for (int j = 0; j < p.len[t]; ++j) v.push_back(p.at(j, t));
      };
      // Every access of the block by the instances with an index, sorted.
      all.clear();
      for (const Ref* r : inst)
        if (r->p != nullptr) collect(*r->p, all);
      std::sort(all.begin(), all.end());
      auto indexed_hits = [&](std::int64_t lo, std::int64_t hi) {  // accesses to [lo, hi)
        return static_cast<std::int64_t>(std::lower_bound(all.begin(), all.end(), hi) -
                                         std::lower_bound(all.begin(), all.end(), lo));
      };
      // Accesses of [lo, hi) by the uniform instances: each of the nb threads reads its range once.
      auto uniform_hits = [&](std::int64_t lo, std::int64_t hi) {
        std::int64_t c = 0;
        for (const Ref* u : inst)
          if (u->p == nullptr)
            c += nb * std::max<std::int64_t>(
                          0, std::min(hi, u->d->first + u->d->count) - std::max(lo, u->d->first));
        return c;
      };
      for (std::size_t k = 0; k < K; ++k) {
        const Ref& r = *inst[k];
        if (r.p == nullptr) {
          const std::int64_t lo = r.d->first, hi = r.d->first + r.d->count;
          elems[k] += r.d->count;
          acc[k] += indexed_hits(lo, hi) + uniform_hits(lo, hi);
          continue;
        }
        mine.clear();
        collect(*r.p, mine);
        std::sort(mine.begin(), mine.end());
        mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
        elems[k] += static_cast<std::int64_t>(mine.size());
        for (std::int32_t e : mine) acc[k] += indexed_hits(e, e + 1) + uniform_hits(e, e + 1);
      }
    }
    MDREMAP_OMP(omp critical)
    for (std::size_t k = 0; k < K; ++k) {
      acc_total[k] += acc[k];
      elem_total[k] += elems[k];
    }
  }
  std::vector<double> reuse(K, 0.0);
  for (std::size_t k = 0; k < K; ++k)
    reuse[k] = elem_total[k] > 0 ? static_cast<double>(acc_total[k]) / elem_total[k] : 0.0;
  return reuse;
}

// seed 003 Algorithm 3, one instance.
void algorithm3(ReferenceClass& c, bool read_only) {
  if (read_only) {
    if (c.small && c.same_address) {
      c.space = MemorySpace::Constant;
      c.rule = "line 4: read-only, small, same address";
    } else if (c.chunkable && c.temporal_reuse) {
      c.space = MemorySpace::Shared;
      c.rule = "line 7: read-only, chunkable, temporal reuse";
    } else if (c.coalesced && !c.temporal_reuse) {
      c.space = MemorySpace::Global;
      c.rule = "line 10: read-only, coalesced, no temporal reuse";
    } else {
      c.space = MemorySpace::Texture;
      c.rule = c.coalesced ? "line 13: read-only, coalesced but reused and not chunkable"
                           : "line 13: read-only, not coalesced";
    }
  } else if (c.chunkable && c.temporal_reuse) {
    c.space = MemorySpace::Shared;
    c.rule = "line 18: read-write, chunkable, temporal reuse";
  } else {
    c.space = MemorySpace::Global;
    c.rule = c.temporal_reuse ? "line 21: read-write, reused but not chunkable"
                              : "line 21: read-write, no temporal reuse";
  }
}

}  // namespace

const char* memory_space_name(MemorySpace s) {
  switch (s) {
    case MemorySpace::Global:
      return "global";
    case MemorySpace::Texture:
      return "texture";
    case MemorySpace::Constant:
      return "constant";
    case MemorySpace::Shared:
      return "shared";
  }
  return "?";
}

MemorySelection select_memory(const std::vector<ReferenceDesc>& refs,
                              const MemorySelectionOptions& opt) {
  if (opt.threads < 0 || opt.warp_size <= 0 || opt.block_threads <= 0 || opt.shared_bytes < 0 ||
      opt.constant_bytes < 0 || !(opt.min_reuse > 0) || !(opt.coalesce_tolerance >= 0))
    throw Error(
        "memory selection: threads, shared_bytes, constant_bytes, coalesce_tolerance must be >= "
        "0 and warp_size, block_threads, min_reuse > 0");
  const std::int64_t T = opt.threads;

  // Check every reference; instances of one array must agree on its size.
  std::vector<Ref> rs(refs.size());
  std::map<std::string, std::size_t> first_of;
  MemorySelection out;
  for (std::size_t k = 0; k < refs.size(); ++k) {
    Ref& r = rs[k];
    r.d = &refs[k];
    r.name = refs[k].label.empty() ? refs[k].array + "#" + std::to_string(k) : refs[k].label;
    check_and_build(r, opt);
    auto [it, fresh] = first_of.emplace(refs[k].array, out.arrays.size());
    if (fresh) {
      ArrayChoice a;
      a.array = refs[k].array;
      a.bytes = refs[k].elements * refs[k].elem_bytes;
      out.arrays.push_back(a);
    } else {
      const ReferenceDesc& f = refs[out.arrays[it->second].instances.front()];
      if (f.elements != refs[k].elements || f.elem_bytes != refs[k].elem_bytes)
        fail(r, "another instance describes the array as " + std::to_string(f.elements) +
                    " elements of " + std::to_string(f.elem_bytes) + " B");
    }
    ArrayChoice& a = out.arrays[it->second];
    a.instances.push_back(k);
    if (refs[k].use != ReferenceUse::Read) a.read_only = false;
  }

  // Per-instance properties measured on the indices.
  out.references.resize(refs.size());
  for (std::size_t k = 0; k < refs.size(); ++k) {
    const ReferenceDesc& d = refs[k];
    const Ref& r = rs[k];
    ReferenceClass& c = out.references[k];
    c.array = d.array;
    c.label = r.name;
    c.use = d.use;
    c.kind = d.kind;
    c.pattern = pattern_name(d);
    const std::int64_t E = d.elem_bytes;
    if (r.p != nullptr) {
      const TransactionCount tc = count_transactions(*r.p, opt.warp_size);
      const WarpStats ws = warp_stats(*r.p, opt.warp_size);
      c.warp_loads = tc.loads;
      if (tc.loads > 0) {
        c.segments_per_load = static_cast<double>(tc.seg128) / tc.loads;
        c.min_segments_per_load = static_cast<double>(ws.min_segments) / ws.loads;
        c.distinct_per_load = static_cast<double>(ws.distinct) / ws.loads;
      }
      c.coalesced = tc.seg128 <= (1.0 + opt.coalesce_tolerance) * ws.min_segments;
      c.same_address = ws.loads > 0 && ws.same == ws.loads;
      std::int64_t max_set = 0;
      for (std::int64_t s : block_working_sets(*r.p, opt.block_threads))
        max_set = std::max(max_set, s);
      c.max_block_set_bytes = max_set * E;
    } else {
      // Uniform: every warp-load reads one element, the same one in every warp.
      std::int64_t segs = 0;
      for (std::int64_t e = d.first; e < d.first + d.count; ++e)
        segs += element_segments(e, E, kSegment);
      const std::int64_t nwarps = ceil_div(T, opt.warp_size);
      c.warp_loads = nwarps * d.count;
      if (c.warp_loads > 0) {
        c.segments_per_load = static_cast<double>(segs) / d.count;
        c.min_segments_per_load = static_cast<double>(ceil_div(E, kSegment));
        c.distinct_per_load = 1.0;
      }
      c.coalesced = segs <= (1.0 + opt.coalesce_tolerance) * d.count * ceil_div(E, kSegment);
      c.same_address = c.warp_loads > 0;
      c.max_block_set_bytes = T > 0 ? d.count * E : 0;
    }
    c.chunkable = c.max_block_set_bytes <= opt.shared_bytes;
    c.array_bytes = d.elements * E;
    c.small = c.array_bytes <= opt.constant_bytes;
    c.min_reuse = opt.min_reuse;
    c.shared_bytes = opt.shared_bytes;
    c.constant_bytes = opt.constant_bytes;
  }

  // Temporal reuse per array (all its instances count), then Algorithm 3 per instance.
  for (ArrayChoice& a : out.arrays) {
    std::vector<const Ref*> inst;
    for (std::size_t k : a.instances) inst.push_back(&rs[k]);
    const std::vector<double> reuse = block_reuse(inst, T, opt.block_threads);
    for (std::size_t i = 0; i < a.instances.size(); ++i) {
      ReferenceClass& c = out.references[a.instances[i]];
      c.reuse = reuse[i];
      c.temporal_reuse = reuse[i] >= opt.min_reuse;
      algorithm3(c, a.read_only);
      a.candidates.push_back(c.space);
    }
    // Secondary criteria (seed 003 §4.2.5): the first of the ordered list any instance chose.
    const std::vector<MemorySpace> order =
        a.read_only ? std::vector<MemorySpace>{MemorySpace::Texture, MemorySpace::Global,
                                               MemorySpace::Shared, MemorySpace::Constant}
                    : std::vector<MemorySpace>{MemorySpace::Global, MemorySpace::Shared};
    bool all_same = true;
    for (MemorySpace s : a.candidates) all_same = all_same && s == a.candidates.front();
    for (MemorySpace s : order)
      if (std::find(a.candidates.begin(), a.candidates.end(), s) != a.candidates.end()) {
        a.space = s;
        break;
      }
    if (a.instances.size() == 1)
      a.reason = "Algorithm 3, " + out.references[a.instances.front()].rule;
    else if (all_same)
      a.reason = "every instance chose " + std::string(memory_space_name(a.space));
    else
      a.reason = std::string("instances disagree: secondary criteria for ") +
                 (a.read_only ? "read-only data (texture, global, shared, constant)"
                              : "read-write data (global, shared)") +
                 " take " + memory_space_name(a.space) + " (seed 003 §4.2.5)";
  }
  return out;
}

std::string ReferenceClass::line() const {
  return label + ": " + use_name(use) + ", " + pattern + "; " + fmt2(segments_per_load) +
         " segments/warp-load vs min " + fmt2(min_segments_per_load) + " (" +
         (coalesced ? "coalesced" : "not coalesced") + "); same address " +
         (same_address ? "yes" : "no") + "; reuse " + fmt2(reuse) + " per element in a block (" +
         (temporal_reuse ? ">= " : "< ") + fmt2(min_reuse) + ": " +
         (temporal_reuse ? "temporal reuse" : "no reuse") + "); block set " +
         fmt_bytes(max_block_set_bytes) + " vs shared " + fmt_bytes(shared_bytes) + " (" +
         (chunkable ? "chunkable" : "not chunkable") + "); array " + fmt_bytes(array_bytes) +
         " vs constant " + fmt_bytes(constant_bytes) + " (" + (small ? "small" : "not small") +
         ") => " + memory_space_name(space) + " (Algorithm 3 " + rule + ")";
}

std::string ArrayChoice::line() const {
  std::string s = array + " (" + (read_only ? "read-only" : "read-write") + ", " +
                  fmt_bytes(bytes) + ", " + std::to_string(instances.size()) +
                  (instances.size() == 1 ? " instance" : " instances") + " {";
  for (std::size_t i = 0; i < candidates.size(); ++i)
    s += (i ? ", " : "") + std::string(memory_space_name(candidates[i]));
  return s + "}) => " + memory_space_name(space) + ": " + reason;
}

const ArrayChoice& MemorySelection::array(const std::string& name) const {
  std::string known;
  for (const ArrayChoice& a : arrays) {
    if (a.array == name) return a;
    known += (known.empty() ? "" : ", ") + a.array;
  }
  throw Error("memory selection: no array '" + name + "' among the references (known: " +
              (known.empty() ? std::string("none") : known) + ")");
}

std::string MemorySelection::text() const {
  std::string s;
  for (const ReferenceClass& c : references) s += "memory: " + c.line() + "\n";
  for (const ArrayChoice& a : arrays) s += "memory: " + a.line() + "\n";
  return s;
}

IrregularPattern csr_row_pattern(const std::vector<std::int64_t>& offset, int elem_bytes) {
  if (offset.empty() || offset.front() != 0 || elem_bytes <= 0)
    throw Error("csr_row_pattern: offsets must start at 0 (threads+1 entries), elem_bytes > 0");
  if (offset.back() > std::numeric_limits<std::int32_t>::max())
    throw Error("csr_row_pattern: more than 2^31 entries are not supported");
  IrregularPattern p;
  p.threads = static_cast<std::int64_t>(offset.size()) - 1;
  p.data_count = offset.back();
  p.elem_bytes = elem_bytes;
  p.offset = offset;
  p.len.resize(p.threads);
  for (std::int64_t t = 0; t < p.threads; ++t) {
    const std::int64_t n = offset[t + 1] - offset[t];
    if (n < 0 || n > std::numeric_limits<std::int32_t>::max())
      throw Error("csr_row_pattern: offsets must be non-decreasing (row " + std::to_string(t) +
                  ")");
    p.len[t] = static_cast<std::int32_t>(n);
    p.rows = std::max(p.rows, p.len[t]);
  }
  p.index.resize(p.data_count);
  for (std::int64_t k = 0; k < p.data_count; ++k) p.index[k] = static_cast<std::int32_t>(k);
  return p;
}

// The mapping of seed 003's spaces onto what the runtime offers (gather paths, the sharing
// strategy, by-value arguments). Never a silent fallback: what cannot be honoured is said.
GatherPathDecision decide_gather_path(const ArrayChoice& a, const MemoryBackend& backend,
                                      int elem_bytes) {
  GatherPathDecision d;
  d.space = a.space;
  const std::string head =
      a.array + ": Algorithm 3 chose " + memory_space_name(a.space) + " on " + backend.name + "; ";
  // The read-only cache is not coherent with writes of the same kernel: written data go global.
  d.path = a.read_only ? GatherPath::ReadOnly : GatherPath::Global;
  if (!backend.memory_spaces) {
    d.honoured = false;
    d.explanation = head +
                    "not honoured: this backend has one memory path (plain loads through "
                    "the CPU caches; every gather path compiles to the same loads), so the "
                    "choice is only reported; gather path " +
                    gather_path_name(d.path) +
                    (a.read_only ? " (the layer's default)" : " (written data)");
    return d;
  }
  switch (a.space) {
    case MemorySpace::Global:
      d.path = GatherPath::Global;
      d.honoured = true;
      d.explanation = head + "gather path global (plain global loads)";
      break;
    case MemorySpace::Texture:
      // seed 003 §4.2.3 wants a cached, read-only path that tolerates non-coalesced access. On
      // Kepler and later the read-only data cache is the texture cache, reached by LDG.E.CONSTANT
      // without the texture unit's addressing, for any element size and with no binding.
      d.honoured = true;
      if (backend.texture_objects && (elem_bytes == 16 || elem_bytes == 32)) {
        // The same cache through both of the L1's data pipes: scattered 16- and 32-byte reads by
        // LDG alone can be bound by the load/store pipe while the texture pipe idles.
        d.path = GatherPath::Split;
        d.explanation = head +
                        "gather path split: the read-only (texture) cache through both of the "
                        "L1's data pipes, __ldg and texture fetches sharing each " +
                        std::to_string(elem_bytes) + "-byte element's loads";
        break;
      }
      d.path = GatherPath::ReadOnly;
      d.explanation = head +
                      "gather path readonly: the read-only data cache (LDG.E.CONSTANT) is the "
                      "texture cache on Kepler and later, without texture binding or 16-byte "
                      "texels; texture objects stay available as gather path texture";
      break;
    case MemorySpace::Constant:
      d.suggests_constant = true;
      d.honoured = true;
      d.explanation = head +
                      "no gather path serves it: pass the array by value in the kernel's "
                      "arguments (the constant bank) or in __constant__ memory; if it is gathered "
                      "anyway, gather path " +
                      gather_path_name(d.path);
      break;
    case MemorySpace::Shared:
      if (!a.read_only) {
        d.honoured = false;
        d.explanation = head +
                        "not honoured: the runtime stages only read-only data in shared memory "
                        "(remap strategy sharing); gather path global";
        break;
      }
      d.suggests_sharing = true;
      d.honoured = true;
      d.explanation = head +
                      "served by the remap strategy sharing (each block stages its working set in "
                      "shared memory), not by a gather path; under remap mode gather it reads "
                      "through gather path readonly";
      break;
  }
  return d;
}

}  // namespace mdremap::remap

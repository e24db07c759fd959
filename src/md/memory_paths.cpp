#include "md/memory_paths.hpp"

#include <Kokkos_Core.hpp>

#include "mdremap/remap/memory_backend.hpp"

namespace mdremap::md {

GatherPathChoice choose_gather_path(const remap::IrregularPattern& host, int force_bytes,
                                    int block_threads, std::int64_t shared_bytes) {
  using remap::AccessKind;
  using remap::ReferenceDesc;
  using remap::ReferenceUse;
  const std::int64_t n = host.threads;
  std::vector<ReferenceDesc> refs;
  // pos[neighbors[j][i]]: the irregular read; pos[i]: the thread's own position.
  ReferenceDesc g;
  g.array = "pos";
  g.label = "pos[neighbors[j][i]]";
  g.elements = host.data_count;
  g.elem_bytes = host.elem_bytes;
  g.kind = AccessKind::Irregular;
  g.pattern = &host;
  refs.push_back(g);
  ReferenceDesc own = g;
  own.label = "pos[i]";
  own.kind = AccessKind::ThreadIndexed;
  own.pattern = nullptr;
  refs.push_back(own);
  // f[i][d]: written once per thread; the device layout is one column per component.
  const bool columns =
      !std::is_same_v<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>;
  for (int d = 0; d < (columns ? 3 : 1); ++d) {
    ReferenceDesc f;
    f.array = "f";
    f.label = columns ? std::string("f[i][") + "xyz"[d] + "]" : "f[i]";
    f.use = ReferenceUse::Write;
    f.elements = columns ? 3 * n : n;
    f.elem_bytes = columns ? force_bytes : 3 * force_bytes;
    f.shift = columns ? d * n : 0;
    refs.push_back(f);
  }
  // The LJ coefficients of pair (type_i, type_j): one entry for a one-type system.
  ReferenceDesc lj;
  lj.array = "lj";
  lj.label = "lj(type_i, type_j)";
  lj.elements = 6;
  lj.elem_bytes = force_bytes;
  lj.kind = AccessKind::Uniform;
  lj.count = 6;
  refs.push_back(lj);

  remap::MemorySelectionOptions o;
  o.threads = n;
  o.block_threads = block_threads;
  o.shared_bytes = shared_bytes;
  const remap::MemorySelection sel = remap::select_memory(refs, o);
  const remap::GatherPathDecision d =
      remap::decide_gather_path(sel.array("pos"), remap::current_memory_backend(), host.elem_bytes);
  GatherPathChoice c;
  c.path = d.path;
  c.text = sel.text() + "memory: gather path " + remap::to_string(d.path) + ": " + d.explanation;
  return c;
}

}  // namespace mdremap::md

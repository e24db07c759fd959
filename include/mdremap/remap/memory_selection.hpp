#pragma once
// Memory selection (seed 003, Jang et al., TPDS 2011, §3-4.2.5, Algorithm 3) on real index
// arrays. The paper classifies each array instance of a loop nest from its affine subscripts
// (interthread / intrathread columns of the access matrix, §3.2) and picks global, constant,
// texture or shared memory per instance, then one space per array by secondary criteria. Here an
// app describes each reference (array instance) of its kernel, the irregular ones through their
// host index (IrregularPattern), and the model's properties are measured on the real indices:
//
//  - coalesced (§4.2.1): every warp-load touches the minimum number of 128-byte segments its
//    distinct elements need, sum over warp-loads of distinct segments (count_transactions) <=
//    (1 + coalesce_tolerance) * sum of ceil(distinct * elem_bytes / 128). The paper's condition
//    (linear, or shifted by a multiple of a half warp = the G200's 64-byte segment of 16 floats)
//    is this test for its device; 128 bytes is the L1 line a warp-load is served in since
//    compute capability 2.x (CUDA C Programming Guide, "Device Memory Accesses"). Tolerance 0
//    keeps the paper's conservative, sufficient condition.
//  - temporal reuse (§4.2.1): within each block of block_threads consecutive threads, the
//    elements this instance touches are accessed at least min_reuse times on average by all
//    instances of the array in that block. Counting the other instances is the paper's "multiple
//    appearances of the array in the source code"; counting within a block is the reuse shared
//    memory can capture (§4.2.4). min_reuse = 2: a staged element read once more than it is
//    loaded pays for its staging.
//  - same address (§4.2.2): every warp-load's active lanes read one element (what the constant
//    cache broadcasts without serialising).
//  - chunkable (§4.2.4): the largest per-block working set (block_working_sets) fits
//    shared_bytes.
//  - small (§4.2.5, Algorithm 3 line 4): the whole array fits constant_bytes (64 KB).
//
// Host-only; knows no app.
#include <cstdint>
#include <string>
#include <vector>

#include "mdremap/remap/impl/gather_path.hpp"
#include "mdremap/remap/pattern.hpp"

namespace mdremap::remap {

// The memory spaces of Algorithm 3 (seed 003 Table 1; local memory and registers are not
// selectable, §2.2).
enum class MemorySpace { Global, Texture, Constant, Shared };
const char* memory_space_name(MemorySpace s);  // "global", "texture", "constant", "shared"

// What a reference does to its array. An array is read-only when every reference reads it.
enum class ReferenceUse { Read, Write, ReadWrite };

// The interthread pattern of a reference (seed 003 §3.1-3.2), as the app knows it.
enum class AccessKind {
  ThreadIndexed,  // thread t accesses element shift + stride * t (linear, shifted, non-unit stride)
  Uniform,        // every thread reads elements first .. first + count - 1 in the same order
  Irregular,      // thread t accesses pattern->at(j, t) for j < pattern->len[t] (random)
};

struct ReferenceDesc {
  std::string array;  // the array's name; instances of one array share it (and its size)
  std::string label;  // how the kernel writes the reference ("x[col[k]]"); default array#k
  ReferenceUse use = ReferenceUse::Read;
  std::int64_t elements = 0;  // elements in the array
  int elem_bytes = 4;
  AccessKind kind = AccessKind::ThreadIndexed;
  std::int64_t shift = 0, stride = 1;  // ThreadIndexed (stride != 0; 0 is Uniform)
  std::int64_t first = 0, count = 1;   // Uniform
  // Irregular: the host copy of the index (rows-by-threads or CSR), read only during
  // select_memory; its threads, data_count and elem_bytes must match the kernel and the array.
  const IrregularPattern* pattern = nullptr;
};

struct MemorySelectionOptions {
  std::int64_t threads = 0;  // threads of the kernel (every reference's thread count)
  int warp_size = 32;
  int block_threads = 128;                  // threads per block (chunking, reuse)
  std::int64_t shared_bytes = 48 * 1024;    // shared memory a block may stage (chunkable)
  std::int64_t constant_bytes = 64 * 1024;  // constant memory (small), seed 003 §4.2.2
  double min_reuse = 2.0;                   // temporal reuse threshold (accesses per element)
  double coalesce_tolerance = 0.0;          // extra segments allowed over the minimum
};

// One reference's measured properties and Algorithm 3's space for it.
struct ReferenceClass {
  std::string array, label;
  ReferenceUse use = ReferenceUse::Read;
  AccessKind kind = AccessKind::ThreadIndexed;
  std::string pattern;               // the paper's name: linear, shifted, reverse linear, ...
  std::int64_t warp_loads = 0;       // warp-level accesses with >= 1 active lane
  double segments_per_load = 0;      // mean distinct 128-byte segments per warp-load
  double min_segments_per_load = 0;  // mean minimum for the warp-load's distinct elements
  double distinct_per_load = 0;      // mean distinct elements per warp-load
  bool coalesced = false;
  bool same_address = false;
  double reuse = 0;  // mean in-block accesses per element touched (all instances of the array)
  bool temporal_reuse = false;
  std::int64_t max_block_set_bytes = 0;  // largest per-block working set
  bool chunkable = false;
  std::int64_t array_bytes = 0;
  bool small = false;
  // The thresholds applied (from MemorySelectionOptions), so line() is self-contained.
  double min_reuse = 0;
  std::int64_t shared_bytes = 0, constant_bytes = 0;
  MemorySpace space = MemorySpace::Global;  // Algorithm 3 for this instance
  std::string rule;                         // the line of Algorithm 3 that chose it
  std::string line() const;                 // one line: class and space
};

// One array's final space (Algorithm 3 plus the secondary criteria, seed 003 §4.2.5).
struct ArrayChoice {
  std::string array;
  bool read_only = true;
  std::int64_t bytes = 0;
  std::vector<std::size_t> instances;   // indices into MemorySelection::references
  std::vector<MemorySpace> candidates;  // per instance, in reference order
  MemorySpace space = MemorySpace::Global;
  std::string reason;
  std::string line() const;  // one line: chosen space and why
};

struct MemorySelection {
  std::vector<ReferenceClass> references;  // in the order given
  std::vector<ArrayChoice> arrays;         // in order of first reference
  // Throws mdremap::Error naming the known arrays when `name` is not one of them.
  const ArrayChoice& array(const std::string& name) const;
  std::string text() const;  // every reference line, then every array line
};

// seed 003 Algorithm 3 per reference, then the secondary criteria per array. Throws
// mdremap::Error naming the reference on inconsistent input (sizes, out-of-range elements,
// a pattern whose thread count differs from opt.threads, ...).
MemorySelection select_memory(const std::vector<ReferenceDesc>& refs,
                              const MemorySelectionOptions& opt);

// The pattern of an array laid out like a CSR matrix's entries (SpMV's val[k] and col[k] for
// k in [offset[t], offset[t+1])): thread t reads elements offset[t] .. offset[t+1]-1 in order.
// Contiguous per thread, strided across a warp. offset: threads+1 non-decreasing row starts.
IrregularPattern csr_row_pattern(const std::vector<std::int64_t>& offset, int elem_bytes);

// What the backend offers. On CUDA: global loads, the read-only data cache, texture objects,
// constant memory (kernel parameters, __constant__) and shared memory (team scratch). Host
// backends have one memory path: plain loads through the CPU caches.
struct MemoryBackend {
  std::string name;              // the execution space ("Cuda", "OpenMP", "Serial")
  bool memory_spaces = false;    // distinct global / read-only / constant / shared memories
  bool texture_objects = false;  // GatherPath::Texture can run
};

// How the runtime serves an array's chosen space; never a silent fallback.
struct GatherPathDecision {
  MemorySpace space = MemorySpace::Global;  // Algorithm 3's choice for the array
  GatherPath path = GatherPath::ReadOnly;   // the gather path to run for this array
  bool suggests_sharing = false;            // space Shared: the `sharing` remap strategy serves it
  bool suggests_constant = false;           // space Constant: pass it by value / in constant memory
  bool honoured = false;    // this backend realises `space` (by path or as suggested)
  std::string explanation;  // one line, saying so when the choice cannot be honoured
};
// elem_bytes: the array's element size where the caller knows it (0: not known). On a backend
// with texture objects, a texture choice for elements of 16 or 32 bytes runs gather path split
// (the read-only cache through both of the L1's data pipes); other sizes run readonly.
GatherPathDecision decide_gather_path(const ArrayChoice& a, const MemoryBackend& backend,
                                      int elem_bytes = 0);

}  // namespace mdremap::remap

// A Kokkos Tools library that times every parallel_for/reduce/scan and deep_copy by name, with a
// device synchronisation before and after each (so the times are exclusive and serialised: use it
// to see which kernel differs between two runs, not for the runs' own speed). Built beside the
// GPU bundle (tools/gpu-run.sh) and loaded by
//
//   KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so KP_TIMER_OUT=times.txt mdremap ...
//
// It writes one line per name at exit: calls, total ms, mean us, sorted by total; fences and
// profiling regions (Kokkos::Profiling::ScopedRegion: the decomposed rebuild's migrate, borders,
// list_build, remap_plan and the step's ghost_forward) are timed without the extra
// synchronisation, allocations counted (their "ms" column is MB). Under mpirun, KP_TIMER_OUT
// with %r writes a file per rank (KP_TIMER_OUT=times-%r.txt).
// KP_TRACE=trace.txt also writes every event in order, with the host's time (ms from the
// library's start): each kernel's launch and return, fence, copy, allocation and release. With
// KP_SYNC=0 that is the host's timeline: where it waits, and what its allocations cost.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Entry {
  std::int64_t calls = 0;
  double ms = 0;
};

struct Open {
  std::string name;
  Clock::time_point start;
};

std::map<std::string, Entry>& table() {
  static std::map<std::string, Entry> t;
  return t;
}
std::vector<Open>& fences() {
  static std::vector<Open> f;
  return f;
}
std::vector<Open>& regions() {
  static std::vector<Open> r;
  return r;
}
std::vector<Open>& open_regions() {
  static std::vector<Open> o;
  return o;
}

// KP_TRACE: (time, event) in order.
const char* trace_path() {
  static const char* p = std::getenv("KP_TRACE");
  return p;
}
const Clock::time_point& origin() {
  static const Clock::time_point t = Clock::now();
  return t;
}
std::vector<std::pair<double, std::string>>& trace() {
  static std::vector<std::pair<double, std::string>> t;
  return t;
}
void add(std::string& s, const char* p) {
  s += p;
}
void add(std::string& s, const std::string& p) {
  s += p;
}
void add(std::string& s, std::uint64_t v) {
  s += std::to_string(v);
}
// The event's text is built only while tracing (every kernel passes here).
template <class... Parts>
void note(const Parts&... parts) {
  if (!trace_path()) return;
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - origin()).count();
  std::string what;
  (add(what, parts), ...);
  trace().emplace_back(ms, std::move(what));
}

// KP_SYNC=0: no synchronisation around kernels (their times are then launch times; the fences
// show where the host waits).
bool sync() {
  static const bool on = [] {
    const char* v = std::getenv("KP_SYNC");
    return !(v && v[0] == '0');
  }();
  return on;
}

void begin(const std::string& name, std::uint64_t* id) {
  if (sync()) cudaDeviceSynchronize();
  note("begin ", name);
  open_regions().push_back({name, Clock::now()});
  if (id) *id = open_regions().size() - 1;
}

// The innermost open entry of `stack` closed: its time added to its name's row.
void close(std::vector<Open>& stack) {
  if (stack.empty()) return;
  const Open o = stack.back();
  stack.pop_back();
  Entry& e = table()[o.name];
  ++e.calls;
  e.ms += std::chrono::duration<double, std::milli>(Clock::now() - o.start).count();
}

void end() {
  if (sync()) cudaDeviceSynchronize();
  note("end");
  close(open_regions());
}

}  // namespace

struct SpaceHandle {
  char name[64];
};

extern "C" {

void kokkosp_init_library(int, std::uint64_t, std::uint32_t, void*) {
  (void)origin();
}

void kokkosp_finalize_library() {
  std::vector<std::pair<std::string, Entry>> rows(table().begin(), table().end());
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a.second.ms > b.second.ms; });
  // KP_TIMER_OUT=times-%r.txt: %r becomes the MPI rank (Open MPI's or Slurm's), one file each.
  std::string path = std::getenv("KP_TIMER_OUT") ? std::getenv("KP_TIMER_OUT") : "";
  if (const auto at = path.find("%r"); at != std::string::npos) {
    const char* r = std::getenv("OMPI_COMM_WORLD_RANK");
    if (!r) r = std::getenv("SLURM_PROCID");
    path.replace(at, 2, r ? r : "0");
  }
  FILE* f = path.empty() ? stderr : std::fopen(path.c_str(), "w");
  if (!f) f = stderr;
  std::fprintf(f, "%12s %12s %12s  %s\n", "calls", "total_ms", "mean_us", "name");
  for (const auto& [name, e] : rows)
    std::fprintf(f, "%12lld %12.3f %12.3f  %s\n", static_cast<long long>(e.calls), e.ms,
                 1e3 * e.ms / static_cast<double>(std::max<std::int64_t>(1, e.calls)),
                 name.c_str());
  if (f != stderr) std::fclose(f);
  if (trace_path()) {
    if (FILE* t = std::fopen(trace_path(), "w")) {
      for (const auto& [ms, what] : trace()) std::fprintf(t, "%.4f %s\n", ms, what.c_str());
      std::fclose(t);
    }
  }
}

void kokkosp_begin_parallel_for(const char* name, std::uint32_t, std::uint64_t* id) {
  begin(std::string("for ") + name, id);
}
void kokkosp_end_parallel_for(std::uint64_t) {
  end();
}
void kokkosp_begin_parallel_reduce(const char* name, std::uint32_t, std::uint64_t* id) {
  begin(std::string("reduce ") + name, id);
}
void kokkosp_end_parallel_reduce(std::uint64_t) {
  end();
}
void kokkosp_begin_parallel_scan(const char* name, std::uint32_t, std::uint64_t* id) {
  begin(std::string("scan ") + name, id);
}
void kokkosp_end_parallel_scan(std::uint64_t) {
  end();
}
void kokkosp_begin_deep_copy(SpaceHandle dst, const char* dst_name, const void*, SpaceHandle src,
                             const char* src_name, const void*, std::uint64_t) {
  begin(std::string("copy ") + src.name + "->" + dst.name + " " + src_name + "->" + dst_name,
        nullptr);
}
void kokkosp_end_deep_copy() {
  end();
}

// Profiling regions (Kokkos::Profiling::ScopedRegion): wall time, no extra synchronisation.
void kokkosp_push_profile_region(const char* name) {
  note("region ", name);
  regions().push_back({std::string("region ") + name, Clock::now()});
}
void kokkosp_pop_profile_region() {
  note("region end");
  close(regions());
}

// Fences: wall time only (no extra synchronisation), nested apart from the kernels.
void kokkosp_begin_fence(const char* name, std::uint32_t, std::uint64_t* id) {
  note("fence ", name);
  fences().push_back({std::string("fence ") + name, Clock::now()});
  if (id) *id = fences().size() - 1;
}
void kokkosp_end_fence(std::uint64_t) {
  note("fence end");
  close(fences());
}
// Allocations: counted by label (total ms column: megabytes).
void kokkosp_allocate_data(SpaceHandle space, const char* label, const void*, std::uint64_t size) {
  note("alloc ", space.name, " ", label, " ", size);
  Entry& e = table()[std::string("alloc ") + space.name + " " + label];
  ++e.calls;
  e.ms += static_cast<double>(size) / 1e6;
}
void kokkosp_deallocate_data(SpaceHandle space, const char* label, const void*, std::uint64_t) {
  note("free ", space.name, " ", label);
}

}  // extern "C"

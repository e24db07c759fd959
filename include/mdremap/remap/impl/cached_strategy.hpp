#pragma once
// What every strategy keeps the same way: the data array, the remap cache over it (seed 000
// §5.2: a remapped copy stays valid while its source data are unchanged), and the plan time and
// execution counts for the report.
#include "mdremap/remap/impl/remap_cache.hpp"
#include "mdremap/remap/strategy.hpp"

namespace mdremap::remap {

template <class T>
class CachedRemapStrategy : public RemapStrategy<T> {
 public:
  using RemapStrategy<T>::RemapStrategy;
  void set_data(Kokkos::View<const T*> data, bool changed) override {
    if (changed || data.data() != data_.data()) cache_.invalidate_all();
    data_ = data;
  }
  const RemapCache& cache() const { return cache_; }

 protected:
  // The end of plan(): new index arrays make every cached copy stale. Fences, so that the time
  // covers the device work the plan launched.
  void finish_plan(const Kokkos::Timer& timer) {
    Kokkos::fence();
    record_plan(ms_since(timer));
  }
  // Time the run waited for a plan beyond its launch (an overlapped plan not ready in time).
  void add_plan_wait(double ms) {
    plan_ms_ += ms;
    last_plan_ms_ += ms;
  }
  // A plan whose time the caller measured (sharing's overlapped plan: what the run waited for).
  void record_plan(double ms) {
    cache_.clear();
    last_plan_ms_ = ms;
    plan_ms_ += ms;
    ++plans_;
  }
  // A report with this class's fields filled in.
  RemapReport cached_report() const {
    RemapReport r;
    r.strategy = this->name();
    r.cache_hits = cache_.hits();
    r.cache_misses = cache_.misses();
    r.invalidations = cache_.invalidations();
    r.plan_ms = plan_ms_;
    r.last_plan_ms = last_plan_ms_;
    r.plans = plans_;
    r.executions = executions_;
    return r;
  }

  Kokkos::View<const T*> data_;
  RemapCache cache_;
  std::int64_t executions_ = 0;

 private:
  double plan_ms_ = 0, last_plan_ms_ = 0;
  int plans_ = 0;
};

}  // namespace mdremap::remap

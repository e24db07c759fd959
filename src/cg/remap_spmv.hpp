#pragma once
// CG's SpMV body through a remap strategy of the layer, a thread per row (`spmv.kernel:
// csr-thread`, `--remap MODE`). With `auto` it either decides on its own (after `decide_after` CG
// iterations, or before the solve) or, driven by the kernel-level auto (auto_spmv.hpp), when told.
#include <memory>
#include <string>
#include <vector>

#include "cg/spmv.hpp"
#include "mdremap/remap/strategy_fwd.hpp"

namespace mdremap::cg {

class RemapSpmv final : public CgSpmv {
 public:
  // decide_after: auto decides after that many iterations (0: now, over the options' horizon);
  // negative: only when decide_over() is called (the kernel-level auto drives it).
  RemapSpmv(const DeviceCsr& a, const std::string& mode, remap::RemapOptions o,
            std::int64_t decide_after);
  ~RemapSpmv() override;
  std::string name() const override;
  std::string describe() const override;
  void apply(Kokkos::View<const double*> x, Kokkos::View<double*> y) override;
  remap::Sums2 apply_dots(Kokkos::View<const double*> u, Kokkos::View<const double*> r,
                          Kokkos::View<double*> w) override;
  void observe(std::int64_t it, double rel, double tolerance, std::int64_t max_iterations) override;
  void solve_ended(std::int64_t iterations) override;
  std::string horizon_note() const override { return horizon_note_; }
  // Decided (or not auto), with the dots after the SpMV: the lagged loop may run it (apply, then
  // cg_dots_into, CgSpmv::apply_dots_into); whatever host work a strategy does in apply it does
  // there as in the waiting loop. auto deciding watches the iterations; the fused form returns
  // its dots to the host.
  bool runs_unobserved() const override;
  bool has_report() const override { return true; }
  remap::RemapReport report() const override;
  double remap_ms() const override { return remap_ms_; }
  bool models_transactions() const override { return true; }
  remap::TransactionBreakdown model_breakdown(const remap::IrregularPattern& h) const override;

  // The layer's auto when the mode is auto (else null).
  remap::AutoStrategy<double>* auto_strategy() { return auto_; }
  // auto: decides over `executions` more SpMVs (profiling on plain SpMVs of a ones vector where a
  // candidate is left to profile), with `note` saying how that horizon was set.
  void decide_over(std::int64_t executions, const std::string& note);
  // apply_dots: the dot products in the SpMV's reduction (true) or after it (false).
  void set_fused_dots(bool fused) { fused_dots_ = fused; }

 private:
  void decide();
  void check_order() const;
  DeviceCsr a_;
  bool fused_dots_ = false;
  remap::PatternView pv_;
  std::unique_ptr<remap::RemapStrategy<double>> s_;
  remap::AutoStrategy<double>* auto_ = nullptr;  // s_ when it is auto
  remap::RemapOptions opt_;
  std::int64_t decide_after_ = 0;
  std::vector<double> residuals_;
  std::string horizon_note_;
  Kokkos::View<const double*> cur_;
  double remap_ms_ = 0;
};

}  // namespace mdremap::cg

#include "cg/params.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "mdremap/remap/l2_window.hpp"

namespace mdremap::cg {

const remap::RemapApp& remap_app() {
  static const remap::RemapApp app = [] {
    remap::RemapApp a;
    // One chunk: dup copies CG's references once (seed 000 §6.3.1), so there is no remap to
    // overlap. A short solve cannot repay a long search: auto stops exploring past 5% of the
    // best run.
    a.defaults.options.chunks = 1;
    a.defaults.options.explore_budget = 0.05;
    using R = remap::Reorder;
    a.reorders = {R::None, R::LabelProp, R::LabelPropHost, R::Partition, R::Auto};
    a.without = {"index_bits", "lanes", "plan_overlap", "plan_overlap_steps"};
    a.values["gather_path"] = {"global", "readonly", "texture"};
    a.mode_help = "Remap strategy of the SpMV's gathers of x (spmv.kernel csr-thread)";
    a.reorder_help =
        "Symmetric row reordering (labelprop on the device, labelprop-host on the host; auto: "
        "labelprop where the order is scattered, before the solve or at auto's decision point, "
        "the default of --remap auto)";
    return a;
  }();
  return app;
}

namespace {

using io::one_of;

// The generator's own keys are read (and so allowed) only for the generator that takes them.
void read_matrix(io::DeckSection m, CgParams& p) {
  const bool has_gen = m.has("generator");
  p.matrix_file = m.get<std::string>("file", "");
  if (has_gen && !p.matrix_file.empty())
    m.fail("file", "give either 'generator' or 'file', not both");
  if (!has_gen && p.matrix_file.empty())
    m.fail("generator", "is required (or 'file', a Matrix Market matrix)");
  if (has_gen) {
    std::vector<std::string> names;
    for (const auto& g : generator_list()) names.push_back(g.name);
    p.gen.name = one_of(m, "generator", "", names);
    const GeneratorInfo* g = find_generator(p.gen.name);
    if (g->dims > 0) {
      const auto dims = m.require<std::vector<int>>("dims");
      if (static_cast<int>(dims.size()) != g->dims)
        m.fail("dims",
               fmt::format("'{}' takes {} grid dimensions, got {}", g->name, g->dims, dims.size()));
      double total = 1;
      for (int d : dims) {
        if (d < 1) m.fail("dims", "grid dimensions must be at least 1");
        p.gen.dims.push_back(d);
        total *= d;
      }
      if (total > 2147483647.0)
        m.fail("dims", fmt::format("{} rows is more than the 2^31-1 supported", total));
    }
    if (g->banded) {
      p.gen.rows = m.require<long long>("rows");
      if (p.gen.rows < 1 || p.gen.rows > 2147483647) m.fail("rows", "must be in 1..2^31-1");
      p.gen.bandwidth = m.require<long long>("bandwidth");
      if (p.gen.bandwidth < 0 || p.gen.bandwidth >= p.gen.rows)
        m.fail("bandwidth", "must be in 0..rows-1");
      p.gen.density = m.get<double>("density", 1.0);
      if (!(p.gen.density >= 0 && p.gen.density <= 1)) m.fail("density", "must be in [0, 1]");
    }
    if (g->seeded) p.gen.seed = m.get<unsigned long long>("seed", p.gen.seed);
    p.gen.shift = m.get<double>("shift", g->banded ? 1.0 : 0.0);
    if (!std::isfinite(p.gen.shift) || p.gen.shift < 0 || (g->banded && !(p.gen.shift > 0)))
      m.fail("shift", g->banded ? "must be > 0 (banded: the diagonal is the row's |sum| + shift)"
                                : "must be >= 0");
  }
  if (!has_gen)  // a deck's generator keys stay valid when --matrix replaces its generator
    for (const char* key : {"dims", "shift", "rows", "bandwidth", "density", "seed"}) m.allow(key);
  p.permute = m.get<bool>("permute", false);
  p.permute_seed = m.get<unsigned long long>("permute_seed", p.permute_seed);
  m.finish();
}

}  // namespace

CgParams read_cg_params(io::Deck& deck) {
  CgParams p;
  auto root = deck.root();
  read_matrix(root.section("matrix"), p);

  auto rhs = root.section("rhs");
  p.rhs_file = rhs.get<std::string>("file", "");
  rhs.finish();

  auto sol = root.section("solution");
  p.solution_file = sol.get<std::string>("file", "");
  p.solution_kind = one_of(sol, "kind", p.solution_kind, {"random", "ones"});
  p.solution_seed = sol.get<unsigned long long>("seed", p.solution_seed);
  sol.finish();

  auto s = root.section("solver");
  p.solver.tolerance = s.get<double>("tolerance", 1e-8);
  if (!(p.solver.tolerance > 0) || !std::isfinite(p.solver.tolerance))
    s.fail("tolerance", "must be positive");
  // A relative residual below double precision's unit roundoff cannot be computed, let alone
  // reached: the rounding of A x alone is larger.
  if (p.solver.tolerance < std::numeric_limits<double>::epsilon())
    s.fail("tolerance", fmt::format("{} is below double precision's unit roundoff ({:.3g}): no "
                                    "solve can reach it (use 1e-15 or more)",
                                    p.solver.tolerance, std::numeric_limits<double>::epsilon()));
  p.solver.max_iterations = s.get<long long>("max_iterations", 20000);
  if (p.solver.max_iterations < 0) s.fail("max_iterations", "must not be negative");
  p.solver.jacobi = one_of(s, "preconditioner", "none", {"none", "jacobi"}) == "jacobi";
  p.solver.wait_each_iteration = s.get<bool>("wait_each_iteration", false);
  p.solver.defer_x = s.get<bool>("defer_x", p.solver.defer_x);
  p.solve_repeats = s.get<int>("repeats", 1);
  if (p.solve_repeats < 1) s.fail("repeats", "must be at least 1");
  s.finish();

  auto k = root.section("spmv");
  const bool kernel_named = k.has("kernel");
  p.spmv.kernel = one_of(k, "kernel", p.spmv.kernel, spmv_kernel_names());
  if (p.spmv.kernel == "cusparse" && !have_cusparse())
    k.fail("kernel",
           "'cusparse' needs a CUDA build (the cuSPARSE anchor); this binary runs on "
           "the host");
  p.spmv.vector_length = k.get<int>("vector_length", 0);
  const int v = p.spmv.vector_length;
  if (v != 0 && (v < 1 || v > 32 || (v & (v - 1)) != 0))
    k.fail("vector_length", "must be 0 (auto) or a power of two <= 32");
  p.timing_repeats = k.get<int>("timing_repeats", p.timing_repeats);
  if (p.timing_repeats < 0) k.fail("timing_repeats", "must not be negative");
  p.transactions = k.get<bool>("transactions", p.transactions);
  p.spmv.fused_dots = k.get<bool>("fused_dots", p.spmv.fused_dots);
  p.spmv.sell_fused_dots = k.get<bool>("sell_fused_dots", p.spmv.sell_fused_dots);
  p.warm_up = k.get<bool>("warm_up", p.warm_up);
  p.spmv.sell_diagonals = k.get<bool>("sell_diagonals", p.spmv.sell_diagonals);
  p.spmv.sell_sigma = k.get<int>("sell_sigma", 0);
  if (const int sg = p.spmv.sell_sigma; sg < 0 || (sg > 1 && sg % 32 != 0) || sg > 4096)
    k.fail("sell_sigma",
           "must be 0 (auto), 1 (rows in their own order) or a multiple of 32 up to 4096 (each "
           "row reads its window to find its place)");
  p.spmv.l2_persist = k.get<bool>("l2_persist", p.spmv.l2_persist);
  if (p.spmv.l2_persist) {
    if (p.spmv.kernel != "sell" && p.spmv.kernel != "cusparse")
      k.fail("l2_persist", fmt::format("applies to the sell and cusparse kernels (their matrix "
                                       "arrays), not to '{}'",
                                       p.spmv.kernel));
    if (const auto l = remap::l2_persist_limits(); !l.unavailable.empty())
      k.fail("l2_persist", l.unavailable);
  }
  k.finish();

  auto rm = root.section("remap");
  const bool mode_named = rm.has("mode");
  const bool reorder_named = rm.has("reorder");
  p.remap = remap::read_remap(rm, remap_app());
  // auto chooses the kernel as well unless one is named (spmv.kernel csr-thread: the layer's
  // strategies only); kernel auto implies mode auto.
  if (p.remap.mode.chooses() && !kernel_named) p.spmv.kernel = "auto";
  if (p.spmv.kernel == "auto") {
    if (mode_named && !p.remap.mode.chooses())
      rm.fail("mode", fmt::format("spmv.kernel auto chooses the remap strategy too: mode must be "
                                  "auto, not '{}'",
                                  p.remap.mode.name()));
    p.remap.mode = "auto";
  }
  if (!p.remap.mode.is_gather() && p.spmv.kernel != "csr-thread" && p.spmv.kernel != "auto")
    rm.fail("mode", fmt::format("remap mode '{}' needs spmv.kernel csr-thread ('{}' runs its own "
                                "gather)",
                                p.remap.mode.name(), p.spmv.kernel));
  // auto (the default of remap.mode auto): labelprop where the order is scattered
  // (cg/device_reorder.hpp), else none.
  if (p.remap.mode.chooses() && !reorder_named) p.remap.reorder = remap::Reorder::Auto;
  p.spmv.remap = p.remap.mode;
  auto& o = p.spmv.remap_opt;
  o = p.remap.options;
  // auto decides after `decide_after` iterations of the solve, over the iterations it then
  // expects to remain (extrapolated from the residuals so far); 0: before the solve, over
  // max_iterations SpMVs.
  p.spmv.decide_after = rm.get<long long>("decide_after", p.spmv.decide_after);
  if (p.spmv.decide_after < 0)
    rm.fail("decide_after", "must not be negative (0 = before the solve)");
  // CG plans once and runs up to max_iterations SpMVs: auto's horizon until it knows better.
  o.horizon.executions = p.solver.max_iterations;
  o.horizon.plan_every = 0;
  o.data_changes = true;
  try {
    check_remap_mode(p.spmv.remap.name(), o);
  } catch (const Error& e) {
    rm.fail("mode", e.what());
  }
  rm.finish();
  root.finish();
  return p;
}

}  // namespace mdremap::cg

#include "compare/runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>

#include "md/params.hpp"
#include "md/reorder.hpp"
#include "md/simulation.hpp"
#include "mdremap/error.hpp"
#include "mdremap/fenced_ms.hpp"
#include "mdremap/median.hpp"

namespace mdremap::compare {

namespace {

io::Deck make_deck(const Plan& o, const std::string& mode, const std::string& reorder) {
  auto deck = o.deck();
  deck.apply_override("remap.mode=" + mode);
  deck.apply_override("remap.reorder=" + reorder);
  deck.apply_override(fmt::format("run.steps={}", o.steps));
  // Every mode on the same system: the full column-major list the strategies need.
  deck.apply_override("neighbor.list=full");
  deck.apply_override("neighbor.layout=column");
  return deck;
}

// One whole run of `mode`: setup to the last step. The last round also measures the phases
// and the modelled transactions (after the run: outside the timed region).
void run_mode(const Plan& o, Row& row, bool last_round) {
  auto deck = make_deck(o, row.mode, row.reorder);
  const md::MdParams p = md::read_md_params(deck);
  auto engine = md::create_engine(p);
  Sample s;
  ThermoSample t0;
  s.setup_ms = fenced_ms([&] { t0 = engine->setup(); });
  md::RunStats st;
  const double loop_ms = fenced_ms([&] { st = engine->run(o.steps); });
  s.run_ms = s.setup_ms + loop_ms;
  s.step_ms = 1e3 * st.loop_seconds / std::max<std::int64_t>(1, st.steps);
  s.force_ms = 1e3 * st.split.force;
  const md::RemapStats rs = engine->remap_stats(last_round);
  const remap::RemapReport& rep = rs.report;
  s.plan_ms = rep.plan_ms;
  s.selection_ms = rep.selection_ms;
  s.selection_exec_ms = rep.selection_exec_ms;
  s.predicted_ms = rep.predicted_run_ms;
  row.samples.push_back(s);
  row.e_pair = t0.e_pair;
  row.strategy = rep.strategy;
  row.executions = o.steps + 1;
  if (!last_round) return;
  row.timing = measure_phases(engine->force_probe(), o.repeats);
  if (rs.have_tx) {
    row.tx32 = rs.tx.seg32;
    row.tx128 = rs.tx.seg128;
    row.all32 = rs.all.total().seg32;
    row.all128 = rs.all.total().seg128;
  }
  row.extra = rep.extra_bytes;
  row.hits = rep.cache_hits;
  row.misses = rep.cache_misses;
  row.splits = rep.splits;
  if (!rep.decision.empty()) row.note = rep.decision;
  if (rep.splits > 0) row.note += fmt::format("{} of {} blocks split", rep.splits, rep.blocks);
  if (rep.packed_elems > 0)
    row.note += fmt::format("{}packed {:.1f}% of dup's elements", row.note.empty() ? "" : "; ",
                            100.0 * rep.packed_elems / std::max<std::int64_t>(1, rep.dup_elems));
}

// Padding refuses the MD force kernel; it is shown on the single-pattern gather-reduce instead.
void run_padding(const Plan& o, const std::string& reorder, const std::string& why,
                 std::vector<Row>& rows, std::vector<std::string>& notes) {
  Row refused;
  refused.mode = "padding";
  refused.reorder = reorder;
  refused.strategy = "refused";
  refused.ok = false;
  refused.note = "force kernel: refused (more than one reference pattern)";
  rows.push_back(refused);
  notes.push_back(fmt::format("[{}] padding: {}", reorder, why));
  auto deck = make_deck(o, "gather", reorder);
  const md::MdParams p = md::read_md_params(deck);
  auto engine = md::create_engine(p);
  engine->setup();
  const md::ForcePattern fp = engine->force_probe().force_pattern();
  // The gather-reduce body is one thread a row (remap.lanes serves the force kernel only).
  remap::RemapOptions ro = md::remap_options(p);
  ro.lanes = 1;
  for (const std::string m : {"gather", "padding"}) {
    const GatherReduceResult g = gather_reduce(fp, m, ro, o.repeats);
    Row r;
    r.mode = m + "[gather-reduce]";
    r.reorder = reorder;
    r.demo = true;
    r.strategy = g.stats.report.strategy;
    r.timing = g.timing;
    r.tx32 = g.stats.tx.seg32;
    r.tx128 = g.stats.tx.seg128;
    r.all32 = g.stats.all.total().seg32;
    r.all128 = g.stats.all.total().seg128;
    r.extra = g.stats.report.extra_bytes;
    Sample s;
    s.plan_ms = g.stats.report.plan_ms;
    s.step_ms = g.timing.pipelined_ms;
    r.samples.push_back(s);
    r.note = fmt::format("single-pattern kernel; max rel. diff vs gather {:.1e}", g.max_rel_err);
    if (m == "padding")
      r.note +=
          fmt::format("; {} holes, {} duplicates", g.stats.report.holes, g.stats.report.duplicates);
    rows.push_back(r);
  }
}

void summarise(Row& r) {
  auto med = [&](double Sample::*f) {
    std::vector<double> v;
    for (const auto& s : r.samples) v.push_back(s.*f);
    return median(v);
  };
  r.med.run_ms = med(&Sample::run_ms);
  r.med.setup_ms = med(&Sample::setup_ms);
  r.med.step_ms = med(&Sample::step_ms);
  r.med.force_ms = med(&Sample::force_ms);
  r.med.plan_ms = med(&Sample::plan_ms);
  r.med.selection_ms = med(&Sample::selection_ms);
  r.med.selection_exec_ms = med(&Sample::selection_exec_ms);
  r.med.predicted_ms = med(&Sample::predicted_ms);
  if (r.demo || !r.ok) return;
  // The chart's split of the run: the remap not hidden by the pipeline, per execution; auto's
  // profiled executions of candidates it did not keep are in the force phase and in selection.
  const double exposed = std::max(0.0, r.timing.pipelined_ms - r.timing.compute_ms);
  r.seg_plan = r.med.plan_ms + r.med.selection_ms;
  r.seg_remap = std::min(r.med.force_ms, exposed * static_cast<double>(r.executions));
  r.seg_compute = std::max(0.0, r.med.force_ms - r.seg_remap - r.med.selection_exec_ms);
  r.seg_other = std::max(0.0, r.med.run_ms - r.seg_plan - r.seg_remap - r.seg_compute);
}

}  // namespace

Results run(const Plan& o) {
  // Validate every mode and reorder name before any run.
  for (const auto& m : o.modes)
    for (const auto& r : o.reorders)
      md::read_md_params(*std::make_unique<io::Deck>(make_deck(o, m, r)));

  Results res;
  std::vector<Row>& rows = res.rows;
  std::map<std::pair<std::string, std::string>, std::size_t> at;  // (reorder, mode) -> row
  for (const auto& r : o.reorders)
    for (const auto& m : o.modes) {
      if (m == "padding") {
        std::string why;
        try {
          md::create_engine(md::read_md_params(*std::make_unique<io::Deck>(make_deck(o, m, r))));
        } catch (const Error& e) {
          why = e.what();
        }
        if (why.empty()) throw Error("padding was expected to refuse the MD force kernel");
        run_padding(o, r, why, rows, res.notes);
        continue;
      }
      Row row;
      row.mode = m;
      row.reorder = r;
      at[{r, m}] = rows.size();
      rows.push_back(row);
    }
  // Interleaved rounds: A B C A B C ...
  for (int round = 0; round < o.rounds; ++round)
    for (auto& [key, k] : at) {
      Row& row = rows[k];
      if (o.before_run) o.before_run(round + 1, row);
      run_mode(o, row, round + 1 == o.rounds);
    }
  for (auto& r : rows) summarise(r);
  return res;
}

}  // namespace mdremap::compare

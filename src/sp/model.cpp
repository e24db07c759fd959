#include "sp/model.hpp"

#include <algorithm>
#include <vector>

#include "mdremap/remap/pattern.hpp"

namespace mdremap::sp {

namespace {

struct VarCsr {
  std::vector<std::int64_t> off;  // V+1
  std::vector<std::int32_t> col;  // edge ids per variable, ascending (var_col without the tag)
  std::vector<std::int32_t> edge_var;
};

VarCsr var_csr(const Formula& f) {
  VarCsr g;
  const std::int32_t V = f.nvars;
  const std::int64_t E = f.literals();
  g.off.assign(static_cast<std::size_t>(V) + 1, 0);
  g.edge_var.resize(E);
  for (std::int64_t e = 0; e < E; ++e) {
    g.edge_var[e] = lit_var(f.lits[e]);
    ++g.off[g.edge_var[e] + 1];
  }
  for (std::int32_t v = 0; v < V; ++v) g.off[v + 1] += g.off[v];
  std::vector<std::int64_t> fill(g.off.begin(), g.off.end() - 1);
  g.col.resize(E);
  for (std::int64_t e = 0; e < E; ++e) g.col[fill[g.edge_var[e]]++] = static_cast<std::int32_t>(e);
  return g;
}

}  // namespace

std::int64_t calc_pi_references(const Formula& f) {
  std::vector<std::int64_t> deg(static_cast<std::size_t>(f.nvars), 0);
  for (std::int32_t l : f.lits) ++deg[lit_var(l)];
  std::int64_t n = 0;
  for (std::int64_t d : deg) n += d * d;  // each of a variable's d edges walks its d entries
  return n;
}

CalcPiTransactions model_calc_pi_transactions(const Formula& f, int warp_size) {
  CalcPiTransactions out;
  const VarCsr g = var_csr(f);
  const std::int64_t E = f.literals();
  const std::int64_t slice =
      std::max<std::int64_t>(warp_size, (std::int64_t{1} << 20) / warp_size * warp_size);
  for (std::int64_t t0 = 0; t0 < E; t0 += slice) {
    const std::int64_t t1 = std::min(E, t0 + slice), T = t1 - t0;
    // The flattened two-level reference in CSR form: thread t reads var_col at
    // var_rowOff[ed_dst[t]] + j (A = var_col, 4-byte entries).
    remap::IrregularPattern data;
    data.threads = T;
    data.data_count = E;
    data.elem_bytes = 4;
    data.len.resize(T);
    data.offset.resize(T + 1);
    data.offset[0] = 0;
    for (std::int64_t i = 0; i < T; ++i) {
      const std::int32_t v = g.edge_var[t0 + i];
      data.len[i] = static_cast<std::int32_t>(g.off[v + 1] - g.off[v]);
      data.rows = std::max(data.rows, data.len[i]);
      data.offset[i + 1] = data.offset[i] + data.len[i];
    }
    data.index.resize(data.offset[T]);
    remap::IrregularPattern survey = data;  // same shape, reads eta[var_col[...]]
    for (std::int64_t i = 0; i < T; ++i) {
      const std::int64_t base = g.off[g.edge_var[t0 + i]];
      for (std::int32_t j = 0; j < data.len[i]; ++j) {
        data.index[data.offset[i] + j] = static_cast<std::int32_t>(base + j);
        survey.index[data.offset[i] + j] = g.col[base + j];
      }
      out.references += data.len[i];
    }
    out.data += remap::count_transactions(data, warp_size);
    out.survey += remap::count_transactions(survey, warp_size);
    out.dup_data += remap::count_transactions_duplicated(data, warp_size);
    // Index loads: ed_dst[t] (contiguous 4-byte), then var_rowOff[j] and var_rowOff[j+1]
    // (8-byte entries) as a two-row gather. Hook: once the remap layer counts index loads
    // itself (count_transactions with index loads, in progress on another branch), use it here.
    remap::IrregularPattern rows;
    rows.threads = T;
    rows.rows = 2;
    rows.data_count = f.nvars + 1;
    rows.elem_bytes = 8;
    rows.len.assign(T, 2);
    rows.index.resize(2 * T);
    for (std::int64_t i = 0; i < T; ++i) {
      rows.index[i] = g.edge_var[t0 + i];
      rows.index[T + i] = g.edge_var[t0 + i] + 1;
    }
    out.index += remap::count_transactions(rows, warp_size);
    out.index += remap::count_contiguous_transactions(t0, T, 4, warp_size);
  }
  out.with_index = out.data;
  out.with_index += out.index;
  return out;
}

}  // namespace mdremap::sp

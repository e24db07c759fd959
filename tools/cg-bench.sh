#!/usr/bin/env bash
# CG on the GPU against cuSPARSE and CuPy, one scripted run on the device machine:
#
#   tools/cg-bench.sh MDREMAP_BINARY [OUTDIR]      (tools/gpu-run.sh device cg calls it)
#
# For each paper-sized stand-in (seed 000 Table 7: offshore, parabolic_fem, apache2, ecology2),
# natural and randomly permuted, and the large case (16.8M rows, permuted): `mdremap cg` with every
# SpMV variant, and CuPy's cupyx.scipy.sparse.linalg.cg on exactly the same system (written as
# .npy by the first run, kept in /tmp on the device: files over 16 MiB do not come back). Writes
# OUTDIR/cg.txt (the table and the ratios to the targets), OUTDIR/cg.csv and
# OUTDIR/cg-summaries.tgz.
#
# Variants (CG_VARIANTS): gather (csr-thread through the remap layer's gather), csr-warp, sell
# (sliced ELL with 16-bit column offsets), cusparse,
# dup, sharing, auto (the kernel and the strategy chosen), auto-thread (the layer's strategies
# only: --spmv csr-thread), throttle-cf, throttle-cfq, throttle-sj, throttle-sjq (and each with
# -inplace: x read in place, remap.pack=false); sell-l2 and cusparse-l2 (spmv.l2_persist: the
# matrix's values in a persisting-L2 window); a suffix -wait (e.g. sell-wait) runs the solve with a
# host wait each iteration (solver.wait_each_iteration), -xeach x updated every iteration
# (solver.defer_x=false), -after (sell) the dot products in a reduction after the SpMV
# (spmv.sell_fused_dots=false), -offsets (sell) every slice with an index an entry, no diagonal
# columns (spmv.sell_diagonals=false), in the order -offsets-after-xeach-wait; a suffix
# +labelprop or +partition adds that reordering (e.g. gather+partition).
# Environment: CG_CASES (default: the four stand-ins and large), CG_VARIANTS, CG_SOLVES (timed
# solves per run, median reported; default 3), CG_SPMV_REPS (timed SpMVs, default 200),
# CG_EXTRA (more mdremap flags for every run, e.g. "--set solver.max_iterations=500").
# CG_ROUNDS (default 1): rounds of every variant, interleaved; the whole-solve times (set-up and
# the first solve, what auto is judged on) are the medians over the rounds (auto's line also
# gives the least over the rounds: a slow spell of the machine only adds), the rest from round 1.
# CG_LARGE_ORDERS (default permuted): the large case's orders.
# CG_LARGE_EXTRA (default "--set remap.bisector=kd"): the large case's throttle parts by k-d
# tiling, because the coarsened bisection planner is serial and takes minutes at 117M references.
# About 10 variants x 9 cases: split the cases over several device calls (CG_CASES=large alone).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
bin=${1:?usage: cg-bench.sh MDREMAP_BINARY [OUTDIR]}
out=${2:-$repo/out/cg}
mkdir -p "$out"
tmp=$(mktemp -d /tmp/cg-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
read -r -a cases <<<"${CG_CASES:-offshore parabolic_fem apache2 ecology2 large}"
read -r -a variants <<<"${CG_VARIANTS:-gather csr-warp cusparse dup sharing throttle-cf throttle-cfq throttle-sj throttle-sjq auto}"
read -r -a extra_all <<<"${CG_EXTRA:-}"
solves=${CG_SOLVES:-3}
spmv_reps=${CG_SPMV_REPS:-200}
sums=$tmp/summaries
mkdir -p "$sums"

# Device copy bandwidth (read + write), for the "% of copy bandwidth" column.
python3 "$here/cg_cupy.py" --copy-bandwidth --json "$sums/copy.json" >/dev/null || echo "copy bandwidth: CuPy failed"

for m in "${cases[@]}"; do
  read -r -a orders <<<"${CG_ORDERS:-natural permuted}"  # CG_ORDERS narrows them
  [[ $m == large ]] && read -r -a orders <<<"${CG_LARGE_ORDERS:-permuted}"
  for order in "${orders[@]}"; do
    perm=false
    [[ $order == permuted ]] && perm=true
    rm -f "$tmp"/sys_*.npy
    for round in $(seq 1 "${CG_ROUNDS:-1}"); do
    sfx=""
    [[ $round -gt 1 ]] && sfx=".r$round"
    for v in "${variants[@]}"; do
      extra=("${extra_all[@]}")
      [[ -f $tmp/sys_b.npy ]] || extra+=(--write-npy "$tmp/sys")
      base=${v%%+*}
      [[ $v == *+* ]] && extra+=(--reorder "${v#*+}")
      if [[ $base == *-wait ]]; then
        extra+=(--set solver.wait_each_iteration=true)
        base=${base%-wait}
      fi
      if [[ $base == *-xeach ]]; then
        extra+=(--set solver.defer_x=false)
        base=${base%-xeach}
      fi
      if [[ $base == *-after ]]; then
        extra+=(--set spmv.sell_fused_dots=false)
        base=${base%-after}
      fi
      if [[ $base == *-offsets ]]; then
        extra+=(--set spmv.sell_diagonals=false)
        base=${base%-offsets}
      fi
      if [[ $base == *-l2 ]]; then
        extra+=(--set spmv.l2_persist=true)
        base=${base%-l2}
      fi
      if [[ $m == large ]]; then
        read -r -a large_extra <<<"${CG_LARGE_EXTRA---set remap.bisector=kd}"
        extra+=("${large_extra[@]}")
      fi
      case $base in
        csr-warp | cusparse | sell) extra+=(--spmv "$base") ;;
        auto-thread) extra+=(--remap auto --spmv csr-thread) ;;
        throttle-*-inplace) extra+=(--remap throttle --set remap.pack=false --schedule "$(sed 's/^throttle-//; s/-inplace$//; s/cfq/cf-q/; s/sjq/sj-q/' <<<"$base")") ;;
        throttle-*) extra+=(--remap throttle --schedule "$(sed 's/^throttle-//; s/cfq/cf-q/; s/sjq/sj-q/' <<<"$base")") ;;
        *) extra+=(--remap "$base") ;;
      esac
      echo "== cg $m $order $v (round $round)"
      "$bin" cg "$repo/inputs/cg_$m.yaml" --quiet --set matrix.permute=$perm \
        --set solver.repeats="$solves" --set spmv.timing_repeats="$spmv_reps" \
        --summary "$sums/$m.$order.$v.json$sfx" "${extra[@]}" || echo "   (exit $?)"
    done
    done
    echo "== cupy $m $order"
    if [[ -f $tmp/sys_b.npy ]]; then
      python3 "$here/cg_cupy.py" --npy "$tmp/sys" --tol 1e-8 --spmv-reps "$spmv_reps" \
        --json "$sums/$m.$order.cupy.json" >/dev/null || echo "   (exit $?)"
    fi
  done
done
rm -f "$tmp"/sys_*.npy

python3 - "$sums" "$out" <<'PY'
import glob, json, os, statistics, sys
sums, out = sys.argv[1], sys.argv[2]
def load(p):
    try:
        return json.load(open(p))
    except (OSError, ValueError):
        return None
def get(d, *keys):
    for k in keys:
        if not isinstance(d, dict) or k not in d or d[k] is None:
            return None
        d = d[k]
    return d
copy = load(os.path.join(sums, "copy.json")) or {}
copy_gbs = copy.get("copy_gbytes_per_s")
lines, rows, checks = [], [], []
read_gbs = copy.get("read_gbytes_per_s")
lines.append(f"device copy bandwidth: {copy_gbs:.0f} GB/s (CuPy copy, read + write)" if copy_gbs else
             "device copy bandwidth: not measured")
if read_gbs:
    lines.append(f"device read bandwidth: {read_gbs:.0f} GB/s (CuPy sum over 1 GiB): the ceiling of any SpMV's GB/s")
hdr = (f"{'case':14s} {'order':9s} {'variant':18s} {'iters':>6s} {'ms/iter':>8s} {'SpMV ms':>8s} "
       f"{'GB/s':>7s} {'%copy':>6s} {'vs cuSP':>8s} {'vs CuPy':>8s} {'setup ms':>9s} {'payback':>8s} "
       f"{'hits':>6s} {'rel.err':>9s}")
lines.append(hdr)
keys = sorted({tuple(os.path.basename(p).split(".")[:2]) for p in glob.glob(os.path.join(sums, "*.*.*.json"))})
for case, order in keys:
    runs = {}
    for p in glob.glob(os.path.join(sums, f"{case}.{order}.*.json")):
        runs[os.path.basename(p)[len(case) + len(order) + 2:-5]] = load(p)
    cus, cupy = runs.get("cusparse"), runs.get("cupy")
    cus_ms = get(cus, "spmv", "time_ms")
    cupy_it = get(cupy, "time_per_iteration_ms")
    whole = {}  # variant -> set-up (plan, selection) + solve seconds, median over the rounds
    least = {}  # the same, least over the rounds (a slow spell of the machine only adds time)
    best_spmv = best_it = None
    for v, s in sorted(runs.items()):
        if s is None:
            lines.append(f"{case:14s} {order:9s} {v:18s} (no result)")
            continue
        if v == "cupy":
            it, ms, spmv, gbs, err = (s["iterations"], s["time_per_iteration_ms"], s["spmv_ms"],
                                      s["spmv_gbytes_per_s"], s["relative_error"])
            setup = payback = hits = None
        else:
            it, ms, err = s["iterations"], s["time_per_iteration_ms"], s["relative_error"]
            spmv, gbs = get(s, "spmv", "time_ms"), get(s, "spmv", "gbytes_per_s")
            setup = 1e3 * (get(s, "setup", "spmv_setup_seconds") or 0) + 1e3 * (get(s, "setup", "reorder_seconds") or 0)
            payback, hits = get(s, "remap", "payback_spmvs"), get(s, "remap", "cache_hits")
            if s["converged"]:
                # One solve as a user runs it: set-up and the first solve whole (its first SpMV,
                # with the kernels' first launches, and the iterations; auto decides inside it);
                # the median over the rounds.
                ws = []
                p0 = os.path.join(sums, f"{case}.{order}.{v}.json")
                for sv in [s] + [load(q) for q in sorted(glob.glob(p0 + ".r*"))]:
                    if sv and sv.get("converged"):
                        su = 1e3 * (get(sv, "setup", "spmv_setup_seconds") or 0) + 1e3 * (get(sv, "setup", "reorder_seconds") or 0)
                        ws.append(su / 1e3 + (sv.get("first_solve_total_seconds") or sv.get("first_solve_seconds") or sv["solve_seconds"]))
                whole[v] = statistics.median(ws)
                least[v] = min(ws)
                nwhole = len(ws)
            if not v.startswith("cusparse") and s["converged"]:
                # auto runs one of the others' kernels (cuSPARSE's, where it chose it): not a
                # kernel of its own
                if not v.startswith("auto") and (best_spmv is None or spmv < best_spmv[1]):
                    best_spmv = (v, spmv, gbs)
                if best_it is None or ms < best_it[1]:
                    best_it = (v, ms)
        f = lambda x, w, fmt: (format(x, fmt) if x is not None else "-").rjust(w)
        pc = f(100 * gbs / copy_gbs if copy_gbs and gbs else None, 5, ".1f") + "%"
        vs_cus = f(cus_ms / spmv if cus_ms and spmv and v != "cupy" else None, 7, ".2f") + "x"
        vs_cupy = f(cupy_it / ms if cupy_it and ms and v != "cupy" else None, 7, ".2f") + "x"
        lines.append(f"{case:14s} {order:9s} {v:18s} {it:6d} {ms:8.4f} {spmv:8.4f} {gbs:7.1f} {pc} {vs_cus} "
                     f"{vs_cupy} {f(setup, 9, '.1f')} {f(payback, 8, '.1f')} {f(hits, 6, 'd')} {f(err, 9, '.2e')}")
        rows.append([case, order, v, it, ms, spmv, gbs, setup, payback, hits, err])
    tag = f"{case} {order}:"
    if best_spmv and cus_ms:
        cus_gbs = get(cus, "spmv", "gbytes_per_s")
        ceiling = (f"; 1.3x cuSPARSE would be {1.3 * cus_gbs:.0f} GB/s = {100 * 1.3 * cus_gbs / read_gbs:.0f}% of the "
                   f"read bandwidth" if read_gbs and cus_gbs else "")
        checks.append(f"{tag} best own SpMV {best_spmv[0]} {cus_ms / best_spmv[1]:.2f}x cuSPARSE (target >= 1.3x), "
                      f"{best_spmv[2]:.0f} GB/s" + (f" = {100 * best_spmv[2] / copy_gbs:.0f}% of copy (target >= 70%)" if copy_gbs else "")
                      + ceiling)
    fb = get(runs.get("sell"), "spmv", "format_bytes")
    ft = get(runs.get("sell"), "spmv", "time_ms")
    if fb and ft:
        checks.append(f"{tag} sell moves {fb / 1e6:.1f} MB a SpMV (CSR's minimum {get(runs['sell'], 'spmv', 'bytes') / 1e6:.1f} MB; the "
                      f"GB/s column counts CSR's): {fb / ft / 1e6:.0f} GB/s of its own bytes"
                      + (f" = {100 * fb / ft / 1e6 / read_gbs:.0f}% of the read bandwidth" if read_gbs else ""))
    if best_it and cupy_it:
        checks.append(f"{tag} best CG iteration {best_it[0]} {cupy_it / best_it[1]:.2f}x CuPy cg (target >= 2x)")
    dup = runs.get("dup")
    if dup and cus:
        checks.append(f"{tag} dup vs cuSPARSE: SpMV {cus_ms / get(dup, 'spmv', 'time_ms'):.2f}x (seed 000 Table 8: 1.17x), "
                      f"whole CG {whole.get('cusparse', 0) / whole['dup']:.2f}x (1.12x)" if "dup" in whole else f"{tag} dup did not converge")
    t_csr = get(dup, "transactions", "csr", "with_index", "seg32")
    t_ell = get(dup, "transactions", "strategy", "with_index", "seg32")
    if t_csr and t_ell:
        checks.append(f"{tag} modelled transactions CSR : ELL = {t_csr / t_ell:.2f} : 1 (seed 000 Table 4: 1.2-2.3 : 1)")
    g = get(runs.get("gather"), "spmv", "time_ms")
    th = [(v, get(s, "spmv", "time_ms")) for v, s in runs.items() if v.startswith("throttle") and get(s, "spmv", "time_ms")]
    if g and th:
        v, t = min(th, key=lambda x: x[1])
        checks.append(f"{tag} best throttle {v} SpMV {g / t:.2f}x the gather (seed 002: 2.01x on large matrices)")
    if whole:
        checks.append(f"{tag} whole solve (set-up + first solve, ms, medians of {nwhole} rounds): "
                      + ", ".join(f"{v} {1e3 * w:.1f}" for v, w in sorted(whole.items(), key=lambda x: x[1])))
    for av in ("auto", "auto-thread", "auto-wait"):
        others = [(w, v) for v, w in whole.items() if not v.startswith("auto")]
        if av in whole and others:
            best = min(others)
            checks.append(f"{tag} {av} ({get(runs[av], 'remap', 'strategy')}) whole solve {whole[av]:.4f} s vs best "
                          f"{best[1]} {best[0]:.4f} s: {100 * (whole[av] / best[0] - 1):+.1f}% (target within 5%; "
                          f"medians of {nwhole} rounds)")
            if nwhole > 1:
                lb = min((w, v) for v, w in least.items() if not v.startswith("auto"))
                checks.append(f"{tag} {av} least of {nwhole} rounds {least[av]:.4f} s vs best {lb[1]} "
                              f"{lb[0]:.4f} s: {100 * (least[av] / lb[0] - 1):+.1f}%")
lines.append("")
lines += checks
text = "\n".join(lines)
print(text)
open(os.path.join(out, "cg.txt"), "w").write(text + "\n")
with open(os.path.join(out, "cg.csv"), "w") as fcsv:
    fcsv.write("case,order,variant,iterations,ms_per_iteration,spmv_ms,spmv_gbytes_per_s,setup_ms,payback_spmvs,cache_hits,relative_error\n")
    for r in rows:
        fcsv.write(",".join("" if x is None else str(x) for x in r) + "\n")
PY
tar -C "$sums" -czf "$out/cg-summaries.tgz" .

#!/usr/bin/env bash
# CG on the GPU (issue 12, "must show"), one scripted run on the device machine:
#
#   tools/cg-bench.sh MDREMAP_BINARY [OUTDIR]      (tools/gpu-run.sh device cg calls it)
#
# For each paper-sized stand-in (seed 000 Table 7: offshore, parabolic_fem, apache2, ecology2),
# natural and randomly permuted, and the large case (16.8M rows, permuted): `mdremap cg` with every
# SpMV variant (CG_VARIANTS, default csr-thread csr-warp cusparse), and CuPy's
# cupyx.scipy.sparse.linalg.cg on exactly the same system (written as .npy by the first run, kept
# in /tmp on the device: files over 16 MiB do not come back). Writes OUTDIR/cg.txt (the table and
# the ratios the issue asks for), OUTDIR/cg.csv and OUTDIR/cg-summaries.tgz.
#
# Environment: CG_CASES (default: the four stand-ins and large), CG_VARIANTS, CG_SOLVES (timed
# solves per run, median reported; default 3), CG_SPMV_REPS (timed SpMVs, default 200).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
bin=${1:?usage: cg-bench.sh MDREMAP_BINARY [OUTDIR]}
out=${2:-$repo/out/cg}
mkdir -p "$out"
tmp=$(mktemp -d /tmp/cg-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
read -r -a cases <<<"${CG_CASES:-offshore parabolic_fem apache2 ecology2 large}"
read -r -a variants <<<"${CG_VARIANTS:-csr-thread csr-warp cusparse}"
solves=${CG_SOLVES:-3}
spmv_reps=${CG_SPMV_REPS:-200}
sums=$tmp/summaries
mkdir -p "$sums"

# Device copy bandwidth (read + write), for the "% of copy bandwidth" column.
python3 "$here/cg_cupy.py" --copy-bandwidth --json "$sums/copy.json" >/dev/null || echo "copy bandwidth: CuPy failed"

for m in "${cases[@]}"; do
  orders=(natural permuted)
  [[ $m == large ]] && orders=(permuted)
  for order in "${orders[@]}"; do
    perm=false
    [[ $order == permuted ]] && perm=true
    rm -f "$tmp"/sys_*.npy
    for v in "${variants[@]}"; do
      extra=()
      [[ -f $tmp/sys_b.npy ]] || extra=(--write-npy "$tmp/sys")
      echo "== cg $m $order $v"
      "$bin" cg "$repo/inputs/cg_$m.yaml" --quiet --spmv "$v" --set matrix.permute=$perm \
        --set solver.repeats="$solves" --set spmv.timing_repeats="$spmv_reps" \
        --summary "$sums/$m.$order.$v.json" "${extra[@]}" || echo "   (exit $?)"
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
import glob, json, os, sys
sums, out = sys.argv[1], sys.argv[2]
def load(p):
    try:
        return json.load(open(p))
    except (OSError, ValueError):
        return None
copy = load(os.path.join(sums, "copy.json")) or {}
copy_gbs = copy.get("copy_gbytes_per_s")
rows, lines = [], []
hdr = (f"{'case':14s} {'order':9s} {'variant':12s} {'iters':>6s} {'ms/iter':>8s} {'SpMV ms':>8s} "
       f"{'GB/s':>7s} {'%copy':>6s} {'SpMV vs cuSPARSE':>17s} {'iter vs CuPy':>13s} {'rel.err':>9s}")
lines.append(f"device copy bandwidth: {copy_gbs:.0f} GB/s (CuPy copy, read + write)" if copy_gbs else
             "device copy bandwidth: not measured")
lines.append(hdr)
keys = sorted({tuple(os.path.basename(p).split(".")[:2]) for p in glob.glob(os.path.join(sums, "*.*.*.json"))})
checks = []
for case, order in keys:
    runs = {}
    for p in glob.glob(os.path.join(sums, f"{case}.{order}.*.json")):
        runs[os.path.basename(p).split(".")[2]] = load(p)
    cus = runs.get("cusparse")
    cupy = runs.get("cupy")
    cus_ms = cus["spmv"]["time_ms"] if cus else None
    cupy_it = cupy["time_per_iteration_ms"] if cupy else None
    best = None
    for v, s in sorted(runs.items()):
        if s is None:
            lines.append(f"{case:14s} {order:9s} {v:12s} (no result)")
            continue
        if v == "cupy":
            it, ms, spmv, gbs, err = (s["iterations"], s["time_per_iteration_ms"], s["spmv_ms"],
                                      s["spmv_gbytes_per_s"], s["relative_error"])
        else:
            it, ms, spmv, gbs, err = (s["iterations"], s["time_per_iteration_ms"], s["spmv"]["time_ms"],
                                      s["spmv"]["gbytes_per_s"], s["relative_error"])
            if v != "cusparse" and s["converged"] and (best is None or spmv < best[1]):
                best = (v, spmv, gbs, ms)
        pc = f"{100 * gbs / copy_gbs:5.1f}%" if copy_gbs else "     -"
        vs_cus = f"{cus_ms / spmv:16.2f}x" if cus_ms and spmv and v != "cupy" else f"{'-':>17s}"
        vs_cupy = f"{cupy_it / ms:12.2f}x" if cupy_it and ms and v != "cupy" else f"{'-':>13s}"
        errs = f"{err:9.2e}" if err is not None else f"{'-':>9s}"
        lines.append(f"{case:14s} {order:9s} {v:12s} {it:6d} {ms:8.4f} {spmv:8.4f} {gbs:7.1f} {pc} "
                     f"{vs_cus} {vs_cupy} {errs}")
        rows.append([case, order, v, it, ms, spmv, gbs, err])
    if best and cus_ms:
        checks.append(f"{case} {order}: best own SpMV {best[0]} {cus_ms / best[1]:.2f}x cuSPARSE "
                      f"(target >= 1.3x), {best[2]:.0f} GB/s"
                      + (f" = {100 * best[2] / copy_gbs:.0f}% of copy (target >= 70%)" if copy_gbs else "")
                      + (f"; CG iteration {cupy_it / best[3]:.2f}x CuPy (target >= 2x)" if cupy_it else ""))
lines.append("")
lines += checks
text = "\n".join(lines)
print(text)
open(os.path.join(out, "cg.txt"), "w").write(text + "\n")
with open(os.path.join(out, "cg.csv"), "w") as f:
    f.write("case,order,variant,iterations,ms_per_iteration,spmv_ms,spmv_gbytes_per_s,relative_error\n")
    for r in rows:
        f.write(",".join("" if x is None else str(x) for x in r) + "\n")
PY
tar -C "$sums" -czf "$out/cg-summaries.tgz" .

# Session 17, call 3 (nvidia-h100-x1): throttling with x read in place (remap.pack=false) on the
# large case (3D 7-point Laplacian, 16.8M rows, randomly permuted, x = 134 MB > the 50 MB L2),
# parts by coarsened bisection at several sizes, against the gather, csr-warp, cuSPARSE and the
# packed throttle (Algorithm 5), one run each, SpMV timed over 50 calls; and the GPU tests of
# the remap strategies and CG.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=index,name,temperature.gpu,clocks.sm --format=csv,noheader
for t in test_remap_strategies test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; tail -1 $OUT/$t.log; done
TH="--remap throttle --set remap.bisector=coarsened"
while IFS='|' read -r name flags; do
  [[ -z $name ]] && continue
  s=$(date +%s)
  timeout 170 $B/mdremap cg inputs/cg_large.yaml --quiet --set solver.repeats=1 --set spmv.timing_repeats=50 \
    --set spmv.transactions=false --summary $OUT/large-$name.json $flags > $OUT/large-$name.log 2>&1
  echo "$name rc=$? $(( $(date +%s) - s )) s"
done <<LIST
gather|--remap gather
csr-warp|--spmv csr-warp
cusparse|--spmv cusparse
th-cf-pack-25M|$TH --schedule cf
th-cf-inplace-25M|$TH --schedule cf --set remap.pack=false
th-cf-inplace-8M|$TH --schedule cf --set remap.pack=false --set remap.partition_bytes=8000000
th-cf-inplace-4M|$TH --schedule cf --set remap.pack=false --set remap.partition_bytes=4000000
th-cf-inplace-2M|$TH --schedule cf --set remap.pack=false --set remap.partition_bytes=2000000
th-cfq-inplace-8M|$TH --schedule cf-q --set remap.pack=false --set remap.partition_bytes=8000000
LIST
cd $OUT && python3 - <<'PY'
import json, glob
print(f"{'variant':22s} {'iters':>6s} {'ms/iter':>8s} {'SpMV ms':>8s} {'GB/s':>7s} {'gather SpMV ms':>14s} {'plan ms':>9s}  strategy")
for n in ["gather","csr-warp","cusparse","th-cf-pack-25M","th-cf-inplace-25M","th-cf-inplace-8M","th-cf-inplace-4M","th-cf-inplace-2M","th-cfq-inplace-8M"]:
    try: d = json.load(open(f"large-{n}.json"))
    except Exception as e: print(n, "no summary", e); continue
    r = d.get("remap", {})
    print(f"{n:22s} {d['iterations']:6d} {d['time_per_iteration_ms']:8.3f} {d['spmv']['time_ms']:8.3f} {d['spmv']['gbytes_per_s']:7.0f} {r.get('gather_spmv_ms', float('nan')):14.3f} {r.get('plan_ms', 0):9.0f}  {d['spmv']['describe'][:90]}")
PY
nvidia-smi --query-gpu=index,temperature.gpu,clocks.sm --format=csv,noheader

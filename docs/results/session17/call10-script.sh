# Session 17, call 10 (nvidia-h100-x1): the csr-thread CG iteration with its dot products fused
# into the SpMV's reduction (spmv.fused_dots true, the default) against a plain SpMV then one
# reduction (false), interleaved: the four stand-ins (natural order), the large case permuted (2
# rounds each), and the large case reordered by labelprop (1 round); and test_cg_solver.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=index,name,temperature.gpu --format=csv,noheader
timeout 120 $B/test_cg_solver > $OUT/test_cg_solver.log 2>&1; echo "test_cg_solver rc=$?"; tail -1 $OUT/test_cg_solver.log
C="--quiet --set spmv.transactions=false --set spmv.timing_repeats=20"
run() {  # name deck fused round extra...
  local n=$1 d=$2 f=$3 r=$4; shift 4
  timeout 170 $B/mdremap cg inputs/cg_$d.yaml $C --set spmv.fused_dots=$f --summary $OUT/$n-$f-r$r.json "$@" > /dev/null 2>&1 || echo "$n $f r$r failed"
}
for r in 1 2; do
  for m in offshore parabolic_fem apache2 ecology2; do for f in true false; do run $m $m $f $r --set solver.repeats=3; done; done
  for f in true false; do run large large $f $r --set solver.repeats=1; done
done
for f in true false; do run large-labelprop large $f 1 --set solver.repeats=1 --reorder labelprop; done
cd $OUT && python3 - <<'PY'
import json, glob, statistics
from collections import defaultdict
it = defaultdict(list); sp = {}
for f in sorted(glob.glob("*.json")):
    n, fused, r = f[:-5].rsplit("-", 2)
    d = json.load(open(f)); it[(n, fused)].append(d["time_per_iteration_ms"]); sp[n] = d["spmv"]["time_ms"]
print(f"{'case':18s} {'fused ms/it':>12s} {'unfused ms/it':>14s} {'unfused/fused':>14s} {'SpMV ms':>8s}  rounds")
for n in sorted({k[0] for k in it}):
    a, b = statistics.median(it[(n, "true")]), statistics.median(it[(n, "false")])
    print(f"{n:18s} {a:12.4f} {b:14.4f} {b / a:14.3f} {sp[n]:8.4f}  {it[(n,'true')]} {it[(n,'false')]}")
PY
tar czf call10-summaries.tgz *.json test_cg_solver.log && rm -f *.json test_cg_solver.log

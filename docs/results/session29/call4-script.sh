# Session 29, call 4 (nvidia-h100-x1): the large case (16.8M rows) natural and permuted (sell,
# sell+labelprop, auto), 3 interleaved rounds, with the GPU's clocks, power and throttle reasons
# logged each second (call 2's two rounds differed by 50% on the same variant).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv -l 1 > $w/clocks.csv 2>&1 &
mon=$!
mkdir -p $w/large $w/s
CG_CASES="large" CG_LARGE_ORDERS="natural permuted" CG_VARIANTS="sell sell+labelprop auto" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" CG_LARGE_EXTRA="" \
  timeout 300 bash tools/cg-bench.sh $B/mdremap $w/large > $w/large/cg-bench.log 2>&1
echo "large rc=$?"
kill $mon
grep -E "best CG|whole solve|auto \(|auto least" $w/large/cg.txt | head -10
tar xzf $w/large/cg-summaries.tgz -C $w/s
python3 - $w/s <<'PY'
import json, glob, sys
for f in sorted(glob.glob(sys.argv[1] + "/large.*.json*")):
    s = json.load(open(f))
    if "setup" not in s: continue
    st = s["setup"]
    print(f"{f.split('/')[-1]:36s} set-up {1e3*st['spmv_setup_seconds']:7.1f} reorder {1e3*st.get('reorder_seconds',0):6.1f} solve {1e3*s['first_solve_total_seconds']:7.1f} ms/it {s['time_per_iteration_ms']:.4f}")
PY
awk -F, 'NR>1 {print $2,$3,$4,$5,$6}' $w/clocks.csv | sort | uniq -c | sort -rn | head -12
tar czf $OUT/call4.tgz -C $w .

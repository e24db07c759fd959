# Session 21, call 1 (nvidia-h100-x1): session 20's last build, never run on a GPU (the
# DeviceCsr::allocate refactor, the warm-up's grid made on the device). GPU tests, then the
# stand-ins natural and permuted with sell, cusparse, sell+labelprop and auto, 3 interleaved rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_solver test_cg_spmv test_remap_strategies; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -3
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
for c in parabolic_fem offshore apache2; do for perm in false true; do
  echo "== $c permute=$perm auto"
  $B/mdremap cg inputs/cg_$c.yaml --set matrix.permute=$perm --remap auto --set spmv.timing_repeats=0 --set spmv.transactions=false --summary $w/$c.$perm.auto.json 2>&1 | grep -E "^# warm-up|^# reorder|^# auto|^    |^Time" | cut -c1-400
done; done
mkdir -p $w/stand
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell cusparse sell+labelprop auto" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 260 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E ": (whole solve|auto) " $w/stand/cg.txt
tar czf $OUT/call1.tgz -C $w .

# Session 20, call 9 (nvidia-h100-x1): after the fix of reorder auto (it had also run the host's
# partition order first, untimed in its whole solve: calls 3-8's auto figures are void). Tests;
# the stand-ins natural and permuted with sell, cusparse, sell+labelprop and auto, 3 rounds; the
# large case natural and permuted with auto, whole solves.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
timeout 200 $B/test_cg_solver > $w/test_cg_solver.log 2>&1; echo "test_cg_solver rc=$?"; grep -E "PASSED|FAILED" $w/test_cg_solver.log | head -3
timeout 120 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/stand
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell cusparse sell+labelprop auto" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=100 CG_EXTRA="--set spmv.transactions=false" \
  timeout 300 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E ": (whole solve|auto) " $w/stand/cg.txt
tar czf $OUT/call9-stand.tgz -C $w .
for o in permuted natural; do
  echo "== large $o auto"
  $B/mdremap cg inputs/cg_large.yaml --set matrix.permute=$([[ $o == permuted ]] && echo true || echo false) --remap auto --set spmv.timing_repeats=0 --set spmv.transactions=false --summary $w/large.$o.auto.json 2>&1 | grep -E "^# reorder|^Time" | cut -c1-300
  python3 -c "import json;d=json.load(open('$w/large.$o.auto.json'));s=d['setup'];print('whole (set-up + first solve) ms:', round(1e3*(s['spmv_setup_seconds']+s['reorder_seconds']+d['first_solve_total_seconds']),1))"
done
tar czf $OUT/call9-large.tgz -C $w large.permuted.auto.json large.natural.auto.json

# Session 21, call 11 (nvidia-h100-x1): after the review's clean-up (the kept note written when
# asked for, the saving and cost in one place, the warm-up's steps straightened): the GPU tests
# and auto on three permuted stand-ins once each (the decisions as before).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
for t in test_cg_solver test_cg_spmv; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
for c in offshore parabolic_fem large; do
  echo "== $c permuted auto"
  timeout 120 $B/mdremap cg inputs/cg_$c.yaml --set matrix.permute=true --remap auto --set spmv.timing_repeats=0 --set spmv.transactions=false --summary $w/$c.auto.json 2>&1 | grep -E "^# warm-up|^Converged|^Time" | cut -c1-400
  python3 -c "import json;print(json.load(open('$w/$c.auto.json'))['setup']['reorder_note'][:420])"
done
tar czf $OUT/call11.tgz -C $w .

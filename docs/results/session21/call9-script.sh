# Session 21, call 9 (nvidia-h100-x1): the final build (the two reorder paths sharing one step):
# the GPU tests, and auto on the permuted stand-ins and the large permuted case once each.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_solver test_cg_spmv test_remap_strategies; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
for c in offshore apache2 parabolic_fem ecology2 large; do
  echo "== $c permuted auto"
  timeout 120 $B/mdremap cg inputs/cg_$c.yaml --set matrix.permute=true --remap auto --set spmv.timing_repeats=0 --set spmv.transactions=false --summary $w/$c.auto.json 2>&1 | grep -E "^    auto: |^Converged|^Time" | cut -c1-400
done
tar czf $OUT/call9.tgz -C $w .

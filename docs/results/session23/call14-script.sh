# Session 23, call 14 (nvidia-h100-x1): the final build after the review's fixes: GPU tests, and
# auto on the four stand-ins natural with spmv.fused_dots true (measured in the waiting loop).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_solver test_cg_spmv; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
for m in offshore parabolic_fem apache2 ecology2; do
  timeout 60 $B/mdremap cg inputs/cg_$m.yaml --quiet --remap auto --set spmv.fused_dots=true --set spmv.transactions=false \
    --summary $w/$m.fused.json >/dev/null 2>&1; echo "$m fused_dots auto rc=$?"
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('  ', d['remap']['strategy'], 'lagged_from', d['solver']['lagged_from'], 'iterations', d['iterations'], 'rel.err %.2e' % d['relative_error'])" $w/$m.fused.json
done
tar czf $OUT/call14.tgz -C $w .

# Session 19, call 6 (nvidia-h100-x1): sell's set-up without the zero fills and with one wait
# fewer: the CG GPU tests and the CLI test; the four stand-ins natural and permuted with sell,
# cusparse and auto, 3 interleaved rounds (sell's set-up phases in its describe); all tarred.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $OUT/$t.log | head -5
done
timeout 120 bash tests/cg/test_cg_cli.sh $B/mdremap > $OUT/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $OUT/test_cg_cli.log
w=$(mktemp -d)
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell cusparse auto" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=100 CG_EXTRA="--set spmv.transactions=false" \
  timeout 300 bash tools/cg-bench.sh $B/mdremap $w > $w/cg-bench.log 2>&1
echo "rc=$?"
grep -E ": (whole solve|auto) " $w/cg.txt
grep -oh "built in [^;)]*" $w/../*/summaries/*.sell.json* 2>/dev/null | head -3
tar czf $OUT/call6-cg.tgz -C $w .

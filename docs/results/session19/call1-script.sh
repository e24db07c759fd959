# Session 19, call 1 (nvidia-h100-x1): the persisting-L2 window (spmv.l2_persist) on sell and
# cuSPARSE, sell's set-up with a warp per slice, auto's later candidates set up beside the solve:
# the CG GPU tests and the CLI test, then every stand-in natural and permuted with sell, sell-l2,
# cusparse, cusparse-l2 and auto, 3 interleaved rounds (whole-solve medians), CuPy's cg beside.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
$B/mdremap info 2>&1 | head -8
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $OUT/$t.log | head -5
done
timeout 200 bash tests/cg/test_cg_cli.sh $B/mdremap > $OUT/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -3 $OUT/test_cg_cli.log
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell sell-l2 cusparse cusparse-l2 auto" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=100 CG_EXTRA="--set spmv.transactions=false" \
  timeout 420 bash tools/cg-bench.sh $B/mdremap $OUT > $OUT/cg-bench.log 2>&1
echo "rc=$?"
grep -E ": (best own|whole solve|auto|best CG)" $OUT/cg.txt
grep -o '"describe": "[^"]*window[^"]*"' -r /dev/null $OUT 2>/dev/null | head -2

# Session 19, call 2 (nvidia-h100-x1): sell's set-up timed by phase (describe), the layer's auto's
# construction timed, auto with its later candidates set up beside the solve (default) and on the
# solve's thread (remap.setup_beside=false, "auto-serial"), 3 interleaved rounds on offshore and
# apache2 (natural and permuted), where auto was furthest from the best in call 1; the CG GPU tests.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $OUT/$t.log | head -5
done
CG_CASES="offshore apache2" CG_ORDERS="natural permuted" CG_VARIANTS="sell cusparse auto auto-serial" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=100 CG_EXTRA="--set spmv.transactions=false" \
  timeout 300 bash tools/cg-bench.sh $B/mdremap $OUT > $OUT/cg-bench.log 2>&1
echo "rc=$?"
grep -E ": (whole solve|auto|auto-serial) " $OUT/cg.txt
grep -E "^(offshore|apache2) .*(sell|auto)" $OUT/cg.txt

# Session 19, call 4 (nvidia-h100-x1): call 3's small-case table lost (more files than come back);
# again on offshore and apache2 (where auto was furthest from the best), with auto in the lagged
# loop and waiting, the summaries now saying from which iteration the lagged loop ran; 3
# interleaved rounds; everything tarred into one file.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
timeout 200 $B/test_cg_solver > $OUT/test_cg_solver.log 2>&1; echo "test_cg_solver rc=$?"; grep -E "PASSED|FAILED" $OUT/test_cg_solver.log | head -5
w=$(mktemp -d)
CG_CASES="offshore apache2" CG_ORDERS="natural permuted" CG_VARIANTS="sell sell-wait cusparse cusparse-wait auto auto-wait" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=100 CG_EXTRA="--set spmv.transactions=false" \
  timeout 300 bash tools/cg-bench.sh $B/mdremap $w > $w/cg-bench.log 2>&1
echo "rc=$?"
grep -E ": (whole solve|auto|auto-wait) " $w/cg.txt
grep -E "^(offshore|apache2) " $w/cg.txt
tar czf $OUT/call4-cg.tgz -C $w .

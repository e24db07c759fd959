# Session 19, call 3 (nvidia-h100-x1): CG's lagged loop (the recurrence's scalars on the device,
# each iteration's convergence test read one iteration late; solver.wait_each_iteration=false,
# the default) against the waiting loop (-wait variants) in the same rounds; auto set up serially
# again. CG GPU tests; the four stand-ins natural and permuted, 3 interleaved rounds; the large
# case natural and permuted, 1 round; CuPy's cg beside each.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $OUT/$t.log | head -5
done
timeout 120 bash tests/cg/test_cg_cli.sh $B/mdremap > $OUT/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $OUT/test_cg_cli.log
mkdir -p $OUT/small $OUT/large
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell sell-wait cusparse cusparse-wait csr-warp auto" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=100 CG_EXTRA="--set spmv.transactions=false" \
  timeout 330 bash tools/cg-bench.sh $B/mdremap $OUT/small > $OUT/small/cg-bench.log 2>&1
echo "small rc=$?"
grep -E ": (whole solve|auto|best CG) " $OUT/small/cg.txt
CG_CASES="large" CG_LARGE_ORDERS="natural permuted" CG_VARIANTS="sell sell-wait cusparse" \
  CG_ROUNDS=1 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" \
  timeout 200 bash tools/cg-bench.sh $B/mdremap $OUT/large > $OUT/large/cg-bench.log 2>&1
echo "large rc=$?"
grep -E "^large|: (whole solve|best CG) " $OUT/large/cg.txt

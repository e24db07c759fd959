# Session 18, call 8 (nvidia-h100-x1): issue 12's table with the new sell kernel: every stand-in,
# natural and permuted, sell / gather / csr-warp / cuSPARSE / auto (which now measures sell
# first), 3 interleaved rounds (whole-solve medians), CuPy's cg beside; the CG tests first.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $OUT/$t.log | head -5
done
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell gather csr-warp cusparse auto" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=100 CG_EXTRA="--set spmv.transactions=false" \
  timeout 480 bash tools/cg-bench.sh $B/mdremap $OUT > $OUT/cg-bench.log 2>&1
echo "rc=$?"
grep -vE "^(apache2|ecology2|offshore|parabolic_fem) " $OUT/cg.txt | head -60
grep -E " (sell|auto|cusparse) " $OUT/cg.txt | head -30

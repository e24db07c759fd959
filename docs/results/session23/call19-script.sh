# Session 23, call 19 (nvidia-h100-x1): the final build (call 18's; as call 11: auto measured in the lagged
# loop within its budget; sell's fused kernel on one resident grid, its slices walked by
# pointers). GPU tests; the large case natural (sell, sell with the dots after, cuSPARSE, auto;
# 2 rounds) and the stand-ins natural and permuted (sell, sell with the dots after, cuSPARSE,
# csr-warp, auto, sell with labelprop before the solve; 3 rounds), CuPy in the same run.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_solver test_cg_spmv; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/large $w/stand
CG_CASES="large" CG_LARGE_ORDERS="natural" CG_VARIANTS="sell sell-after cusparse auto" \
  CG_ROUNDS=2 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" CG_LARGE_EXTRA="" \
  timeout 200 bash tools/cg-bench.sh $B/mdremap $w/large > $w/large/cg-bench.log 2>&1
echo "large rc=$?"
grep -E "^(large|  )" $w/large/cg.txt | head -40
tar czf $OUT/call19-large.tgz -C $w large test_cg_solver.log test_cg_spmv.log test_cg_cli.log
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell sell-after cusparse csr-warp auto sell+labelprop" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 280 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E "best own SpMV|: (whole solve|auto) |best CG iteration" $w/stand/cg.txt
grep -iE "abort|illegal" $w/stand/cg-bench.log | head -3
tar czf $OUT/call19-stand.tgz -C $w stand

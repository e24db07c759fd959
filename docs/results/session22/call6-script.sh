# Session 22, call 6 (nvidia-h100-x1): the final build. sell's fused dot products summed per
# block in two levels (call 4's form; call 5's per-warp partials were slower), against the
# reduction after the SpMV (-after); auto in the lagged loop once every kernel is measured; the
# layer's decided strategies in the lagged loop too; cuSPARSE and CuPy in the same rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_solver test_cg_spmv; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/large $w/stand
CG_CASES="large" CG_LARGE_ORDERS="natural" CG_VARIANTS="sell sell-after cusparse" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" CG_LARGE_EXTRA="" \
  timeout 200 bash tools/cg-bench.sh $B/mdremap $w/large > $w/large/cg-bench.log 2>&1
echo "large rc=$?"
grep -E "^(large|  )" $w/large/cg.txt | head -40
tar czf $OUT/call6-large.tgz -C $w large test_cg_solver.log test_cg_spmv.log test_cg_cli.log
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell sell-after cusparse auto" \
  CG_ROUNDS=4 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 300 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E ": (whole solve|auto) |best CG iteration" $w/stand/cg.txt
grep -iE "abort|illegal" $w/stand/cg-bench.log | head -3
tar czf $OUT/call6-stand.tgz -C $w stand

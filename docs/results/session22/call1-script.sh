# Session 22, call 1 (nvidia-h100-x1): sell with the CG iteration's dot products in its kernel
# (spmv.sell_fused_dots, default true) and x written every second iteration (solver.defer_x,
# default true), against the same build with either or both off (-after, -xeach), cuSPARSE and
# CuPy in the same rounds. GPU tests first.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_solver test_cg_spmv; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
mkdir -p $w/large $w/stand
CG_CASES="large" CG_LARGE_ORDERS="natural" CG_VARIANTS="sell sell-after-xeach sell-after sell-xeach cusparse" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" CG_LARGE_EXTRA="" \
  timeout 240 bash tools/cg-bench.sh $B/mdremap $w/large > $w/large/cg-bench.log 2>&1
echo "large rc=$?"
grep -E "^(large|  )" $w/large/cg.txt | head -40
tar czf $OUT/call1-large.tgz -C $w large test_cg_solver.log test_cg_spmv.log
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell sell-after-xeach cusparse auto" \
  CG_ROUNDS=5 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 280 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E ": (whole solve|auto) |best CG iteration" $w/stand/cg.txt
tar czf $OUT/call1-stand.tgz -C $w stand

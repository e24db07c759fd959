# Session 22, call 3 (nvidia-h100-x1): as call 2, the last block summing the partials 4 loads at a time (call 2: one at a time, a tail at 16.8M rows); sell's dot products in its own kernel through a CUDA
# block reduction (cg/slot_reduction.hpp) instead of Kokkos' team-policy reduction (call 1: 1.46x
# slower, and it read past the last slice where the slices are not a multiple of 8), against the
# reduction after the SpMV (-after) and x every iteration (-xeach); cuSPARSE and CuPy in the same
# rounds. GPU tests first.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_solver test_cg_spmv; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/large $w/stand
CG_CASES="large" CG_LARGE_ORDERS="natural" CG_VARIANTS="sell sell-after sell-after-xeach cusparse" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" CG_LARGE_EXTRA="" \
  timeout 200 bash tools/cg-bench.sh $B/mdremap $w/large > $w/large/cg-bench.log 2>&1
echo "large rc=$?"
grep -E "^(large|  )" $w/large/cg.txt | head -40
tar czf $OUT/call3-large.tgz -C $w large test_cg_solver.log test_cg_spmv.log test_cg_cli.log
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell sell-after sell-after-xeach cusparse auto" \
  CG_ROUNDS=4 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 300 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E ": (whole solve|auto) |best CG iteration" $w/stand/cg.txt
grep -iE "abort|illegal" $w/stand/cg-bench.log | head -3
tar czf $OUT/call3-stand.tgz -C $w stand

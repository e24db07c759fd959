# Session 27, call 9 (nvidia-h100-x1): the final code (after the review's mends): GPU tests of
# the CG solver, SpMV and CLI; parabolic_fem, apache2 and offshore permuted with auto, sell and
# sell+labelprop, 3 interleaved rounds (a check that the decisions stand).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/stand
CG_CASES="parabolic_fem apache2 offshore" CG_ORDERS="permuted" CG_VARIANTS="sell sell+labelprop auto" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" \
  timeout 200 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand rc=$?"
grep -E "whole solve \(|auto \(" $w/stand/cg.txt | head -12
tar czf $OUT/call9.tgz -C $w .

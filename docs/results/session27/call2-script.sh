# Session 27, call 2 (nvidia-h100-x1): auto's reorder over the bracketed iterations (central
# estimate) from the 8th iteration, the saving of the iteration's SpMV part. GPU tests of the CG
# solver and CLI, then the four stand-ins natural and permuted, 5 interleaved rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
timeout 200 $B/test_cg_solver > $w/test_cg_solver.log 2>&1; echo "test_cg_solver rc=$?"; grep -E "PASSED|FAILED" $w/test_cg_solver.log | head -5
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/stand
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_VARIANTS="sell sell-offsets sell+labelprop cusparse csr-warp auto" \
  CG_ROUNDS=5 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 400 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand rc=$?"
grep -E "whole solve|auto \(" $w/stand/cg.txt | grep -E "auto" | head -20
tar czf $OUT/call2.tgz -C $w .

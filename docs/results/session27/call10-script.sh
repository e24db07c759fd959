# Session 27, call 10 (nvidia-h100-x1): the exploration budget counting the iterations launched
# but not read yet. GPU tests of the CG solver and CLI; offshore permuted and natural (auto, sell,
# sell-offsets, cusparse) 5 interleaved rounds; parabolic_fem and apache2 permuted (auto, sell,
# sell+labelprop) 3 rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
timeout 200 $B/test_cg_solver > $w/test_cg_solver.log 2>&1; echo "test_cg_solver rc=$?"; grep -E "PASSED|FAILED" $w/test_cg_solver.log | head -5
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/off $w/perm
CG_CASES="offshore" CG_VARIANTS="sell sell-offsets cusparse auto" \
  CG_ROUNDS=5 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" \
  timeout 150 bash tools/cg-bench.sh $B/mdremap $w/off > $w/off/cg-bench.log 2>&1
echo "off rc=$?"
grep -E "whole solve \(|auto \(" $w/off/cg.txt | head -12
CG_CASES="parabolic_fem apache2" CG_ORDERS="permuted" CG_VARIANTS="sell sell+labelprop auto" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" \
  timeout 150 bash tools/cg-bench.sh $B/mdremap $w/perm > $w/perm/cg-bench.log 2>&1
echo "perm rc=$?"
grep -E "whole solve \(|auto \(" $w/perm/cg.txt | head -12
tar czf $OUT/call10.tgz -C $w .

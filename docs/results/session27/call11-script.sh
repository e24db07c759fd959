# Session 27, call 11 (nvidia-h100-x1): the final CG code (call 6 plus the review's mends and the exploration budget counting unread iterations; auto's reorder over the
# bracketed iterations from 16 residuals on, the SpMV part's saving, csr-warp first where x is
# past the L2 and the matrix scattered). GPU tests of the solver and CLI; the four stand-ins
# natural and permuted, 5 interleaved rounds; the large case natural and permuted, 2 rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
timeout 200 $B/test_cg_solver > $w/test_cg_solver.log 2>&1; echo "test_cg_solver rc=$?"; grep -E "PASSED|FAILED" $w/test_cg_solver.log | head -5
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/stand $w/large
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_VARIANTS="sell sell-offsets sell+labelprop cusparse csr-warp auto" \
  CG_ROUNDS=5 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 300 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand rc=$?"
grep -E "auto \(" $w/stand/cg.txt | head -20
CG_CASES="large" CG_LARGE_ORDERS="natural permuted" CG_VARIANTS="sell sell+labelprop auto" \
  CG_ROUNDS=2 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" CG_LARGE_EXTRA="" \
  timeout 200 bash tools/cg-bench.sh $B/mdremap $w/large > $w/large/cg-bench.log 2>&1
echo "large rc=$?"
grep -E "best CG|whole solve|auto \(" $w/large/cg.txt | head -10
tar czf $OUT/call11.tgz -C $w .

# Session 19, call 7 (nvidia-h100-x1): the lagged loop for Jacobi-preconditioned CG: the CG GPU
# tests and the CLI test; parabolic_fem and apache2 natural with Jacobi, sell and cuSPARSE, lagged
# and waiting, 3 interleaved rounds (CuPy's cg beside is unpreconditioned: not a peer here).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $OUT/$t.log | head -5
done
timeout 120 bash tests/cg/test_cg_cli.sh $B/mdremap > $OUT/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $OUT/test_cg_cli.log
w=$(mktemp -d)
CG_CASES="parabolic_fem apache2" CG_ORDERS="natural" CG_VARIANTS="sell sell-wait cusparse cusparse-wait" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false --set solver.preconditioner=jacobi" \
  timeout 240 bash tools/cg-bench.sh $B/mdremap $w > $w/cg-bench.log 2>&1
echo "rc=$?"
grep -E "^(parabolic_fem|apache2) " $w/cg.txt
grep -E ": whole solve" $w/cg.txt
tar czf $OUT/call7-cg.tgz -C $w .

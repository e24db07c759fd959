# Session 22, call 7 (nvidia-h100-x1): the final build (the warm-up's reorder timing skipped where
# a generator's natural order cannot be scattered). GPU tests, then auto against sell and
# cuSPARSE on the natural stand-ins, 4 interleaved rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_solver test_cg_spmv; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/stand
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural" CG_VARIANTS="sell cusparse auto" \
  CG_ROUNDS=4 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" \
  timeout 200 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E ": (whole solve|auto) " $w/stand/cg.txt
tar czf $OUT/call7.tgz -C $w stand test_cg_solver.log test_cg_spmv.log test_cg_cli.log

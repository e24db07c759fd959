# Session 22, call 8 (nvidia-h100-x1): the final build (auto's kernels measured in turn). GPU
# tests, then auto against sell on the stand-ins, 4 interleaved rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_solver test_cg_spmv; do
  timeout 100 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
mkdir -p $w/stand
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell auto" \
  CG_ROUNDS=4 CG_SOLVES=1 CG_SPMV_REPS=10 CG_EXTRA="--set spmv.transactions=false" \
  timeout 150 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E ": auto " $w/stand/cg.txt
tar czf $OUT/call8.tgz -C $w stand test_cg_solver.log test_cg_spmv.log

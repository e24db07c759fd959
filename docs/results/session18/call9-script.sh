# Session 18, call 9 (nvidia-h100-x1): the large case (laplace3d 256^3, 16.8M rows; its vector
# exceeds the L2), natural and permuted: sell / gather / cuSPARSE whole CG solves and SpMV, CuPy's
# cg beside (one round).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
CG_CASES="large" CG_LARGE_ORDERS="natural permuted" CG_VARIANTS="sell gather cusparse" \
  CG_ROUNDS=1 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 560 bash tools/cg-bench.sh $B/mdremap $OUT > $OUT/cg-bench.log 2>&1
echo "rc=$?"
cat $OUT/cg.txt

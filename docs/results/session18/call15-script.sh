# Session 18, call 15 (nvidia-h100-x1): the large case (16.8M rows), natural and permuted, with
# the final build: sell / cuSPARSE / auto whole solves, 2 interleaved rounds, CuPy's cg beside.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
CG_CASES="large" CG_LARGE_ORDERS="natural permuted" CG_VARIANTS="sell cusparse auto" \
  CG_ROUNDS=2 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 560 bash tools/cg-bench.sh $B/mdremap $OUT > $OUT/cg-bench.log 2>&1
echo "rc=$?"
cat $OUT/cg.txt

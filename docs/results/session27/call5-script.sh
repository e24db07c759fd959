# Session 27, call 5 (nvidia-h100-x1): the large case (16.8M rows) natural and permuted with this
# session's auto (the reorder over the bracketed iterations), against sell / sell+labelprop and
# CuPy; 2 interleaved rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
mkdir -p $w/large
CG_CASES="large" CG_LARGE_ORDERS="natural permuted" CG_VARIANTS="sell sell+labelprop auto" \
  CG_ROUNDS=2 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" CG_LARGE_EXTRA="" \
  timeout 560 bash tools/cg-bench.sh $B/mdremap $w/large > $w/large/cg-bench.log 2>&1
echo "large rc=$?"
grep -E "^large|best CG|whole solve|auto \(" $w/large/cg.txt | head -30
tar czf $OUT/call5.tgz -C $w .

# Session 20, call 5 (nvidia-h100-x1): the large case (16.8M rows, 3D 7-point), natural and
# permuted, with sell, cusparse, sell+labelprop and auto, 2 interleaved rounds, CuPy beside.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
mkdir -p $w/large
CG_CASES="large" CG_LARGE_ORDERS="natural permuted" CG_VARIANTS="sell cusparse sell+labelprop auto" \
  CG_ROUNDS=2 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" \
  timeout 570 bash tools/cg-bench.sh $B/mdremap $w/large > $w/large/cg-bench.log 2>&1
echo "large rc=$?"
grep -E ": (whole solve|auto|best CG|best own) " $w/large/cg.txt
tar czf $OUT/call5.tgz -C $w .

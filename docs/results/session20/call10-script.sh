# Session 20, call 10 (nvidia-h100-x1): the final build (reorder auto without the host's
# partition order; the warm-up's reorder on a grid made on the device). The stand-ins natural and
# permuted with sell, cusparse, sell+labelprop and auto, 2 interleaved rounds (the device time left).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
$B/mdremap cg inputs/cg_parabolic_fem.yaml --remap auto --set spmv.timing_repeats=0 2>&1 | grep -E "^# warm-up|^# reorder|^Time" | cut -c1-300
mkdir -p $w/stand
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell cusparse sell+labelprop auto" \
  CG_ROUNDS=2 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 200 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E ": (whole solve|auto) " $w/stand/cg.txt
tar czf $OUT/call10.tgz -C $w .

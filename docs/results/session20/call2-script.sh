# Session 20, call 2 (nvidia-h100-x1): the device reorder after its fixes (picks before
# numbering, gap seeds, phase times, its kernels in the warm-up). Tests; each permuted stand-in
# with sell+labelprop at clusters of 32, 64, 128 (default) and 256 rows (the reorder's phases and
# the SpMV); then the permuted stand-ins with sell, cusparse, sell+labelprop and auto, 3 rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
for t in test_remap_strategies test_cg_solver; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 120 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
for m in offshore parabolic_fem apache2 ecology2; do
  for bl in 32 64 128 256; do
    echo "== $m block $bl"
    $B/mdremap cg inputs/cg_$m.yaml --set matrix.permute=true --reorder labelprop --spmv sell --set remap.block=$bl --set spmv.timing_repeats=100 2>&1 | grep -E "^# reorder|^# warm-up|^Time|^SpMV" | cut -c1-420
  done
done 2>&1 | tee $w/reorder-blocks.txt
mkdir -p $w/stand
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="permuted" CG_VARIANTS="sell cusparse sell+labelprop auto" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=100 CG_EXTRA="--set spmv.transactions=false" \
  timeout 240 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E ": (whole solve|auto|best CG|best own) " $w/stand/cg.txt
tar czf $OUT/call2.tgz -C $w .

# Session 20, call 3 (nvidia-h100-x1): the reorder with CUB's radix sort over the keys' bits and
# buffers kept across levels, and remap.reorder auto (the default of --remap auto). Tests; the
# reorder's phases on each permuted stand-in; then every stand-in natural and permuted with sell,
# cusparse, sell+labelprop and auto, 3 interleaved rounds, CuPy beside.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
for t in test_remap_strategies test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 120 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
for m in offshore parabolic_fem apache2 ecology2; do
  echo "== $m permuted, sell+labelprop; then auto"
  $B/mdremap cg inputs/cg_$m.yaml --set matrix.permute=true --reorder labelprop --spmv sell --set spmv.timing_repeats=100 2>&1 | grep -E "^# reorder|^Time|^SpMV" | cut -c1-420
  $B/mdremap cg inputs/cg_$m.yaml --set matrix.permute=true --remap auto --set spmv.timing_repeats=0 2>&1 | grep -E "^# reorder|^# auto|^Time" | cut -c1-420
done 2>&1 | tee $w/reorder-lines.txt
mkdir -p $w/stand
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell cusparse sell+labelprop auto" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=100 CG_EXTRA="--set spmv.transactions=false" \
  timeout 380 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E ": (whole solve|auto|best CG|best own) " $w/stand/cg.txt
tar czf $OUT/call3.tgz -C $w .

# Session 20, call 1 (nvidia-h100-x1): remap.reorder labelprop on the device. The remap layer's
# graph-order tests, the CG GPU tests and the CLI test; then every stand-in, natural and
# permuted, with sell, cusparse, sell+labelprop (device), sell+labelprop-host and auto, 3
# interleaved rounds, CuPy beside; then the large case permuted (sell, sell+labelprop, cusparse;
# 2 rounds). All outputs tarred into one file.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
for t in test_remap_strategies test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 120 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
for m in offshore ecology2; do
  $B/mdremap cg inputs/cg_$m.yaml --set matrix.permute=true --reorder labelprop --spmv sell 2>&1 | grep -E "^# reorder|^# spmv|^Conv|^Time|^SpMV" | cut -c1-400
done
mkdir -p $w/stand
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell cusparse sell+labelprop sell+labelprop-host auto" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=100 CG_EXTRA="--set spmv.transactions=false" \
  timeout 330 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E ": (whole solve|auto|best CG|best own) " $w/stand/cg.txt
mkdir -p $w/large
CG_CASES="large" CG_LARGE_ORDERS="permuted" CG_VARIANTS="sell sell+labelprop cusparse" \
  CG_ROUNDS=2 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" \
  timeout 150 bash tools/cg-bench.sh $B/mdremap $w/large > $w/large/cg-bench.log 2>&1
echo "large rc=$?"
grep -E ": (whole solve|auto|best CG|best own) " $w/large/cg.txt
tar czf $OUT/call1.tgz -C $w .

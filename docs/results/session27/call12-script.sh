# Session 27, call 12 (nvidia-h100-x1): after the re-read (the warm-up's non-SpMV part at the remap
# layer's probed copy bandwidth): GPU tests of the CG solver and CLI; parabolic_fem and apache2
# permuted, auto against sell / sell+labelprop, 2 interleaved rounds (the decisions stand).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
timeout 200 $B/test_cg_solver > $w/test_cg_solver.log 2>&1; echo "test_cg_solver rc=$?"; grep -E "PASSED|FAILED" $w/test_cg_solver.log | head -5
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/perm
CG_CASES="parabolic_fem apache2" CG_ORDERS="permuted" CG_VARIANTS="sell sell+labelprop auto" \
  CG_ROUNDS=2 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" \
  timeout 150 bash tools/cg-bench.sh $B/mdremap $w/perm > $w/perm/cg-bench.log 2>&1
echo "perm rc=$?"
grep -E "auto \(|auto least" $w/perm/cg.txt | head -6
tar czf $OUT/call12.tgz -C $w .

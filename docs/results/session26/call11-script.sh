# Session 26, call 11 (nvidia-h100-x1): the GPU tests of the re-read (one add() for the three column loops, find() in the fill, one MinMax); before it, call 10 after the review (the
# fill's dropped-entry count, the refusal on plain slices, the warm-up's sell options), and the
# large case natural once more (sell, auto, CuPy; 1 round).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/large
CG_CASES="large" CG_LARGE_ORDERS="natural" CG_VARIANTS="sell auto" \
  CG_ROUNDS=1 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" CG_LARGE_EXTRA="" \
  timeout 150 bash tools/cg-bench.sh $B/mdremap $w/large > $w/large/cg-bench.log 2>&1
echo "large rc=$?"
grep -E "best CG|auto \(" $w/large/cg.txt | head -5
tar czf $OUT/call11.tgz -C $w .

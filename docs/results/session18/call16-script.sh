# Session 18, call 16 (nvidia-h100-x1): after the re-read (sell's bases in its 16-bit check pass,
# cg_solve's early ends through one helper): the CG tests on the GPU and sell / auto on offshore
# and ecology2 (that they run and converge, and sell's SpMV time as before: not a benchmark).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $OUT/$t.log | head -5
done
for m in offshore ecology2; do for k in "--spmv sell" "--remap auto"; do
  timeout 120 $B/mdremap cg inputs/cg_$m.yaml $k --set spmv.transactions=false --set spmv.timing_repeats=100 2>&1 | grep -E "^Converged|^NOT|^SpMV|error" | head -3
done; done

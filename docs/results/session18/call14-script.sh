# Session 18, call 14 (nvidia-h100-x1): the final build after the review's fixes (sell's refusal
# of a format past four times the matrix, auto going on without a failed candidate, the warm-up's
# thread creation guarded): the CG tests on the GPU, and auto on two stand-ins (that it runs,
# converges and chooses: not a timing).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $OUT/$t.log | head -5
done
for m in offshore ecology2; do
  timeout 120 $B/mdremap cg inputs/cg_$m.yaml --remap auto --set spmv.transactions=false 2>&1 | grep -E "^Converged|^NOT|^# warm-up|^SpMV|error" | head -4
done

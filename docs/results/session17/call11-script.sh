# Session 17, call 11 (nvidia-h100-x1): the final build's CG tests on the GPU (dots after the
# SpMV by default; auto keeps the fused reduction until it decides), and auto and the kernel-level
# auto on two stand-ins, one run each (that they run and converge: not a timing).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for t in test_cg_solver test_cg_spmv; do timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; tail -1 $OUT/$t.log; done
for m in offshore ecology2; do for r in "--remap auto --spmv csr-thread" "--remap auto"; do
  timeout 120 $B/mdremap cg inputs/cg_$m.yaml --set spmv.transactions=false $r 2>&1 | grep -E "^Converged|^NOT|^Remap|error" | head -3
done; done

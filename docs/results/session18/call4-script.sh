# Session 18, call 4 (nvidia-h100-x1): issue 12's whole-solve table with the warm-up and auto's
# changes (calls 1-3): set-up + the whole first solve, auto against the fixed kernels on the four
# stand-ins, natural and permuted, 3 interleaved rounds (medians); CuPy's cg beside.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="gather csr-warp cusparse auto" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=100 CG_EXTRA="--set spmv.transactions=false" \
  timeout 560 bash tools/cg-bench.sh $B/mdremap $OUT > $OUT/cg-bench.log 2>&1
echo "rc=$?"
grep -E "whole solve|auto|CuPy|cupy" $OUT/cg.txt | head -40

# Session 17, call 12 (nvidia-h100-x1): issue 12's whole-solve table (set-up + first solve) with
# the final build (CG's dots after the SpMV by default): auto against the fixed kernels on the
# four stand-ins, natural and permuted, 2 interleaved rounds; CuPy's cg beside.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="gather csr-warp cusparse auto" \
  CG_ROUNDS=2 CG_SOLVES=1 CG_SPMV_REPS=100 CG_EXTRA="--set spmv.transactions=false" \
  timeout 540 bash tools/cg-bench.sh $B/mdremap $OUT > $OUT/cg-bench.log 2>&1
echo "rc=$?"
grep -E "whole solve|auto" $OUT/cg.txt | head -30

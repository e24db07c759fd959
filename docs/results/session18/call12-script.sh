# Session 18, call 12 (nvidia-h100-x1): call 11 again after the window sort was made parallel (a thread a row; call 11: a thread a window, which cost offshore milliseconds), the final CG build (sell
# with its sorted windows where the padding exceeds 5%, auto measuring sell first, the warm-up,
# event-timed kernels): every stand-in natural and permuted, sell / sell+labelprop / gather /
# csr-warp / cuSPARSE / auto, 3 interleaved rounds (whole-solve medians), CuPy's cg beside.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $OUT/$t.log | head -5
done
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell sell+labelprop gather csr-warp cusparse auto" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=100 CG_EXTRA="--set spmv.transactions=false" \
  timeout 520 bash tools/cg-bench.sh $B/mdremap $OUT > $OUT/cg-bench.log 2>&1
echo "rc=$?"
grep -E ": (best own|whole solve|auto|best CG)" $OUT/cg.txt

# Session 18, call 10 (nvidia-h100-x1): sell after the label-propagation reorder (seed 001 §3.4;
# --reorder labelprop, its host time counted in the whole solve) against sell and cuSPARSE on the
# natural and permuted stand-ins, one round.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell sell+labelprop cusparse" \
  CG_ROUNDS=1 CG_SOLVES=1 CG_SPMV_REPS=100 CG_EXTRA="--set spmv.transactions=false" \
  timeout 500 bash tools/cg-bench.sh $B/mdremap $OUT > $OUT/cg-bench.log 2>&1
echo "rc=$?"
grep -E " (sell|sell\+labelprop|cusparse) " $OUT/cg.txt
grep -E "best own|whole solve" $OUT/cg.txt

# Session 26, call 9 (nvidia-h100-x1, a fresh machine: call 8's alternated slow and fast rounds): the final build on the four stand-ins natural and
# permuted: sell (diagonal columns), sell without them (sell-offsets), cuSPARSE, csr-warp, auto,
# sell with labelprop before the solve; 3 interleaved rounds, CuPy in the same run.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
mkdir -p $w/stand
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell sell-offsets cusparse csr-warp auto sell+labelprop" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 500 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E "best own SpMV|: (whole solve|auto) |best CG iteration" $w/stand/cg.txt
grep -iE "abort|illegal" $w/stand/cg-bench.log | head -3
tar czf $OUT/call9.tgz -C $w stand

# Session 28, call 7 (nvidia-h100-x1): a second run of call 5's bench on the final code (after the re-read),
# to see how far the medians move from one call to the next: the four stand-ins natural and
# permuted, every variant, 5 interleaved rounds (no tests: call 6 ran them on this build).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
mkdir -p $w/stand $w/large
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_VARIANTS="sell sell-offsets sell+labelprop cusparse csr-warp auto" \
  CG_ROUNDS=5 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 330 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand rc=$?"
grep -E "auto \(|auto least" $w/stand/cg.txt | head -20
tar czf $OUT/call7.tgz -C $w .

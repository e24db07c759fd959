# Session 28, call 4 (nvidia-h100-x1): the final code (sell's cheaper set-up). The four stand-ins
# natural and permuted, every variant, cuSPARSE and CuPy, 5 interleaved rounds; the large case
# natural and permuted (sell, sell+labelprop, auto), 2 rounds. auto against the best variant's
# whole solve (set-up + first solve), medians and least of the rounds (tools/cg-bench.sh).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
mkdir -p $w/stand $w/large
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_VARIANTS="sell sell-offsets sell+labelprop cusparse csr-warp auto" \
  CG_ROUNDS=5 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 330 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand rc=$?"
grep -E "auto \(|auto least" $w/stand/cg.txt | head -20
CG_CASES="large" CG_LARGE_ORDERS="natural permuted" CG_VARIANTS="sell sell+labelprop auto" \
  CG_ROUNDS=2 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" CG_LARGE_EXTRA="" \
  timeout 200 bash tools/cg-bench.sh $B/mdremap $w/large > $w/large/cg-bench.log 2>&1
echo "large rc=$?"
grep -E "best CG|whole solve|auto \(" $w/large/cg.txt | head -10
tar czf $OUT/call4.tgz -C $w .

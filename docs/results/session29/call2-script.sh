# Session 29, call 2 (nvidia-h100-x1): call 1's code with a kernel's measuring judged at no less
# than a kernel just short of the clear-loser limit costs. GPU tests of the SpMV, solver and CLI;
# the four stand-ins natural and permuted, every variant, 5 interleaved rounds, with offshore's
# timelines; the large case natural and permuted (sell, sell+labelprop, auto), 2 rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "^\[  (PASSED|FAILED)" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/stand $w/large $w/s
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_VARIANTS="sell sell-offsets sell+labelprop cusparse csr-warp auto" \
  CG_ROUNDS=5 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 300 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand rc=$?"
grep -E "auto \(|auto least" $w/stand/cg.txt | head -20
tar xzf $w/stand/cg-summaries.tgz -C $w/s
python3 tools/cg-timeline.py $w/s offshore.natural sell sell-offsets cusparse auto
python3 tools/cg-timeline.py $w/s offshore.permuted sell-offsets sell cusparse auto
CG_CASES="large" CG_LARGE_ORDERS="natural permuted" CG_VARIANTS="sell sell+labelprop auto" \
  CG_ROUNDS=2 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" CG_LARGE_EXTRA="" \
  timeout 150 bash tools/cg-bench.sh $B/mdremap $w/large > $w/large/cg-bench.log 2>&1
echo "large rc=$?"
grep -E "best CG|whole solve|auto \(" $w/large/cg.txt | head -10
tar czf $OUT/call2.tgz -C $w .

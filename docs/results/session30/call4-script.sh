# Session 30, call 4 (nvidia-h100-x1): sell's diagonal candidates placed by the lanes and the rows'
# columns loaded into registers before use (the set-up's per-slice kernels). GPU tests of the SpMV,
# solver and CLI; offshore alone, four variants, 15 interleaved rounds; the four stand-ins, six
# variants, 5 rounds; the large case natural and permuted, 3 rounds. Clocks logged each second.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,clocks_throttle_reasons.active --format=csv -l 1 > $w/clocks.csv 2>&1 &
smi=$!
timeout 120 $B/test_cg_spmv > $w/test_cg_spmv.log 2>&1; echo "test_cg_spmv rc=$?"; grep -E "^\[  (PASSED|FAILED)" $w/test_cg_spmv.log | head -5
timeout 120 $B/test_cg_solver > $w/test_cg_solver.log 2>&1; echo "test_cg_solver rc=$?"; grep -E "^\[  (PASSED|FAILED)" $w/test_cg_solver.log | head -5
timeout 120 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/off $w/all $w/large
CG_CASES="offshore" CG_VARIANTS="sell sell-offsets cusparse auto" \
  CG_ROUNDS=15 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 200 bash tools/cg-bench.sh $B/mdremap $w/off > $w/off/cg-bench.log 2>&1
echo "offshore rc=$?"
grep -E "whole solve|auto \(|auto least" $w/off/cg.txt
mkdir -p $w/s && tar xzf $w/off/cg-summaries.tgz -C $w/s
python3 tools/cg-timeline.py $w/s offshore.natural sell sell-offsets cusparse auto
python3 tools/cg-timeline.py $w/s offshore.permuted sell sell-offsets cusparse auto
grep -ho "built in [0-9.]* ms: shape [0-9.]*, allocation [0-9.]*, fill [0-9.]*" $w/s/offshore.*.sell.json* | head -6
rm -rf $w/s
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_VARIANTS="sell sell-offsets sell+labelprop cusparse csr-warp auto" \
  CG_ROUNDS=5 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 260 bash tools/cg-bench.sh $B/mdremap $w/all > $w/all/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E "best own SpMV|best CG iteration|auto \(" $w/all/cg.txt
CG_CASES=large CG_LARGE_ORDERS="natural permuted" CG_VARIANTS="sell sell+labelprop auto" CG_ROUNDS=3 \
  CG_SOLVES=1 CG_SPMV_REPS=20 CG_LARGE_EXTRA="" CG_EXTRA="--set spmv.transactions=false" \
  timeout 150 bash tools/cg-bench.sh $B/mdremap $w/large > $w/large/cg-bench.log 2>&1
echo "large rc=$?"
grep -E "best own SpMV|best CG iteration|auto \(" $w/large/cg.txt
kill $smi
awk -F', ' 'NR>1 {print $2, $3, $5}' $w/clocks.csv | sort | uniq -c | sort -rn | head -4
tar czf $OUT/call4.tgz -C $w .

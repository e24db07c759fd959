# Session 30, call 3 (nvidia-h100-x1, the code of call 1): the four stand-ins, natural and
# permuted, six variants, 5 interleaved rounds (with CuPy's cg and cuSPARSE in the same run); then
# offshore alone, four variants, 15 interleaved rounds. Clocks logged each second.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,clocks_throttle_reasons.active --format=csv -l 1 > $w/clocks.csv 2>&1 &
smi=$!
mkdir -p $w/all $w/off
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_VARIANTS="sell sell-offsets sell+labelprop cusparse csr-warp auto" \
  CG_ROUNDS=5 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 330 bash tools/cg-bench.sh $B/mdremap $w/all > $w/all/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E "best own SpMV|best CG iteration|whole solve|auto \(|auto least" $w/all/cg.txt
CG_CASES="offshore" CG_VARIANTS="sell sell-offsets cusparse auto" \
  CG_ROUNDS=15 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 230 bash tools/cg-bench.sh $B/mdremap $w/off > $w/off/cg-bench.log 2>&1
echo "offshore rc=$?"
grep -E "whole solve|auto \(|auto least" $w/off/cg.txt
kill $smi
mkdir -p $w/s && tar xzf $w/off/cg-summaries.tgz -C $w/s
python3 tools/cg-timeline.py $w/s offshore.natural sell sell-offsets cusparse auto
python3 tools/cg-timeline.py $w/s offshore.permuted sell sell-offsets cusparse auto
rm -rf $w/s
awk -F', ' 'NR>1 {print $2, $3, $5}' $w/clocks.csv | sort | uniq -c | sort -rn | head -5
tar czf $OUT/call3.tgz -C $w .

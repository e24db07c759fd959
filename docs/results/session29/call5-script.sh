# Session 29, call 5 (nvidia-h100-x1): call 3's code again on offshore alone (natural and
# permuted; sell, sell-offsets, cusparse, auto), 9 interleaved rounds, with the timelines: how
# far the sell / sell-offsets medians move from one call to the next.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
mkdir -p $w/off $w/s
CG_CASES="offshore" CG_VARIANTS="sell sell-offsets cusparse auto" \
  CG_ROUNDS=9 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 250 bash tools/cg-bench.sh $B/mdremap $w/off > $w/off/cg-bench.log 2>&1
echo "offshore rc=$?"
grep -E "whole solve \(|auto \(|auto least" $w/off/cg.txt | head -20
tar xzf $w/off/cg-summaries.tgz -C $w/s
python3 tools/cg-timeline.py $w/s offshore.natural sell sell-offsets cusparse auto
python3 tools/cg-timeline.py $w/s offshore.permuted sell-offsets sell cusparse auto
rm -rf $w/s
tar czf $OUT/call5.tgz -C $w .

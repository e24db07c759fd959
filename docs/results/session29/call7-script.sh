# Session 29, call 7 (nvidia-h100-x1): after the re-read (auto's marks kept as a struct, the
# layer's add_unexplored simplified, sell_slices reading a plan once; no change of behaviour
# meant): GPU tests of the SpMV, solver and CLI, and offshore (sell, sell-offsets, cusparse,
# auto) in 5 interleaved rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "^\[  (PASSED|FAILED)" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/off $w/s
CG_CASES="offshore" CG_VARIANTS="sell sell-offsets cusparse auto" \
  CG_ROUNDS=5 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 150 bash tools/cg-bench.sh $B/mdremap $w/off > $w/off/cg-bench.log 2>&1
echo "offshore rc=$?"
grep -E "whole solve \(|auto \(" $w/off/cg.txt | head -8
tar xzf $w/off/cg-summaries.tgz -C $w/s
python3 tools/cg-timeline.py $w/s offshore.natural sell sell-offsets auto
python3 tools/cg-timeline.py $w/s offshore.permuted sell-offsets sell auto
rm -rf $w/s
tar czf $OUT/call7.tgz -C $w .

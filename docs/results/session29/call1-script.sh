# Session 29, call 1 (nvidia-h100-x1): auto's kernel set-ups timed between marks in the stream
# (no fence on either side) and its decision unfenced. GPU tests of the solver and CLI; offshore
# natural and permuted, five variants, 7 interleaved rounds, with the timelines
# (tools/cg-timeline.py); one traced run of auto on each order (KP_SYNC=0: the host's timeline),
# and sell and sell-offsets on the permuted order with a synchronisation around each kernel (the
# set-up's kernels one by one).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
timeout 200 $B/test_cg_solver > $w/test_cg_solver.log 2>&1; echo "test_cg_solver rc=$?"; grep -E "^\[  (PASSED|FAILED)" $w/test_cg_solver.log | head -5
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/off
CG_CASES="offshore" CG_VARIANTS="sell sell-offsets cusparse csr-warp auto" \
  CG_ROUNDS=7 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 200 bash tools/cg-bench.sh $B/mdremap $w/off > $w/off/cg-bench.log 2>&1
echo "offshore rc=$?"
grep -E "auto \(|auto least" $w/off/cg.txt | head -20
mkdir -p $w/s && tar xzf $w/off/cg-summaries.tgz -C $w/s
python3 tools/cg-timeline.py $w/s offshore.natural sell sell-offsets cusparse auto
python3 tools/cg-timeline.py $w/s offshore.permuted sell-offsets sell cusparse auto
run() {  # name permute extra...
  local name=$1 perm=$2; shift 2
  timeout 60 $B/mdremap cg inputs/cg_offshore.yaml --set matrix.permute=$perm --set solver.repeats=1 \
    --set spmv.timing_repeats=20 --set spmv.transactions=false --summary $w/$name.json "$@" \
    > $w/$name.out 2>&1 || echo "$name: exit $?"
}
export KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so
KP_SYNC=0 KP_TIMER_OUT=$w/off.auto.kt KP_TRACE=$w/off.auto.trace run off.auto.t false --remap auto
KP_SYNC=0 KP_TIMER_OUT=$w/offp.auto.kt KP_TRACE=$w/offp.auto.trace run offp.auto.t true --remap auto
KP_SYNC=1 KP_TIMER_OUT=$w/offp.sell.kt KP_TRACE=$w/offp.sell.trace run offp.sell.s true --spmv sell
KP_SYNC=1 KP_TIMER_OUT=$w/offp.sello.kt KP_TRACE=$w/offp.sello.trace run offp.sello.s true --spmv sell --set spmv.sell_diagonals=false
unset KOKKOS_TOOLS_LIBS
grep -h "kernels measured\|layer's decision" $w/off/*.out $w/*.out 2>/dev/null | head -4
rm -f $w/*.npy
tar czf $OUT/call1.tgz -C $w .

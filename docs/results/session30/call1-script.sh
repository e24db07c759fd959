# Session 30, call 1 (nvidia-h100-x1): sell's set-up with eight slices a team in its per-slice
# kernels, three or four allocations (were six) and five waits (were eight). GPU tests of the
# SpMV, solver and CLI; offshore natural and permuted, four variants, 9 interleaved rounds, with
# the timelines; sell's set-up on each order traced with a synchronisation around each kernel.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
timeout 200 $B/test_cg_spmv > $w/test_cg_spmv.log 2>&1; echo "test_cg_spmv rc=$?"; grep -E "^\[  (PASSED|FAILED)" $w/test_cg_spmv.log | head -5
timeout 200 $B/test_cg_solver > $w/test_cg_solver.log 2>&1; echo "test_cg_solver rc=$?"; grep -E "^\[  (PASSED|FAILED)" $w/test_cg_solver.log | head -5
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/off
CG_CASES="offshore" CG_VARIANTS="sell sell-offsets cusparse auto" \
  CG_ROUNDS=9 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 240 bash tools/cg-bench.sh $B/mdremap $w/off > $w/off/cg-bench.log 2>&1
echo "offshore rc=$?"
grep -E "whole solve|auto \(|auto least" $w/off/cg.txt | head -20
mkdir -p $w/s && tar xzf $w/off/cg-summaries.tgz -C $w/s
python3 tools/cg-timeline.py $w/s offshore.natural sell sell-offsets cusparse auto
python3 tools/cg-timeline.py $w/s offshore.permuted sell sell-offsets cusparse auto
grep -ho "built in [0-9.]* ms: shape [0-9.]*, allocation [0-9.]*, fill [0-9.]*" $w/s/offshore.*.sell.json* | head -12
rm -rf $w/s
run() {  # name permute extra...
  local name=$1 perm=$2; shift 2
  timeout 60 $B/mdremap cg inputs/cg_offshore.yaml --set matrix.permute=$perm --set solver.repeats=1 \
    --set spmv.timing_repeats=20 --set spmv.transactions=false --summary $w/$name.json "$@" \
    > $w/$name.out 2>&1 || echo "$name: exit $?"
}
export KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so
KP_SYNC=1 KP_TIMER_OUT=$w/off.sell.kt KP_TRACE=$w/off.sell.trace run off.sell.s false --spmv sell
KP_SYNC=1 KP_TIMER_OUT=$w/offp.sell.kt KP_TRACE=$w/offp.sell.trace run offp.sell.s true --spmv sell
unset KOKKOS_TOOLS_LIBS
grep -h "CG::sell" $w/off.sell.kt $w/offp.sell.kt | head -30
rm -f $w/*.npy
tar czf $OUT/call1.tgz -C $w .

# Session 30, call 2 (nvidia-h100-x1, the code of call 1): where auto's set-up on offshore
# permuted exceeds sell's (call 1: 1.03 against 0.86 ms, medians of 9): auto and sell traced on
# each order with a synchronisation around each kernel.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
run() {  # name permute extra...
  local name=$1 perm=$2; shift 2
  timeout 60 $B/mdremap cg inputs/cg_offshore.yaml --set matrix.permute=$perm --set solver.repeats=1 \
    --set spmv.timing_repeats=20 --set spmv.transactions=false --summary $w/$name.json "$@" \
    > $w/$name.out 2>&1 || echo "$name: exit $?"
}
export KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so
for i in 1 2; do
KP_SYNC=1 KP_TIMER_OUT=$w/offp.auto$i.kt KP_TRACE=$w/offp.auto$i.trace run offp.auto$i true --remap auto
KP_SYNC=1 KP_TIMER_OUT=$w/offp.sell$i.kt KP_TRACE=$w/offp.sell$i.trace run offp.sell$i true --spmv sell
KP_SYNC=1 KP_TIMER_OUT=$w/off.auto$i.kt KP_TRACE=$w/off.auto$i.trace run off.auto$i false --remap auto
done
unset KOKKOS_TOOLS_LIBS
for i in 1 2; do
  run offp.autoq$i true --remap auto; run offp.sellq$i true --spmv sell
done
python3 - $w <<'PY'
import json, sys, glob
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    d = json.load(open(f)); s = d["setup"]
    print(f.split("/")[-1], "spmv_setup %.3f reorder %.3f waited %.3f first_solve_total %.3f" % (
        1e3 * s["spmv_setup_seconds"], 1e3 * s.get("reorder_seconds", 0),
        1e3 * d["warm_up"]["waited_seconds"], 1e3 * d["first_solve_total_seconds"]))
PY
rm -f $w/*.npy
tar czf $OUT/call2.tgz -C $w .

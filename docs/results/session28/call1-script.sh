# Session 28, call 1 (nvidia-h100-x1): where auto's whole solve parts from the best variant's.
# The CLI's GPU tests (the new residual timeline); offshore natural (auto, sell, sell-offsets) and
# parabolic_fem permuted (auto, sell+labelprop), 5 interleaved rounds with the summaries'
# residual_seconds (when each residual reached the host); then one run of each with the host's
# event trace (tools/kp-kernel-timer.cpp KP_TRACE, KP_SYNC=0: no extra synchronisation).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
run() {  # name case permute extra...
  local name=$1 case=$2 perm=$3; shift 3
  timeout 60 $B/mdremap cg inputs/cg_$case.yaml --set matrix.permute=$perm --set solver.repeats=1 \
    --set spmv.timing_repeats=20 --set spmv.transactions=false --summary $w/$name.json "$@" \
    > $w/$name.out 2>&1 || echo "$name: exit $?"
}
cells() {  # suffix
  run off.auto$1 offshore false --remap auto
  run off.sell$1 offshore false --spmv sell
  run off.sello$1 offshore false --spmv sell --set spmv.sell_diagonals=false
  run par.auto$1 parabolic_fem true --remap auto
  run par.sl$1 parabolic_fem true --spmv sell --reorder labelprop
}
for r in 1 2 3 4 5; do cells .r$r; done
export KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so KP_SYNC=0
KP_TIMER_OUT=$w/off.auto.kt KP_TRACE=$w/off.auto.trace run off.auto.t offshore false --remap auto
KP_TIMER_OUT=$w/off.sello.kt KP_TRACE=$w/off.sello.trace run off.sello.t offshore false --spmv sell --set spmv.sell_diagonals=false
KP_TIMER_OUT=$w/off.sell.kt KP_TRACE=$w/off.sell.trace run off.sell.t offshore false --spmv sell
KP_TIMER_OUT=$w/par.auto.kt KP_TRACE=$w/par.auto.trace run par.auto.t parabolic_fem true --remap auto
KP_TIMER_OUT=$w/par.sl.kt KP_TRACE=$w/par.sl.trace run par.sl.t parabolic_fem true --spmv sell --reorder labelprop
# With a synchronisation around each kernel: the set-up's kernels one by one.
KP_SYNC=1 KP_TIMER_OUT=$w/off.sell.sync.kt run off.sell.s offshore false --spmv sell
KP_SYNC=1 KP_TIMER_OUT=$w/off.sello.sync.kt run off.sello.s offshore false --spmv sell --set spmv.sell_diagonals=false
unset KOKKOS_TOOLS_LIBS
python3 - $w <<'PY'
import json, glob, os, sys, statistics
w = sys.argv[1]
def whole(s):
    st = s["setup"]
    return 1e3 * (st.get("spmv_setup_seconds", 0) + st.get("reorder_seconds", 0) + s["first_solve_total_seconds"])
for v in ["off.auto", "off.sell", "off.sello", "par.auto", "par.sl"]:
    ws = []
    for f in sorted(glob.glob(f"{w}/{v}.r*.json")):
        try: ws.append(whole(json.load(open(f))))
        except Exception as e: print(f, e)
    print(f"{v:10s} whole ms: " + " ".join(f"{x:6.2f}" for x in ws) + (f"  median {statistics.median(ws):.2f} least {min(ws):.2f}" if ws else ""))
PY
rm -f $w/*.npy
tar czf $OUT/call1.tgz -C $w .

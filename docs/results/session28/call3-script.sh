# Session 28, call 3 (nvidia-h100-x1): sell's set-up, its diagonal slices' candidates and columns left in
# the team's scratch (one lane sorts them; each lane walks its row once). GPU tests of the SpMV, solver and CLI; offshore
# natural (auto, sell, sell-offsets), offshore permuted (auto, sell, cusparse) and parabolic_fem
# permuted (auto, sell+labelprop), 5 interleaved rounds with the residual timelines; one traced
# run of sell on offshore natural (its set-up's kernels).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "^\[  (PASSED|FAILED)" $w/$t.log | head -5
done
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
  run offp.auto$1 offshore true --remap auto
  run offp.sell$1 offshore true --spmv sell
  run offp.cus$1 offshore true --spmv cusparse
  run par.auto$1 parabolic_fem true --remap auto
  run par.sl$1 parabolic_fem true --spmv sell --reorder labelprop
}
for r in 1 2 3 4 5; do cells .r$r; done
KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so KP_SYNC=0 KP_TIMER_OUT=$w/off.sell.kt \
  KP_TRACE=$w/off.sell.trace run off.sell.t offshore false --spmv sell
python3 - $w <<'PY'
import json, glob, sys, statistics
w = sys.argv[1]
def whole(s):
    st = s["setup"]
    return 1e3 * (st.get("spmv_setup_seconds", 0) + st.get("reorder_seconds", 0) + s["first_solve_total_seconds"])
for v in ["off.auto", "off.sell", "off.sello", "offp.auto", "offp.sell", "offp.cus", "par.auto", "par.sl"]:
    ws, su = [], []
    for f in sorted(glob.glob(f"{w}/{v}.r*.json")):
        try:
            s = json.load(open(f)); ws.append(whole(s)); su.append(1e3 * s["setup"]["spmv_setup_seconds"])
        except Exception as e: print(f, e)
    if ws:
        print(f"{v:10s} whole ms: " + " ".join(f"{x:6.2f}" for x in ws) + f"  median {statistics.median(ws):.2f} least {min(ws):.2f}; spmv set-up median {statistics.median(su):.2f}")
PY
rm -f $w/*.npy
tar czf $OUT/call3.tgz -C $w .

# Session 27, call 7 (nvidia-h100-x1): parabolic_fem permuted, auto (reorders at iteration 16)
# against sell+labelprop: whole-solve figures twice each, then the kernel timer once each
# (exclusive per-kernel times: do the iterations after auto's reorder run the same kernels as
# long?).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
run() {  # tag, extra...
  local tag=$1; shift
  $B/mdremap cg inputs/cg_parabolic_fem.yaml --quiet --set matrix.permute=true --set spmv.transactions=false \
    --set spmv.timing_repeats=20 --summary $w/$tag.json "$@"
  python3 - $w/$tag.json $tag <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s = d["setup"]
print(sys.argv[2], d["spmv"]["variant"], "it", d["iterations"], "setup+reorder ms", round(1e3*(s["spmv_setup_seconds"]+s["reorder_seconds"]), 2),
      "first", round(1e3*d["first_spmv_seconds_each"][0], 2), "solve", round(1e3*d["first_solve_seconds"], 2), "total", round(1e3*d["first_solve_total_seconds"], 2))
PY
}
for i in 1 2; do
  run auto-$i --remap auto
  run sl-$i --spmv sell --reorder labelprop
done
KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so KP_TIMER_OUT=$w/kt-auto.txt run kt-auto --remap auto
KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so KP_TIMER_OUT=$w/kt-sl.txt run kt-sl --spmv sell --reorder labelprop
for t in auto sl; do echo "== $t"; grep -E "spmv_sell|update_lagged|CG::scalars|fence Kokkos::Tools|region" $w/kt-$t.txt | head -12; done
tar czf $OUT/call7.tgz -C $w .

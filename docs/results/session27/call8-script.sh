# Session 27, call 8 (nvidia-h100-x1): is auto's unexplained 3-5 ms on parabolic_fem permuted
# kernels loaded inside the solve? auto and sell+labelprop with lazy (the default) and eager
# module loading, alternating, 2 each; the same on offshore permuted (auto, sell).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
run() {  # tag, extra...
  local tag=$1; shift
  $B/mdremap cg inputs/cg_${DECK:-parabolic_fem}.yaml --quiet --set matrix.permute=true --set spmv.transactions=false \
    --set spmv.timing_repeats=20 --summary $w/$tag.json "$@" > /dev/null
  python3 - $w/$tag.json $tag <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s = d["setup"]
print(sys.argv[2], d["spmv"]["variant"], "setup+reorder ms", round(1e3*(s["spmv_setup_seconds"]+s["reorder_seconds"]), 2),
      "first", round(1e3*d["first_spmv_seconds_each"][0], 2), "solve", round(1e3*d["first_solve_seconds"], 2), "total", round(1e3*d["first_solve_total_seconds"], 2))
PY
}
for i in 1 2; do
  for m in LAZY EAGER; do
    CUDA_MODULE_LOADING=$m run auto-$m-$i --remap auto
    CUDA_MODULE_LOADING=$m run sl-$m-$i --spmv sell --reorder labelprop
  done
done
for i in 1 2; do
  for m in LAZY EAGER; do
    DECK=offshore CUDA_MODULE_LOADING=$m run off-auto-$m-$i --remap auto
    DECK=offshore CUDA_MODULE_LOADING=$m run off-sell-$m-$i --spmv sell
  done
done
tar czf $OUT/call8.tgz -C $w .

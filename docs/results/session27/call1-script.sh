# Session 27, call 1 (nvidia-h100-x1): where a short solve's time goes. offshore natural, sell,
# three solves a process (solver.repeats=3), lazy and eager module loading, the SM clock sampled
# every 10 ms beside it; the code of f8477c6 (session 26's final bundle).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,pstate,power.draw --format=csv,noheader
which nsys ncu || true
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,pstate,power.draw --format=csv,noheader -lms 10 > $w/clocks.csv &
smi=$!
run() {  # tag, extra...
  local tag=$1; shift
  /usr/bin/time -f "%e s wall" $B/mdremap cg inputs/cg_offshore.yaml --quiet --set solver.repeats=3 \
    --summary $w/$tag.json "$@" 2>&1 | tail -1
  python3 - $w/$tag.json $tag <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(sys.argv[2], d["spmv"]["variant"], "it", d["iterations"], "first_spmv ms", [round(1e3*x, 3) for x in d["first_spmv_seconds_each"]],
      "solves ms", [round(1e3*x, 2) for x in d["solve_seconds_each"]], "first_total", round(1e3*d["first_solve_total_seconds"], 2),
      "spmv ms", round(d["spmv"]["time_ms"], 4), "setup", round(1e3*d["setup"]["spmv_setup_seconds"], 2))
PY
}
date +%T.%N
for i in 1 2 3; do
  date +%T.%N; run sell-lazy-$i --spmv sell
  date +%T.%N; CUDA_MODULE_LOADING=EAGER run sell-eager-$i --spmv sell
  date +%T.%N; run auto-lazy-$i
done
date +%T.%N
# the same with the GPU kept busy by another process (a CuPy loop) while mdremap runs
python3 - <<'PY' &
import cupy as cp, time
a = cp.zeros(1 << 20); t = time.time()
while time.time() - t < 25:
    a += 1; cp.cuda.runtime.deviceSynchronize(); time.sleep(0.0005)
PY
busy=$!
sleep 2
for i in 1 2; do date +%T.%N; run sell-busy-$i --spmv sell; done
kill $busy 2>/dev/null; wait $busy 2>/dev/null
kill $smi
if command -v nsys >/dev/null; then
  nsys profile -o $w/offshore-sell --force-overwrite true $B/mdremap cg inputs/cg_offshore.yaml --quiet --spmv sell --set solver.repeats=2 > /dev/null 2>&1
  nsys stats --report cuda_gpu_trace --format csv $w/offshore-sell.nsys-rep > $w/offshore-sell-trace.csv 2>/dev/null
  nsys stats --report cuda_api_sum $w/offshore-sell.nsys-rep 2>/dev/null | head -40
fi
tar czf $OUT/call1.tgz -C $w .

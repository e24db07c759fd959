#!/usr/bin/env bash
# Throttling's queue schedules (seed 002 §3.2, CF-Q) against strict barriers (CF) on one CG
# stand-in, on the GPU machine: the SpMV time per schedule and queue chunk size, then Nsight
# Compute on one launch of the queue kernel and one CF part kernel (grid, block, duration,
# occupancy), to say where the queue's time goes.
#
#   tools/throttle-queue-probe.sh MDREMAP_BINARY OUTDIR [DECK]      (NO_NCU=1: timings only)
set -uo pipefail
bin=${1:?usage: throttle-queue-probe.sh MDREMAP_BINARY OUTDIR [DECK]}
out=${2:?usage: throttle-queue-probe.sh MDREMAP_BINARY OUTDIR [DECK]}
deck=${3:-inputs/cg_apache2.yaml}
mkdir -p "$out"
log=$out/queue-probe.txt
: >"$log"
common=(--quiet --set solver.max_iterations=20 --set solver.tolerance=1e-30 --set solver.repeats=1
  --set spmv.timing_repeats=50 --set spmv.transactions=false)
spmv_ms() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['spmv']['time_ms'])" "$1"; }
for run in "cf 256 warp" "cf-q 256 dispatch" "sj-q 256 dispatch" "cf-q 256 warp" "cf-q 256 block" "cf-q 4096 block" "cf-q 65536 block" "sj-q 256 warp" "sj-q 256 block"; do
  read -r sched chunk unit <<<"$run"
  "$bin" cg "$deck" "${common[@]}" --remap throttle --schedule "$sched" \
    --set remap.chunk_threads="$chunk" --set remap.queue_unit="$unit" --summary "$out/q.json" >/dev/null 2>&1
  echo "$deck throttle $sched chunk_threads $chunk queue_unit $unit: SpMV $(spmv_ms "$out/q.json") ms" | tee -a "$log"
done
"$bin" cg "$deck" "${common[@]}" --remap gather --summary "$out/q.json" >/dev/null 2>&1
echo "$deck gather: SpMV $(spmv_ms "$out/q.json") ms" | tee -a "$log"
rm -f "$out/q.json"
if [[ -z ${NO_NCU:-} ]] && command -v ncu >/dev/null; then
  for k in ThrottleQueue ThrottleWarpQueue ThrottleRange; do
    sched=cf-q unit=block
    [[ $k == ThrottleWarpQueue ]] && unit=warp
    [[ $k == ThrottleRange ]] && sched=cf
    echo "== ncu: first $k launch ($sched)" | tee -a "$log"
    ncu --kernel-name-base demangled --kernel-name "regex:$k<" --launch-skip 2 --launch-count 1 --section LaunchStats \
      --section SpeedOfLight --section Occupancy --section SchedulerStats \
      "$bin" cg "$deck" "${common[@]}" --remap throttle --schedule "$sched" \
      --set remap.queue_unit=$unit --set spmv.timing_repeats=2 2>&1 | grep -vE '^(==PROF==|mdremap|#)' | tee -a "$log" | tail -n 60
  done
fi

#!/usr/bin/env bash
# The measurements of README.md here: old (every 20, check false) and new (every 1, check true)
# neighbour settings on the CPU build, 3 interleaved rounds of each deck, then NVE energy drift.
#   docs/results/2026-12-02-neighbor-defaults/run.sh OUTDIR   (from the repository root)
set -euo pipefail
out=${1:?output directory}
bin=build/openmp/src/mdremap
mkdir -p "$out"
old=(--set neighbor.every=20 --set neighbor.check=false)
new=(--set neighbor.every=1 --set neighbor.check=true)
for round in 1 2 3; do
  for deck in lj_bench lj_melt; do
    for cfg in old new; do
      if [[ $cfg == old ]]; then sets=("${old[@]}"); else sets=("${new[@]}"); fi
      tag=${deck}_${cfg}_r${round}
      echo "== $tag: $bin md inputs/$deck.yaml ${sets[*]} --summary $tag.json" | tee "$out/$tag.txt"
      "$bin" md "inputs/$deck.yaml" "${sets[@]}" --summary "$out/$tag.json" >>"$out/$tag.txt" 2>&1
    done
  done
done
# NVE energy drift: the melt deck (4,000 atoms, from T = 3) 5,000 steps, the bench deck (32,000
# atoms, T = 1.44) 2,000 steps; thermo every 100.
for cfg in old new; do
  if [[ $cfg == old ]]; then sets=("${old[@]}"); else sets=("${new[@]}"); fi
  for spec in lj_melt:5000 lj_bench:2000; do
    deck=${spec%%:*} steps=${spec##*:}
    tag=drift_${deck}_${cfg}
    echo "== $tag: $bin md inputs/$deck.yaml ${sets[*]} --steps $steps --set run.thermo=100" | tee "$out/$tag.txt"
    "$bin" md "inputs/$deck.yaml" "${sets[@]}" --steps "$steps" --set run.thermo=100 \
      --thermo-csv "$out/$tag.csv" --summary "$out/$tag.json" >>"$out/$tag.txt" 2>&1
  done
done
# The machine is shared (other jobs' load moves wall times by 2-10x): the same decks on one
# OpenMP thread, longer (bench 500 steps, melt 1,000), 3 interleaved rounds, with the CPU
# seconds the process used (user + system, /usr/bin/time).
if [[ ${CPU_TIME:-1} == 1 ]]; then
  for round in 1 2 3; do
    for spec in lj_bench:500 lj_melt:1000; do
      deck=${spec%%:*} steps=${spec##*:}
      for cfg in old new; do
        if [[ $cfg == old ]]; then sets=("${old[@]}"); else sets=("${new[@]}"); fi
        tag=cpu1_${deck}_${cfg}_r${round}
        echo "== $tag: OMP_NUM_THREADS=1 /usr/bin/time $bin md inputs/$deck.yaml ${sets[*]} --steps $steps" | tee "$out/$tag.txt"
        OMP_NUM_THREADS=1 /usr/bin/time -f "cpu_seconds user %U system %S wall %e" \
          "$bin" md "inputs/$deck.yaml" "${sets[@]}" --steps "$steps" --summary "$out/$tag.json" \
          >>"$out/$tag.txt" 2>&1
      done
    done
  done
fi

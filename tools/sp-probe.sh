#!/usr/bin/env bash
# SP probes on the GPU machine (after tools/gpu-run.sh bundle; one `device` call each):
#
#   tools/sp-probe.sh kernels DECK MODE...   # per-kernel times of each mode's whole solve
#   tools/sp-probe.sh run DECK MODE [LIMIT]  # one solve with its progress lines (elapsed s)
#
# kernels: every mode runs ROUNDS [2] times, alternating, with the Kokkos Tools kernel timer
# (tools/kp-kernel-timer.cpp: serialised, a device synchronisation around every kernel) and then
# without it (the summary's own times): which kernel differs between, say, dup chosen by flag and
# dup chosen by auto. Results under $OUT/sp-probe/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
what=${1:?usage: sp-probe.sh kernels DECK MODE... | run DECK MODE [LIMIT]}
deck=${2:?deck}
shift 2
if [[ ! -x $repo/.bundle/bin/mdremap ]]; then
  rm -rf "$repo/.bundle" && mkdir -p "$repo/.bundle"
  python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" \
    "$repo/.carry/bundle.tar.xz" "$repo/.bundle"
fi
export LD_LIBRARY_PATH=$repo/.bundle/lib:${LD_LIBRARY_PATH:-}
out=${OUT:-$repo/out}/sp-probe
mkdir -p "$out"
bin=$repo/.bundle/bin/mdremap
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$out/gpu.txt"
name=$(basename "$deck" .yaml)
case $what in
  kernels)
    for round in $(seq 1 "${ROUNDS:-2}"); do
      for m in "$@"; do
        echo "== $name $m timed kernels (round $round)"
        KOKKOS_TOOLS_LIBS=$repo/.bundle/lib/libkp-kernel-timer.so \
          KP_TIMER_OUT="$out/${name}_${m}_kernels_r$round.txt" \
          "$bin" sp "$repo/$deck" --remap "$m" --quiet \
          --summary "$out/${name}_${m}_timed_r$round.json" >/dev/null 2>&1 || true
        head -n 8 "$out/${name}_${m}_kernels_r$round.txt"
        echo "== $name $m fences, unsynchronised kernels (round $round)"
        KOKKOS_TOOLS_LIBS=$repo/.bundle/lib/libkp-kernel-timer.so KP_SYNC=0 \
          KP_TIMER_OUT="$out/${name}_${m}_fences_r$round.txt" \
          "$bin" sp "$repo/$deck" --remap "$m" --quiet >/dev/null 2>&1 || true
        grep -E '^ +[0-9]+ +[0-9.]+ +[0-9.]+  (fence|alloc)' "$out/${name}_${m}_fences_r$round.txt" | head -n 8
        echo "== $name $m plain (round $round)"
        "$bin" sp "$repo/$deck" --remap "$m" --quiet \
          --summary "$out/${name}_${m}_plain_r$round.json" >/dev/null 2>&1 || true
        python3 - "$out/${name}_${m}_plain_r$round.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s, t = d["sp"], d["times_s"]
print(f"  {d['remap']['strategy']}: calc_pi {s['calc_pi_ms_per_iteration']:.3f} ms/sweep, "
      f"{s['iterations']} sweeps, sp {t['sp']:.2f} s, walksat {t['walksat']:.2f} s, "
      f"solve {t['solve']:.2f} s, {d['outcome']}")
PY
      done
    done
    ;;
  run)
    m=${1:?mode}
    limit=${2:-540}
    echo "== $name $m (limit $limit s)"
    set +e
    timeout "$limit" "$bin" sp "$repo/$deck" --remap "$m" \
      --summary "$out/${name}_$m.json" >"$out/${name}_$m.log" 2>&1
    echo "exit $?" >>"$out/${name}_$m.log"
    set -e
    grep -v '^#   ' "$out/${name}_$m.log" | tail -n 30
    ;;
  *) echo "sp-probe.sh: unknown '$what' (kernels, run)" >&2 && exit 2 ;;
esac

#!/usr/bin/env bash
# Builds side by side on the GPU machine, interleaved (A B C A B C ...), medians of the rounds:
#
#   tools/ab-bench.sh OUTDIR NAME=BINARY [NAME=BINARY ...]
#
# For each precision (double, mixed, single): the 4M-atom deck (inputs/lj_large.yaml, 200 steps)
# with every binary in turn, RUNS rounds [3]; prints the median atom-steps/s per binary and its
# ratio to the first. With SHARING=1 also sharing's plan per rebuild (its rebuild time minus the
# gather's, 100 steps) at 1M and 4M atoms per binary. The binaries are this repository's own
# builds (e.g. before and after a change, bundled by tools/gpu-run.sh bundle); LD_LIBRARY_PATH
# must reach their libraries (.bundle/lib).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: ab-bench.sh OUTDIR NAME=BINARY ...}
shift
(($# >= 1)) || { echo "ab-bench: give at least one NAME=BINARY" >&2; exit 2; }
mkdir -p "$out"
names=() bins=()
for nb in "$@"; do
  names+=("${nb%%=*}")
  bins+=("${nb#*=}")
  [[ -x ${nb#*=} ]] || { echo "ab-bench: ${nb#*=} is not an executable" >&2; exit 2; }
done
runs=${RUNS:-3}
field() {  # field FILE KEY: a top-level number of a summary
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"
}
median() { python3 -c "import statistics,sys; print(statistics.median(map(float, sys.argv[1:])))" "$@"; }
for prec in double mixed single; do
  declare -A rates=()
  for r in $(seq 1 "$runs"); do
    for k in "${!bins[@]}"; do
      f=$out/ab-${names[$k]}-$prec.$r.json
      "${bins[$k]}" md "$repo/inputs/lj_large.yaml" --precision "$prec" --quiet --summary "$f" >/dev/null
      rates[$k]="${rates[$k]:-} $(field "$f" atom_steps_per_s)"
    done
  done
  base=$(median ${rates[0]})
  for k in "${!bins[@]}"; do
    m=$(median ${rates[$k]})
    printf 'ab 4M %-7s %-10s median %.4g atom-steps/s (rounds:%s) ratio to %s %.3f\n' "$prec" "${names[$k]}" \
      "$m" "$(printf ' %.4g' ${rates[$k]})" "${names[0]}" "$(python3 -c "print($m / $base)")"
  done
  unset rates
done | tee -a "$out/ab.txt"
if [[ ${SHARING:-0} == 1 ]]; then
  for deck in lj_1m lj_large; do
    for k in "${!bins[@]}"; do
      for m in gather sharing; do
        "${bins[$k]}" md "$repo/inputs/$deck.yaml" --precision single --steps 100 --remap "$m" --quiet \
          --summary "$out/sp-${names[$k]}-$deck-$m.json" >/dev/null || echo "failed: ${names[$k]} $deck $m"
      done
      python3 - "$out/sp-${names[$k]}-$deck-gather.json" "$out/sp-${names[$k]}-$deck-sharing.json" "${names[$k]}" "$deck" <<'PY'
import json, sys
g, s = (json.load(open(f)) for f in sys.argv[1:3])
plan = s["rebuild_ms_each"] - g["rebuild_ms_each"]
print(f"sharing-plan {sys.argv[4]} {sys.argv[3]:10s}: plan per rebuild {plan:.1f} ms (rebuild {s['rebuild_ms_each']:.1f}"
      f" vs gather {g['rebuild_ms_each']:.1f}); step {1e3 * s['loop_seconds'] / s['steps']:.3f} ms vs gather "
      f"{1e3 * g['loop_seconds'] / g['steps']:.3f} ms")
PY
    done
  done | tee -a "$out/ab.txt"
fi
(cd "$out" && tar czf ab-summaries.tgz ./*.json && rm -f ./*.json)

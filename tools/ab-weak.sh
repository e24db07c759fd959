#!/usr/bin/env bash
# Interleaved comparison of mdremap builds on the weak-scaling bench:
#
#   tools/ab-weak.sh OUTDIR NAME=BINARY [NAME=BINARY ...]
#
# Each round runs every build at every GPU count and precision, in that order, so the builds
# share the machine's state; a GPU count of n stretches the bench deck (DECK, default
# inputs/lj_large.yaml) along x, then y, then z, CELLS [100] fcc cells a side per GPU (4M atoms).
# Environment: ROUNDS [2], PRECS ["single double"], GPUS ["1 4"], STEPS [600], MPIRUN [mpirun],
# EXTRA (more mdremap arguments, e.g. "--set parallel.overlap=off"). Writes OUTDIR/ab_NAME_PREC_nN_rR.json
# (the summaries) and .log, and prints per build and precision the median atom-steps/s on each
# GPU count, the rounds, the list build's ms, rank 0's phase times and the parallel efficiency
# against the same build's one-rank median and against the median of all builds' one-rank runs.
set -uo pipefail
out=${1:?usage: tools/ab-weak.sh OUTDIR NAME=BINARY [NAME=BINARY ...]}
shift
(($# > 0)) || { echo "tools/ab-weak.sh: no NAME=BINARY given" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd)
deck=${DECK:-$repo/inputs/lj_large.yaml}
mkdir -p "$out"
names=()
declare -A bins
for a in "$@"; do
  [[ $a == *=* ]] || { echo "tools/ab-weak.sh: '$a' is not NAME=BINARY" >&2; exit 2; }
  names+=("${a%%=*}")
  bins[${a%%=*}]=${a#*=}
  [[ -x ${a#*=} ]] || { echo "tools/ab-weak.sh: ${a#*=} is not an executable" >&2; exit 2; }
done
cells() {  # n GPUs, c cells a side per GPU: doubled along x, then y, then z
  local n=$1 c=$2 x=$2 y=$2 z=$2
  ((n >= 2)) && x=$((2 * c))
  ((n >= 4)) && y=$((2 * c))
  ((n >= 8)) && z=$((2 * c))
  echo "[$x,$y,$z]"
}
read -r -a extra <<<"${EXTRA:-}"
for ((r = 1; r <= ${ROUNDS:-2}; ++r)); do
  for prec in ${PRECS:-single double}; do
    for n in ${GPUS:-1 4}; do
      for v in "${names[@]}"; do
        f=$out/ab_${v}_${prec}_n${n}_r$r
        timeout 300 "${MPIRUN:-mpirun}" --allow-run-as-root --oversubscribe --bind-to none \
          -x LD_LIBRARY_PATH -np "$n" "${bins[$v]}" md "$deck" --precision "$prec" \
          --steps "${STEPS:-600}" --quiet --set "system.lattice.cells=$(cells "$n" "${CELLS:-100}")" \
          "${extra[@]}" --summary "$f.json" >"$f.log" 2>&1 || echo "FAIL $v $prec n=$n round $r"
      done
    done
  done
done
python3 - "$out" "${PRECS:-single double}" "${GPUS:-1 4}" "${names[@]}" <<'PY'
import glob, json, statistics, sys
out, precs, gpus, names = sys.argv[1], sys.argv[2].split(), [int(g) for g in sys.argv[3].split()], sys.argv[4:]
keys = ("force", "neighbor", "integrate", "exchange", "exchange_rebuild", "exchange_migrate")
def load(v, prec, n):
    return [json.load(open(f)) for f in sorted(glob.glob(f"{out}/ab_{v}_{prec}_n{n}_r*.json"))]
for prec in precs:
    ones = [j["atom_steps_per_s"] for v in names for j in load(v, prec, 1)]
    pooled = statistics.median(ones) if ones else float("nan")
    for v in names:
        line = [f"{prec} {v}:"]
        own = None
        for n in gpus:
            js = load(v, prec, n)
            if not js:
                line.append(f"| {n} ranks: no runs")
                continue
            m = statistics.median([j["atom_steps_per_s"] for j in js])
            if n == 1:
                own = m
            split = {k: round(statistics.median([j["time_split_ms_per_step"].get(k, 0) for j in js]), 4) for k in keys}
            eff = ""
            if n > 1 and own:
                eff = f" eff {100 * m / n / own:.1f}% (pooled one-rank {100 * m / n / pooled:.1f}%)"
            line.append(f"| {n} ranks {m:.4g} {[round(j['atom_steps_per_s'] / 1e9, 4) for j in js]} "
                        f"rebuild {statistics.median([j['rebuild_ms_each'] for j in js]):.3f} {split}{eff}")
        print(" ".join(line))
PY

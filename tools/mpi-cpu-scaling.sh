#!/usr/bin/env bash
# Strong scaling over MPI ranks on this machine's CPU: a 256,000-atom LJ deck (the bench deck at
# 40^3 fcc cells) on 1, 2 and 4 ranks, mdremap (build/openmp, MDREMAP_MPI on) and Debian's LAMMPS
# (lmp) on the same system in the same rounds, one thread per rank, interleaved.
#
#   tools/mpi-cpu-scaling.sh [rounds] [ranks]    # default 3 rounds, ranks "1 2 4"
#   STEPS=10 tools/mpi-cpu-scaling.sh 1 "1 2"    # a short pass (checks the script, not a timing)
#
# Ranks beyond the cores online are oversubscribed (mpirun --oversubscribe) and said so. Prints
# per round and as medians: atom-steps/s, speed-up and parallel efficiency against 1 rank of the
# same code, and mdremap / LAMMPS at each rank count. Installs lammps when missing and root.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3}
ranks=${2:-1 2 4}
steps=${STEPS:-100}
cells=${CELLS:-40}
bin=$repo/build/openmp/src/mdremap
[[ -x $bin ]] || { echo "mpi-cpu-scaling: build the openmp preset first (tools/setup.sh)" >&2; exit 2; }
command -v mpirun >/dev/null || { echo "mpi-cpu-scaling: mpirun is needed (openmpi-bin)" >&2; exit 2; }
if ! command -v lmp >/dev/null; then
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    echo "mpi-cpu-scaling: installing Debian's lammps (lmp)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends lammps >/dev/null
  fi
  command -v lmp >/dev/null ||
    { echo "mpi-cpu-scaling: Debian's lmp is needed (apt-get install lammps)" >&2; exit 2; }
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$repo/tools/lj-deck.sh"
{
  lj_deck "$cells"
  printf '%s\n' "fix integrate all nve" "thermo 50" "run $steps"
} >"$work/in.lmp"
mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none)
lmp_rate() {  # ranks -> atom-steps/s from the "Loop time" line
  (cd "$work" && OMP_NUM_THREADS=1 "${mpi[@]}" -np "$1" lmp -in in.lmp -screen none \
    -log "$work/lmp.log" >/dev/null 2>&1) || { echo nan; return; }
  awk '/^Loop time/ {printf "%.4g\n", $12 * $9 / $4}' "$work/lmp.log"
}
ours_rate() {  # ranks -> atom-steps/s of the loop
  rm -f "$work/s.json"
  OMP_NUM_THREADS=1 "${mpi[@]}" -np "$1" "$bin" md "$repo/inputs/lj_bench.yaml" --steps "$steps" \
    --set "system.lattice.cells=[$cells,$cells,$cells]" --quiet --summary "$work/s.json" \
    >"$work/ours.log" 2>&1 || { echo nan; return; }
  python3 -c "import json, sys; print('%.4g' % json.load(open(sys.argv[1]))['atom_steps_per_s'])" \
    "$work/s.json"
}
model=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)
echo "cpu: ${model:-unknown}, $(nproc) cores online; $(mpirun --version | head -n 1)"
echo "LAMMPS: $(lmp -h | sed -n 's/^Large-scale Atomic.*Simulator - //p' | head -n 1)"
echo "deck: inputs/lj_bench.yaml at ${cells}^3 cells ($((4 * cells * cells * cells)) atoms), $steps steps," \
  "one thread per rank, $rounds interleaved rounds; atom-steps/s"
for n in $ranks; do ((n > $(nproc))) && echo "note: $n ranks on $(nproc) cores are oversubscribed"; done
declare -A L O
for r in $(seq 1 "$rounds"); do
  line="round $r:"
  for n in $ranks; do
    l=$(lmp_rate "$n")
    o=$(ours_rate "$n")
    L[$n]+="$l "
    O[$n]+="$o "
    line+=" np$n lammps $l mdremap $o;"
  done
  echo "$line"
done
args=()
for n in $ranks; do args+=("$n" "${L[$n]}" "${O[$n]}"); done
python3 - "${args[@]}" <<'PY'
import math, statistics, sys
a = sys.argv[1:]
rows = [(int(a[i]), [float(x) for x in a[i + 1].split()], [float(x) for x in a[i + 2].split()])
        for i in range(0, len(a), 3)]
med = lambda v: statistics.median([x for x in v if math.isfinite(x)]) if any(math.isfinite(x) for x in v) else float("nan")
l1, o1 = med(rows[0][1]), med(rows[0][2])
print("\n| ranks | LAMMPS atom-steps/s | speed-up | efficiency | mdremap atom-steps/s | speed-up | efficiency | mdremap / LAMMPS |")
print("|---|---|---|---|---|---|---|---|")
for n, l, o in rows:
    lm, om = med(l), med(o)
    n0 = rows[0][0]
    print(f"| {n} | {lm:.4g} | {lm / l1:.2f} | {lm / l1 * n0 / n:.0%} | {om:.4g} | {om / o1:.2f} | "
          f"{om / o1 * n0 / n:.0%} | {om / lm:.2f} |")
PY

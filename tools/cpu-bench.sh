#!/usr/bin/env bash
# CPU speed of the bench deck against LAMMPS on this machine, interleaved so that both see the
# same machine state (shared VMs drift by tens of percent from minute to minute).
#
#   tools/cpu-bench.sh [rounds]        # default 5; needs build/openmp; installs Debian's lammps
#                                      # (lmp) when it is missing and we are root
#   STEPS=10 tools/cpu-bench.sh 1      # a short pass through the script (checks it, not a timing)
#
# Each round runs: LAMMPS on 1 core, mdremap on 1 thread, LAMMPS on 2 MPI ranks (if mpirun is
# there), mdremap on 2 threads. Where the portable build is there too (`cmake --preset
# openmp-portable && cmake --build --preset openmp-portable --target mdremap`: no AVX-512 loops),
# it runs in the same rounds, for the before/after. Prints the CPU (model, cores, AVX-512F or
# not) and mdremap's host loops, then min / median / max atom-steps/s of each over the rounds,
# and the ratios per round (min / median / max): mdremap 1 thread against LAMMPS 1 core, 2
# threads against 2 ranks, and per core (2 threads / 2 against LAMMPS on 1 core). The LAMMPS
# input is the same physical system as inputs/lj_bench.yaml (fcc 0.8442, 20^3 cells, T 1.44 seed
# 87287, lj/cut 2.5, skin 0.3, rebuild every 20 steps unchecked, NVE dt 0.005, 100 steps).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-5}
steps=${STEPS:-100}
bin=$repo/build/openmp/src/mdremap
portable=$repo/build/openmp-portable/src/mdremap
[[ -x $bin ]] || { echo "cpu-bench: build the openmp preset first (tools/setup.sh)" >&2; exit 2; }
if ! command -v lmp >/dev/null; then
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    echo "cpu-bench: installing Debian's lammps (lmp)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends lammps >/dev/null
  fi
  command -v lmp >/dev/null ||
    { echo "cpu-bench: Debian's lmp is needed (apt-get install lammps)" >&2; exit 2; }
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$repo/tools/lj-deck.sh"
{
  lj_deck 20
  printf '%s\n' "fix integrate all nve" "run $steps"
} >"$work/bench.lmp"
lmp_rate() {  # ranks -> atom-steps/s from the "Loop time" line
  local log=$work/lmp.log
  if [[ $1 == 1 ]]; then
    (cd "$work" && OMP_NUM_THREADS=1 lmp -in bench.lmp -screen none -log "$log" >/dev/null)
  else
    (cd "$work" && OMP_NUM_THREADS=1 mpirun --allow-run-as-root --oversubscribe -np "$1" lmp \
      -in bench.lmp -screen none -log "$log" >/dev/null 2>&1) || { echo nan; return; }
  fi
  awk '/^Loop time/ {printf "%.4g\n", $12 * $9 / $4}' "$log"
}
ours_rate() {  # threads binary -> atom-steps/s of the loop
  OMP_NUM_THREADS=$1 OMP_PROC_BIND=spread OMP_PLACES=threads "$2" md "$repo/inputs/lj_bench.yaml" \
    --steps "$steps" --quiet --summary "$work/s.json" >/dev/null 2>&1
  python3 -c "import json, sys; print('%.4g' % json.load(open(sys.argv[1]))['atom_steps_per_s'])" \
    "$work/s.json"
}
last() {  # name of an array -> its last element, or n/a when it is empty
  local -n a=$1
  if ((${#a[@]})); then echo "${a[-1]}"; else echo n/a; fi
}

model=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)
avx512=$(grep -qw avx512f /proc/cpuinfo && echo "AVX-512F: yes" || echo "AVX-512F: no")
echo "cpu: ${model:-unknown}, $(nproc) cores online, $avx512"
echo "mdremap host loops: $("$bin" info | sed -n 's/^ *host loops *//p'); LAMMPS:" \
  "$(lmp -h | sed -n 's/^Large-scale Atomic.*Simulator - //p' | head -n 1)"
echo "bench deck (32,000 atoms), $steps steps, $rounds rounds; atom-steps/s"
declare -a l1=() o1=() l2=() o2=() p1=() p2=()
for r in $(seq 1 "$rounds"); do
  l1+=("$(lmp_rate 1)")
  o1+=("$(ours_rate 1 "$bin")")
  [[ -x $portable ]] && p1+=("$(ours_rate 1 "$portable")")
  if command -v mpirun >/dev/null; then l2+=("$(lmp_rate 2)"); fi
  o2+=("$(ours_rate 2 "$bin")")
  [[ -x $portable ]] && p2+=("$(ours_rate 2 "$portable")")
  echo "round $r: lammps-1 $(last l1) mdremap-1 $(last o1) portable-1 $(last p1)" \
    "lammps-2 $(last l2) mdremap-2 $(last o2) portable-2 $(last p2)"
done
python3 - "${l1[*]}" "${o1[*]}" "${l2[*]:-}" "${o2[*]}" "${p1[*]:-}" "${p2[*]:-}" <<'PY'
import math
import statistics
import sys

runs = [[float(x) for x in s.split()] for s in sys.argv[1:7]]
l1, o1, l2, o2, p1, p2 = runs


def spread(v):
    v = [x for x in v if not math.isnan(x)]
    if not v:
        return "n/a"
    return f"{min(v):.3g} / {statistics.median(v):.3g} / {max(v):.3g}"


def ratios(num, den, scale=1.0):  # per round: the runs of one round saw the same machine
    return [n / scale / d for n, d in zip(num, den) if not (math.isnan(n) or math.isnan(d))]


print("atom-steps/s, min / median / max over the rounds:")
for name, v in (("LAMMPS 1 core", l1), ("mdremap 1 thread", o1), ("LAMMPS 2 ranks", l2),
                ("mdremap 2 threads", o2), ("portable 1 thread", p1),
                ("portable 2 threads", p2)):
    if v:
        print(f"  {name:<20} {spread(v)}")
print("ratio to LAMMPS per round, min / median / max:")
for name, v in (("mdremap 1 thread / LAMMPS 1 core", ratios(o1, l1)),
                ("mdremap 2 threads / LAMMPS 2 ranks", ratios(o2, l2)),
                ("per core: mdremap 2 threads / 2 / LAMMPS 1 core", ratios(o2, l1, 2.0)),
                ("portable 1 thread / LAMMPS 1 core", ratios(p1, l1)),
                ("portable per core: 2 threads / 2 / LAMMPS 1 core", ratios(p2, l1, 2.0))):
    if v:
        print(f"  {name:<50} {spread(v)}")
PY

#!/usr/bin/env bash
# CPU speed of the bench deck against LAMMPS on this machine, interleaved so that both see the
# same machine state (shared VMs drift by tens of percent from minute to minute).
#
#   tools/cpu-bench.sh [rounds]     # default 5; needs build/openmp and Debian's `lmp`
#
# Each round runs: LAMMPS on 1 core, mdremap on 1 thread, LAMMPS on 2 MPI ranks (if mpirun is
# there), mdremap on 2 threads. Prints the median atom-steps/s of each. Where the portable build
# is there too (`cmake --preset openmp-portable && cmake --build --preset openmp-portable
# --target mdremap`: no AVX-512 loops), it runs in the same rounds, for the before/after. The LAMMPS input is the
# same physical system as inputs/lj_bench.yaml (fcc 0.8442, 20^3 cells, T 1.44 seed 87287,
# lj/cut 2.5, skin 0.3, rebuild every 20 steps unchecked, NVE dt 0.005, 100 steps).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-5}
bin=$repo/build/openmp/src/mdremap
portable=$repo/build/openmp-portable/src/mdremap
command -v lmp >/dev/null || { echo "cpu-bench: Debian's lmp (apt-get install lammps) is needed" >&2; exit 2; }
[[ -x $bin ]] || { echo "cpu-bench: build the openmp preset first (tools/setup.sh)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/bench.lmp" <<'EOF'
units lj
atom_style atomic
lattice fcc 0.8442
region cell block 0 20 0 20 0 20
create_box 1 cell
create_atoms 1 box
mass 1 1.0
velocity all create 1.44 87287 loop geom
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
neighbor 0.3 bin
neigh_modify delay 0 every 20 check no
fix integrate all nve
run 100
EOF
lmp_rate() {  # ranks -> atom-steps/s from the "Loop time" line
  local log=$work/lmp.log
  if [[ $1 == 1 ]]; then
    (cd "$work" && lmp -in bench.lmp -screen none -log "$log" >/dev/null)
  else
    (cd "$work" && mpirun --allow-run-as-root --oversubscribe -np "$1" lmp -in bench.lmp \
      -screen none -log "$log" >/dev/null 2>&1) || { echo nan; return; }
  fi
  awk '/^Loop time/ {print $12 * $9 / $4}' "$log"
}
ours_rate() {  # threads [binary] -> atom-steps/s of the loop
  OMP_NUM_THREADS=$1 OMP_PROC_BIND=spread OMP_PLACES=threads "${2:-$bin}" md "$repo/inputs/lj_bench.yaml" \
    --quiet --summary "$work/s.json" >/dev/null 2>&1
  python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['atom_steps_per_s'])" "$work/s.json"
}
declare -a l1 o1 l2 o2 p1 p2
for r in $(seq 1 "$rounds"); do
  l1+=("$(lmp_rate 1)")
  o1+=("$(ours_rate 1)")
  [[ -x $portable ]] && p1+=("$(ours_rate 1 "$portable")")
  if command -v mpirun >/dev/null; then l2+=("$(lmp_rate 2)"); fi
  o2+=("$(ours_rate 2)")
  [[ -x $portable ]] && p2+=("$(ours_rate 2 "$portable")")
  echo "round $r: lammps-1 ${l1[-1]} mdremap-1 ${o1[-1]} portable-1 ${p1[-1]:-n/a}" \
    "lammps-2 ${l2[-1]:-n/a} mdremap-2 ${o2[-1]} portable-2 ${p2[-1]:-n/a}"
done
python3 - "${l1[*]}" "${o1[*]}" "${l2[*]:-}" "${o2[*]}" "${p1[*]:-}" "${p2[*]:-}" <<'PY'
import statistics, sys
def med(s):
    v = [float(x) for x in s.split() if x != "nan"]
    return statistics.median(v) if v else float("nan")
l1, o1, l2, o2, p1, p2 = (med(a) for a in sys.argv[1:7])
print(f"median atom-steps/s: LAMMPS 1 core {l1:.3g}, mdremap 1 thread {o1:.3g} ({o1 / l1:.2f}x); "
      f"LAMMPS 2 ranks {l2:.3g}, mdremap 2 threads {o2:.3g} ({o2 / l2:.2f}x); "
      f"mdremap per core on 2 threads against LAMMPS on 1 core: {o2 / 2 / l1:.2f}x")
if p1 == p1:
    print(f"portable build (no AVX-512 loops): 1 thread {p1:.3g} ({p1 / l1:.2f}x LAMMPS), "
          f"2 threads {p2:.3g} ({p2 / 2 / l1:.2f}x per core)")
PY

#!/usr/bin/env bash
# MPI on one GPU (the device machine, carrying .carry with a `BUNDLE_MPI=1 tools/gpu-run.sh
# bundle`): the MPI build against the same source built without MPI, and 2 ranks sharing the GPU.
#
#   bash tools/mpi-gpu.sh            # results: $OUT/mpi.md (tables) and $OUT/mpi.tgz (everything)
#
# 1. The 4M-atom deck (inputs/lj_large.yaml, 200 steps), double and single, ROUNDS [3]
#    interleaved rounds of: mdremap-nompi; the MPI build started without mpirun; the MPI build
#    under `mpirun -np 1`; `mpirun -np 2` (two ranks on the one GPU). Medians of atom-steps/s and
#    their ratios to the build without MPI.
# 2. Correctness of 1 and 2 ranks on the GPU: 200 NVE steps with neighbor.row_order=id in double,
#    thermo every 20 steps against the build without MPI (step 0 within 1e-12, the rest 1e-9),
#    and the MPI test cases (tests/mpi/test_mpi.sh thermo 1 and 2, migration 2, refused) with this
#    bundle's binary.
# 3. `mdremap info` under mpirun: the library and whether it is GPU-aware.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
source tools/unbundle.sh && unbundle "$repo"
export OUT=${OUT:-$repo/out}
out=$OUT/mpi
mkdir -p "$out"
bin=$repo/.bundle/bin/mdremap
nompi=$repo/.bundle/bin/mdremap-nompi
mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none)
export MDREMAP_MPIRUN=mpirun
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  mpirun --version | head -n 1
  echo "--- mdremap info (MPI build, mpirun -np 1)"
  "${mpi[@]}" -np 1 "$bin" info
  echo "--- mdremap-nompi info"
  "$nompi" info | grep -i mpi
} >"$out/info.txt" 2>&1
cat "$out/info.txt"

deck=inputs/lj_large.yaml
rounds=${ROUNDS:-3}
run() {  # tag prec cmd...
  local tag=$1 prec=$2
  shift 2
  "$@" md "$deck" --precision "$prec" --quiet --summary "$out/${tag}_${prec}_r$r.json" \
    >"$out/${tag}_${prec}_r$r.log" 2>&1 || echo "FAIL $tag $prec round $r (exit $?)"
}
for ((r = 1; r <= rounds; ++r)); do
  for prec in double single; do
    run nompi "$prec" "$nompi"
    run mpibuild "$prec" "$bin"
    run np1 "$prec" "${mpi[@]}" -np 1 "$bin"
    run np2 "$prec" "${mpi[@]}" -np 2 "$bin"
  done
  echo "round $r done"
done

# Correctness: the same 200 steps, forces summed in id order, thermo every 20 steps.
ordered=(--steps 200 --set run.thermo=20 --set neighbor.row_order=id --precision double -q)
"$nompi" md "$deck" "${ordered[@]}" --thermo-csv "$out/ref.csv" >/dev/null 2>&1
for n in 1 2; do
  "${mpi[@]}" -np "$n" "$bin" md "$deck" "${ordered[@]}" --thermo-csv "$out/np$n.csv" \
    >/dev/null 2>&1 || echo "FAIL correctness run -np $n"
  python3 tests/mpi/compare_thermo.py "$out/ref.csv" "$out/np$n.csv" --step0 1e-12 --rest 1e-9 \
    --label "4M atoms, -np $n on one GPU vs the build without MPI:" 2>&1 | tee -a "$out/correct.txt"
done
for c in "thermo 1" "thermo 2" "migration 2" "refused"; do
  # shellcheck disable=SC2086
  if bash tests/mpi/test_mpi.sh "$bin" "$repo" $c >"$out/test_${c// /_}.log" 2>&1; then
    echo "PASS test_mpi $c" | tee -a "$out/tests.txt"
  else
    echo "FAIL test_mpi $c" | tee -a "$out/tests.txt"
    tail -n 20 "$out/test_${c// /_}.log"
  fi
done

python3 - "$out" "$rounds" <<'PY' | tee "$OUT/mpi.md"
import glob, json, os, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
print(open(os.path.join(out, "info.txt")).read().split("\n")[0])
print(f"\n4M atoms (inputs/lj_large.yaml, 200 steps), {rounds} interleaved rounds, median atom-steps/s\n")
print("| precision | build without MPI | MPI build, no mpirun | MPI build, mpirun -np 1 | mpirun -np 2 (one GPU) | np1 / no MPI | np2 / no MPI |")
print("|---|---|---|---|---|---|---|")
for prec in ("double", "single"):
    m = {}
    for tag in ("nompi", "mpibuild", "np1", "np2"):
        v = [json.load(open(f))["atom_steps_per_s"] for f in glob.glob(os.path.join(out, f"{tag}_{prec}_r*.json"))]
        m[tag] = statistics.median(v) if v else float("nan")
    print(f"| {prec} | {m['nompi']:.4g} | {m['mpibuild']:.4g} | {m['np1']:.4g} | {m['np2']:.4g} | "
          f"{m['np1'] / m['nompi']:.3f} | {m['np2'] / m['nompi']:.3f} |")
for name in ("correct.txt", "tests.txt"):
    p = os.path.join(out, name)
    if os.path.exists(p):
        print("\n" + open(p).read().strip())
PY
tar -czf "$OUT/mpi.tgz" -C "$OUT" mpi && rm -rf "$out"

#!/usr/bin/env bash
# Multi-GPU runs on a machine of several GPUs (the device call carries .carry with a `BUNDLE_MPI=1
# tools/gpu-run.sh bundle`): one rank per GPU (Kokkos maps a rank to the GPU of its node-local
# rank).
#
#   bash tools/multigpu.sh        # results: $OUT/multigpu.md (tables) and $OUT/multigpu.tgz
#
# GPU counts: 1, 2, 4, 8 up to the GPUs the machine has (GPUS="1 2" narrows them). ROUNDS [2]
# interleaved rounds of:
# 1. Weak scaling, 4,000,000 atoms per GPU (the bench deck inputs/lj_large.yaml stretched along
#    x, then y, then z: 100x100x100 fcc cells per GPU), double and single, WEAK_STEPS [1000]
#    steps; on several GPUs with the ghosts sent by CUDA IPC (transfer auto) and staged through
#    host memory (transfer host). Also 2,048,000 atoms per GPU in double (the LAMMPS KOKKOS
#    anchor's size). SEQUENTIAL=1 adds transfer "seq": CUDA IPC with parallel.overlap=off (the
#    step's ghost update before the forces instead of beside them).
# 2. Strong scaling, 16,384,000 atoms (160^3 cells), double and single, STRONG_STEPS [500].
# Then: thermo of 1,000 NVE steps at 4M atoms with neighbor.row_order=id on 1 GPU against N
# GPUs (both transfers): step 0 within 1e-12, the rest within 1e-9; the MPI test cases with
# this bundle's binary; which GPU each rank ran on (nvidia-smi sampled during a run).
# NVLink multicast stays off (the device machines' rule): NCCL_NVLS_ENABLE=0 and the rest.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
source tools/unbundle.sh && unbundle "$repo"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export OUT=${OUT:-$repo/out}
out=$OUT/multigpu
mkdir -p "$out"
bin=$repo/.bundle/bin/mdremap
mpi=(timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE
  -x TORCH_SYMM_MEM_DISABLE_MULTICAST -x NVSHMEM_DISABLE_NVLS -x LD_LIBRARY_PATH)
export MDREMAP_MPIRUN=mpirun
ngpu=$(nvidia-smi -L | wc -l)
gpus=${GPUS:-}
if [[ -z $gpus ]]; then
  for n in 1 2 4 8; do ((n <= ngpu)) && gpus+="$n "; done
fi
{
  date -u
  nvidia-smi -L
  nvidia-smi --query-gpu=index,name,driver_version,memory.total,pci.bus_id --format=csv
  echo "--- nvidia-smi topo -m"
  nvidia-smi topo -m
  nproc
  mpirun --version | head -n 1
  echo "--- mdremap info (mpirun -np 2)"
  "${mpi[@]}" -np 2 "$bin" info
  echo "--- mdremap info (no mpirun)"
  "$bin" info | head -n 12
} >"$out/info.txt" 2>&1
cat "$out/info.txt"

# cells of N GPUs at P cells a side per GPU: doubled along x, then y, then z
cells() {
  local n=$1 c=$2 x=$2 y=$2 z=$2
  ((n >= 2)) && x=$((2 * c))
  ((n >= 4)) && y=$((2 * c))
  ((n >= 8)) && z=$((2 * c))
  echo "[$x,$y,$z]"
}
deck=inputs/lj_large.yaml
rounds=${ROUNDS:-2}
weak_steps=${WEAK_STEPS:-1000}
strong_steps=${STRONG_STEPS:-500}
run() {  # tag n prec steps cells transfer
  local tag=$1 n=$2 prec=$3 steps=$4 c=$5 tr=$6
  local f="$out/${tag}_n${n}_${prec}_${tr}_r$r"
  local set=(--set "parallel.transfer=$tr")
  [[ $tr == seq ]] && set=(--set parallel.transfer=auto --set parallel.overlap=off)
  "${mpi[@]}" -np "$n" "$bin" md "$deck" --precision "$prec" --steps "$steps" --quiet \
    --set "system.lattice.cells=$c" "${set[@]}" --summary "$f.json" \
    >"$f.log" 2>&1 || echo "FAIL $tag n=$n $prec $tr round $r (exit $?)"
}
# Which GPU each rank uses: compute processes sampled while the first 2-GPU run goes.
sampled=0
for ((r = 1; r <= rounds; ++r)); do
  for n in $gpus; do
    trs=auto
    ((n > 1)) && trs="auto host"
    ((n > 1)) && [[ ${SEQUENTIAL:-0} == 1 ]] && trs+=" seq"
    for tr in $trs; do
      if ((n > 1 && sampled == 0)); then
        (sleep 3 && nvidia-smi --query-compute-apps=pid,gpu_bus_id,used_memory --format=csv) \
          >"$out/ranks_on_gpus.txt" 2>&1 &
        sampled=1
      fi
      for prec in double single; do run weak4m "$n" "$prec" "$weak_steps" "$(cells "$n" 100)" "$tr"; done
      run weak2m "$n" double "$weak_steps" "$(cells "$n" 80)" "$tr"
    done
    for prec in double single; do run strong16m "$n" "$prec" "$strong_steps" "[160,160,160]" auto; done
  done
  echo "round $r done"
done
wait

# Thermo on N GPUs against 1 GPU: forces summed in id order, 1,000 steps at 4M atoms.
ordered=(--steps 1000 --set run.thermo=100 --set neighbor.row_order=id --precision double -q)
"${mpi[@]}" -np 1 "$bin" md "$deck" "${ordered[@]}" --thermo-csv "$out/ref.csv" >/dev/null 2>&1 ||
  echo "FAIL thermo reference run"
for n in $gpus; do
  ((n == 1)) && continue
  for tr in auto host; do
    "${mpi[@]}" -np "$n" "$bin" md "$deck" "${ordered[@]}" --set "parallel.transfer=$tr" \
      --thermo-csv "$out/np${n}_$tr.csv" >/dev/null 2>&1 || echo "FAIL thermo run -np $n $tr"
    python3 tests/mpi/compare_thermo.py "$out/ref.csv" "$out/np${n}_$tr.csv" --step0 1e-12 \
      --rest 1e-9 --label "4M atoms, 1,000 steps, $n GPUs (transfer $tr) vs 1 GPU:" 2>&1 |
      tee -a "$out/correct.txt"
  done
done
cases=("thermo 2" "thermo 4" "migration 4" "refused")
[[ ${SKIP_TESTS:-0} == 1 ]] && cases=()  # SKIP_TESTS=1: the scaling runs and thermo check only
for c in "${cases[@]}"; do
  # shellcheck disable=SC2086
  if timeout 150 bash tests/mpi/test_mpi.sh "$bin" "$repo" $c >"$out/test_${c// /_}.log" 2>&1; then
    echo "PASS test_mpi $c" | tee -a "$out/tests.txt"
  else
    echo "FAIL test_mpi $c" | tee -a "$out/tests.txt"
    tail -n 20 "$out/test_${c// /_}.log"
  fi
done

python3 - "$out" "$rounds" "$gpus" <<'PY' | tee "$OUT/multigpu.md"
import glob, json, os, statistics, sys
out, rounds, gpus = sys.argv[1], int(sys.argv[2]), [int(g) for g in sys.argv[3].split()]
info = open(os.path.join(out, "info.txt")).read().splitlines()
print(f"{info[1] if len(info) > 1 else ''} and {len(gpus)} GPU counts {gpus}; {rounds} interleaved rounds, medians")

def runs(tag, n, prec, tr):
    return [json.load(open(f)) for f in sorted(glob.glob(os.path.join(out, f"{tag}_n{n}_{prec}_{tr}_r*.json")))]

def med(js, key):
    v = [j[key] for j in js]
    return statistics.median(v) if v else float("nan")

def split(js):
    if not js:
        return "n/a"
    keys = ("force", "neighbor", "exchange", "exchange_rebuild", "exchange_migrate", "exchange_mpi", "integrate", "other", "exchange_overlapped")
    m = {k: statistics.median([j["time_split_ms_per_step"].get(k, 0.0) for j in js]) for k in keys}
    return " / ".join(f"{m[k]:.3f}" for k in keys)

for tag, title, per_gpu in (("weak4m", "Weak scaling, 4,000,000 atoms per GPU", True),
                            ("weak2m", "Weak scaling, 2,048,000 atoms per GPU", True),
                            ("strong16m", "Strong scaling, 16,384,000 atoms", False)):
    print(f"\n{title}\n")
    print("| precision | GPUs | transfer | atoms | atom-steps/s | per GPU | steps/s | efficiency | ms/step force / neighbor / exchange / of it at list builds / of those migrations / in MPI / integrate / other / beside the forces (rank 0) | transfer used |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for prec in ("double", "single"):
        base = runs(tag, 1, prec, "auto")
        if not base:
            continue
        b = med(base, "atom_steps_per_s")
        for n in gpus:
            for tr in (("auto",) if n == 1 else ("auto", "seq", "host")):
                js = runs(tag, n, prec, tr)
                if not js:
                    continue
                a = med(js, "atom_steps_per_s")
                steps_s = statistics.median([j["steps"] / j["loop_seconds"] for j in js])
                eff = (a / n) / b if per_gpu else a / (n * b)
                used = js[0].get("mpi", {}).get("transfer", "") or "one rank"
                print(f"| {prec} | {n} | {tr} | {js[0]['atoms']} | {a:.4g} | {a / n:.4g} | {steps_s:.4g} | "
                      f"{100 * eff:.1f}% | {split(js)} | {used} |")
for name in ("correct.txt", "tests.txt", "ranks_on_gpus.txt"):
    p = os.path.join(out, name)
    if os.path.exists(p):
        print(f"\n{name}:\n" + open(p).read().strip())
PY
tar -czf "$OUT/multigpu.tgz" -C "$OUT" multigpu && rm -rf "$out"

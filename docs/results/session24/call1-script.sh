# Session 24, call 1 (nvidia-h100-x4): where the 4-GPU single-precision step's extra time goes
# (issue 17). The session-23 bundle (MD unchanged since session 17). Weak 4M atoms per GPU,
# single, 300 steps: 1 and 4 GPUs plain (2 rounds), then with the kernel timer per rank.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=name,temperature.gpu,clocks.sm --format=csv,noheader
M="timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x KOKKOS_TOOLS_LIBS -x KP_TIMER_OUT"
cells() { case $1 in 1) echo "[100,100,100]";; 2) echo "[200,100,100]";; 4) echo "[200,200,100]";; esac; }
for r in 1 2; do
  for n in 1 4; do
    $M -np $n $B/mdremap md inputs/lj_large.yaml --precision single --steps 300 --quiet \
      --set "system.lattice.cells=$(cells $n)" --summary $OUT/p_n${n}_r$r.json > $OUT/p_n${n}_r$r.log 2>&1 || echo "FAIL n=$n r=$r"
  done
done
python3 - $OUT <<'PY'
import json, sys, glob
for f in sorted(glob.glob(sys.argv[1] + "/p_*.json")):
    d = json.load(open(f))
    print(f.split("/")[-1], f"{d['atom_steps_per_s']:.4g}", "rebuild_ms_each", round(d["rebuild_ms_each"], 3), {k: round(v, 4) for k, v in d["time_split_ms_per_step"].items()})
PY
export KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so
for n in 1 4; do
  export KP_TIMER_OUT=$OUT/timer_n${n}_%r.txt
  $M -np $n $B/mdremap md inputs/lj_large.yaml --precision single --steps 300 --quiet \
    --set "system.lattice.cells=$(cells $n)" --summary $OUT/t_n${n}.json > $OUT/t_n${n}.log 2>&1 || echo "FAIL timer n=$n"
done
head -45 $OUT/timer_n1_0.txt; echo ----; head -60 $OUT/timer_n4_0.txt

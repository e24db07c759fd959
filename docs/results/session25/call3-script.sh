# Session 25, call 3 (nvidia-h200-x4 asked): the ghost update's receive kernels, which wait on the
# partner's flag beside the forces of the atoms away from the faces: 64 teams of 256 (the
# default), 8 teams, and 0 (one warp waits, then a copy kernel), by MDREMAP_RECEIVE_TEAMS; weak
# 4M atoms per GPU, single and double, 600 steps, 3 interleaved rounds; one GPU as reference.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=name,temperature.gpu,clocks.sm,clocks.mem --format=csv,noheader
M="timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x MDREMAP_RECEIVE_TEAMS"
cells() { case $1 in 1) echo "[100,100,100]";; 4) echo "[200,200,100]";; esac; }
timeout 100 bash tests/mpi/test_mpi.sh $B/mdremap $PWD thermo 4 > $OUT/test_thermo_4_t0.log 2>&1 && echo "PASS thermo 4 (teams 64)" || echo "FAIL thermo 4"
MDREMAP_RECEIVE_TEAMS=0 timeout 100 bash tests/mpi/test_mpi.sh $B/mdremap $PWD thermo 4 > $OUT/test_thermo_4_t0.log 2>&1 && echo "PASS thermo 4 (teams 0)" || echo "FAIL thermo 4 teams 0"
for r in 1 2 3; do
  for prec in single double; do
    export MDREMAP_RECEIVE_TEAMS=64
    $M -np 1 $B/mdremap md inputs/lj_large.yaml --precision $prec --steps 600 --quiet \
      --set "system.lattice.cells=$(cells 1)" --summary $OUT/rt_one_${prec}_r$r.json > $OUT/rt_one_${prec}_r$r.log 2>&1 || echo "FAIL one $prec r=$r"
    for t in 64 8 0; do
      export MDREMAP_RECEIVE_TEAMS=$t
      $M -np 4 $B/mdremap md inputs/lj_large.yaml --precision $prec --steps 600 --quiet \
        --set "system.lattice.cells=$(cells 4)" --summary $OUT/rt_t${t}_${prec}_r$r.json > $OUT/rt_t${t}_${prec}_r$r.log 2>&1 || echo "FAIL t=$t $prec r=$r"
    done
  done
done
python3 - $OUT <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
keys = ("force", "neighbor", "integrate", "exchange", "exchange_overlapped")
for prec in ("single", "double"):
    one = [json.load(open(f)) for f in sorted(glob.glob(f"{out}/rt_one_{prec}_r*.json"))]
    o = statistics.median([j["atom_steps_per_s"] for j in one])
    print(f"{prec} 1 GPU {o:.4g} {[round(j['atom_steps_per_s']/1e9,4) for j in one]} force {statistics.median([j['time_split_ms_per_step']['force'] for j in one]):.4f}")
    for t in ("64", "8", "0"):
        js = [json.load(open(f)) for f in sorted(glob.glob(f"{out}/rt_t{t}_{prec}_r*.json"))]
        m = statistics.median([j["atom_steps_per_s"] for j in js])
        sp = {k: round(statistics.median([j["time_split_ms_per_step"].get(k, 0) for j in js]), 4) for k in keys}
        print(f"  teams {t}: 4 GPUs {m:.4g} {[round(j['atom_steps_per_s']/1e9,4) for j in js]} eff {100*m/4/o:.1f}% {sp}")
PY
cd $OUT && tar czf call3.tgz rt_* test_*.log && rm -f rt_* test_*.log

# Session 24, call 6 (nvidia-h100-x4): is the 4-rank force/integrate excess tied to CUDA IPC?
# 4M atoms per GPU, single, 600 steps, 2 rounds: 1 rank; 4 ranks with overlap off (one force
# kernel after the ghosts are in) through CUDA IPC and through host staging (no peer mapping).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=name,temperature.gpu,clocks.sm --format=csv,noheader
M="timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH"
for r in 1 2; do
  $M -np 1 $B/mdremap md inputs/lj_large.yaml --precision single --steps 600 --quiet --summary $OUT/one_r$r.json > $OUT/one_r$r.log 2>&1 || echo FAIL one
  for tr in auto host; do
    $M -np 4 $B/mdremap md inputs/lj_large.yaml --precision single --steps 600 --quiet --set "system.lattice.cells=[200,200,100]" \
      --set parallel.overlap=off --set parallel.transfer=$tr --summary $OUT/seq_${tr}_r$r.json > $OUT/seq_${tr}_r$r.log 2>&1 || echo "FAIL $tr"
  done
done
python3 - $OUT <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
for tag in ("one", "seq_auto", "seq_host"):
    js = [json.load(open(f)) for f in sorted(glob.glob(f"{out}/{tag}_r*.json"))]
    t = {k: statistics.median([j["time_split_ms_per_step"].get(k, 0) for j in js]) for k in js[0]["time_split_ms_per_step"]}
    print(tag, "%.4g" % statistics.median([j["atom_steps_per_s"] for j in js]), {k: round(v, 4) for k, v in t.items() if v}, js[0]["engine"][-120:])
PY
cd $OUT && tar czf call6.tgz *.json *.log && rm -f *.json *.log

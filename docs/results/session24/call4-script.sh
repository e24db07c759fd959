# Session 24, call 4 (nvidia-h100-x4): the final build (tiled scans also for the cells' offsets)
# against the session-23 build (base), weak 4M atoms per GPU, single and double, 600 steps, 2
# interleaved rounds; test_md_physics and test_neighbor on GPU 0; then the scaling table
# (tools/multigpu.sh, 2 rounds: weak 4M and 2M per GPU, strong 16.4M, thermo N GPUs vs 1, the
# MPI tests).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
mkdir -p .base && tar -C .base -xJf .carry/base.tar.xz && cp .base/bin/mdremap $B/mdremap-base
nvidia-smi --query-gpu=name,temperature.gpu,clocks.sm --format=csv,noheader
M="timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH"
cells() { case $1 in 1) echo "[100,100,100]";; 4) echo "[200,200,100]";; esac; }
for t in test_neighbor test_md_physics; do
  $B/$t > $OUT/$t.log 2>&1 && echo "PASS $t $(grep -c '^\[       OK' $OUT/$t.log) ok" || { echo "FAIL $t"; grep -E "FAILED|Failure" $OUT/$t.log | head; }
done
for r in 1 2; do
  for prec in single double; do
    for n in 1 4; do
      for v in base new; do
        bin=$B/mdremap; [[ $v == base ]] && bin=$B/mdremap-base
        $M -np $n $bin md inputs/lj_large.yaml --precision $prec --steps 600 --quiet \
          --set "system.lattice.cells=$(cells $n)" --summary $OUT/ab_${v}_${prec}_n${n}_r$r.json > $OUT/ab_${v}_${prec}_n${n}_r$r.log 2>&1 || echo "FAIL $v $prec n=$n r=$r"
      done
    done
  done
done
python3 - $OUT <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
for prec in ("single", "double"):
    for v in ("base", "new"):
        m = {}
        for n in (1, 4):
            js = [json.load(open(f)) for f in sorted(glob.glob(f"{out}/ab_{v}_{prec}_n{n}_r*.json"))]
            m[n] = (statistics.median([j["atom_steps_per_s"] for j in js]), statistics.median([j["rebuild_ms_each"] for j in js]), statistics.median([j["time_split_ms_per_step"]["force"] for j in js]))
        print(f"{prec} {v}: 1 GPU {m[1][0]:.4g} rebuild {m[1][1]:.3f} force {m[1][2]:.3f} | 4 GPUs {m[4][0]:.4g} rebuild {m[4][1]:.3f} force {m[4][2]:.3f} | eff {100*m[4][0]/4/m[1][0]:.1f}%")
PY
cd $OUT && tar czf call4-ab.tgz ab_* test_*.log && rm -f ab_* test_*.log; cd - > /dev/null
q() { nvidia-smi --query-gpu=index,temperature.gpu,power.draw,clocks.sm --format=csv,noheader; }
echo "--- before"; q
ROUNDS=2 WEAK_STEPS=600 STRONG_STEPS=300 bash tools/multigpu.sh > $OUT/multigpu-stdout.txt 2>&1
echo "--- after"; q
tail -n 60 $OUT/multigpu.md

# Session 24, call 7 (nvidia-h100-x4): neighbour rows on 128-byte lines (column-major stride_j =
# n rounded up to 32) against call 4's final build (base), weak 4M atoms per GPU, single and
# double, 600 steps, 2 interleaved rounds; test_neighbor, test_remap_md on GPU 0; test_mpi cases.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
mkdir -p .base && tar -C .base -xJf .carry/base.tar.xz && cp .base/bin/mdremap $B/mdremap-base
nvidia-smi --query-gpu=name,temperature.gpu,clocks.sm --format=csv,noheader
M="timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH"
cells() { case $1 in 1) echo "[100,100,100]";; 4) echo "[200,200,100]";; esac; }
for t in test_neighbor test_remap_md; do
  $B/$t > $OUT/$t.log 2>&1 && echo "PASS $t $(grep -c '^\[       OK' $OUT/$t.log) ok" || { echo "FAIL $t"; grep -E "FAILED|Failure" $OUT/$t.log | head; }
done
for c in "thermo 4" "migration 4"; do
  timeout 200 bash tests/mpi/test_mpi.sh $B/mdremap $PWD $c > $OUT/test_${c// /_}.log 2>&1 && echo "PASS $c" || { echo "FAIL $c"; tail -8 $OUT/test_${c// /_}.log; }
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
keys = ("force", "neighbor", "integrate", "exchange")
for prec in ("single", "double"):
    for v in ("base", "new"):
        m = {}
        for n in (1, 4):
            js = [json.load(open(f)) for f in sorted(glob.glob(f"{out}/ab_{v}_{prec}_n{n}_r*.json"))]
            m[n] = (statistics.median([j["atom_steps_per_s"] for j in js]), statistics.median([j["rebuild_ms_each"] for j in js]),
                    {k: round(statistics.median([j["time_split_ms_per_step"].get(k, 0) for j in js]), 4) for k in keys}, [round(j["atom_steps_per_s"] / 1e9, 4) for j in js])
        print(f"{prec} {v}: 1 GPU {m[1][0]:.4g} {m[1][3]} rebuild {m[1][1]:.3f} {m[1][2]} | 4 GPUs {m[4][0]:.4g} {m[4][3]} rebuild {m[4][1]:.3f} {m[4][2]} | eff {100*m[4][0]/4/m[1][0]:.1f}%")
PY
cd $OUT && tar czf call7.tgz ab_* test_*.log && rm -f ab_* test_*.log

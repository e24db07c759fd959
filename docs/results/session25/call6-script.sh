# Session 25, call 6 (nvidia-h100-x4): the review's changes (every velocity/force array padded,
# sorts without forces, the sort's box from the builder's) against call 4's build (base), weak 4M
# atoms per GPU, single and double, 600 steps, 2 interleaved rounds; test_integrators,
# test_md_physics, test_remap_md on GPU 0; test_mpi restart, thermo 4, deck.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
xz -dc .carry/mdremap-base.xz > $B/mdremap-base && chmod +x $B/mdremap-base
nvidia-smi --query-gpu=name,temperature.gpu,clocks.sm,clocks.mem --format=csv,noheader
M="timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH"
cells() { case $1 in 1) echo "[100,100,100]";; 4) echo "[200,200,100]";; esac; }
for t in test_integrators test_md_physics test_remap_md; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1 && echo "PASS $t $(grep -c '^\[       OK' $OUT/$t.log) ok" || { echo "FAIL $t"; grep -E "FAILED|Failure" $OUT/$t.log | head; }
done
export MDREMAP_MPIRUN=mpirun
for c in restart "thermo 4" deck; do
  timeout 200 bash tests/mpi/test_mpi.sh $B/mdremap $PWD $c > $OUT/test_${c// /_}.log 2>&1 && echo "PASS test_mpi $c" || { echo "FAIL test_mpi $c"; tail -8 $OUT/test_${c// /_}.log; }
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
keys = ("force", "neighbor", "integrate", "exchange", "exchange_rebuild", "exchange_migrate")
for prec in ("single", "double"):
    for v in ("base", "new"):
        m = {}
        for n in (1, 4):
            js = [json.load(open(f)) for f in sorted(glob.glob(f"{out}/ab_{v}_{prec}_n{n}_r*.json"))]
            m[n] = (statistics.median([j["atom_steps_per_s"] for j in js]), statistics.median([j["rebuild_ms_each"] for j in js]),
                    {k: round(statistics.median([j["time_split_ms_per_step"].get(k, 0) for j in js]), 4) for k in keys}, [round(j["atom_steps_per_s"] / 1e9, 4) for j in js])
        print(f"{prec} {v}: 1 GPU {m[1][0]:.4g} {m[1][3]} rebuild {m[1][1]:.3f} {m[1][2]} | 4 GPUs {m[4][0]:.4g} {m[4][3]} rebuild {m[4][1]:.3f} {m[4][2]} | eff {100*m[4][0]/4/m[1][0]:.1f}%")
PY
cd $OUT && tar czf call6.tgz ab_* test_*.log && rm -f ab_* test_*.log

# Session 25, call 2 (nvidia-h200-x4 asked): three builds in interleaved rounds: base (session
# 24's final build), mid (call 1's: migrated v/f components on 128-byte lines, migrations without
# forces) and new (mid + a decomposed run's atoms sorted by its sub-box's cells, the list build's
# cells); weak 4M atoms per GPU, single and double, 600 steps, 2 rounds; kernel timer of new at
# 1 and 4 GPUs (single); test_integrators, test_md_physics on GPU 0; test_mpi thermo 4,
# migration 4, thermo 2.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
xz -dc .carry/mdremap-base.xz > $B/mdremap-base && chmod +x $B/mdremap-base
xz -dc .carry/mdremap-mid.xz > $B/mdremap-mid && chmod +x $B/mdremap-mid
nvidia-smi --query-gpu=name,temperature.gpu,clocks.sm,clocks.mem --format=csv,noheader
M="timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH"
cells() { case $1 in 1) echo "[100,100,100]";; 4) echo "[200,200,100]";; esac; }
for t in test_integrators test_md_physics; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1 && echo "PASS $t $(grep -c '^\[       OK' $OUT/$t.log) ok" || { echo "FAIL $t"; grep -E "FAILED|Failure" $OUT/$t.log | head; }
done
for c in "thermo 4" "migration 4" "thermo 2"; do
  timeout 200 bash tests/mpi/test_mpi.sh $B/mdremap $PWD $c > $OUT/test_${c// /_}.log 2>&1 && echo "PASS $c" || { echo "FAIL $c"; tail -8 $OUT/test_${c// /_}.log; }
done
for r in 1 2; do
  for prec in single double; do
    for n in 1 4; do
      for v in base mid new; do
        bin=$B/mdremap; [[ $v != new ]] && bin=$B/mdremap-$v
        $M -np $n $bin md inputs/lj_large.yaml --precision $prec --steps 600 --quiet \
          --set "system.lattice.cells=$(cells $n)" --summary $OUT/ab_${v}_${prec}_n${n}_r$r.json > $OUT/ab_${v}_${prec}_n${n}_r$r.log 2>&1 || echo "FAIL $v $prec n=$n r=$r"
      done
    done
  done
done
export KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so
for n in 1 4; do
  KP_TIMER_OUT=$OUT/kt_n${n}_%r.txt $M -x KOKKOS_TOOLS_LIBS -x KP_TIMER_OUT -np $n $B/mdremap md inputs/lj_large.yaml --precision single --steps 300 --quiet \
    --set "system.lattice.cells=$(cells $n)" > $OUT/kt_n$n.log 2>&1 || echo "FAIL kt $n"
done
unset KOKKOS_TOOLS_LIBS
python3 - $OUT <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
keys = ("force", "neighbor", "integrate", "exchange", "exchange_rebuild", "exchange_migrate")
for prec in ("single", "double"):
    one = statistics.median([json.load(open(f))["atom_steps_per_s"] for f in glob.glob(f"{out}/ab_*_{prec}_n1_r*.json")])
    for v in ("base", "mid", "new"):
        m = {}
        for n in (1, 4):
            js = [json.load(open(f)) for f in sorted(glob.glob(f"{out}/ab_{v}_{prec}_n{n}_r*.json"))]
            m[n] = (statistics.median([j["atom_steps_per_s"] for j in js]), statistics.median([j["rebuild_ms_each"] for j in js]),
                    {k: round(statistics.median([j["time_split_ms_per_step"].get(k, 0) for j in js]), 4) for k in keys}, [round(j["atom_steps_per_s"] / 1e9, 4) for j in js])
        print(f"{prec} {v}: 1 GPU {m[1][0]:.4g} {m[1][3]} rebuild {m[1][1]:.3f} {m[1][2]} | 4 GPUs {m[4][0]:.4g} {m[4][3]} rebuild {m[4][1]:.3f} {m[4][2]} | eff {100*m[4][0]/4/m[1][0]:.1f}% (against all builds' 1-GPU median {100*m[4][0]/4/one:.1f}%)")
PY
for f in $OUT/kt_n1_0.txt $OUT/kt_n4_0.txt; do echo "--- $f"; grep -v "alloc\|initialization" $f 2>/dev/null | head -24; done
cd $OUT && tar czf call2.tgz ab_* kt_* test_*.log && rm -f ab_* kt_* test_*.log

# Session 25, call 1 (nvidia-h200-x4 asked): migrated velocity/force arrays with components on
# 128-byte lines, migrations without forces (new) against the session-24 final build (base),
# weak 4M atoms per GPU, single and double, 600 steps, 2 interleaved rounds; a 4-GPU single run
# with parallel.overlap=off and kernel-timer runs (1 and 4 GPUs, single) of the new build;
# test_integrators, test_md_physics, test_remap_md on GPU 0; test_mpi thermo 4, migration 4.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
mkdir -p .base && tar -C .base -xJf .carry/base.tar.xz && cp .base/bin/mdremap $B/mdremap-base
nvidia-smi --query-gpu=name,temperature.gpu,clocks.sm,clocks.mem --format=csv,noheader
M="timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH"
cells() { case $1 in 1) echo "[100,100,100]";; 4) echo "[200,200,100]";; esac; }
for t in test_integrators test_md_physics test_remap_md; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1 && echo "PASS $t $(grep -c '^\[       OK' $OUT/$t.log) ok" || { echo "FAIL $t"; grep -E "FAILED|Failure" $OUT/$t.log | head; }
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
$M -np 4 $B/mdremap md inputs/lj_large.yaml --precision single --steps 600 --quiet --set parallel.overlap=off \
  --set "system.lattice.cells=$(cells 4)" --summary $OUT/seq_new_single_n4.json > $OUT/seq_new_single_n4.log 2>&1 || echo "FAIL seq"
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
    for v in ("base", "new"):
        m = {}
        for n in (1, 4):
            js = [json.load(open(f)) for f in sorted(glob.glob(f"{out}/ab_{v}_{prec}_n{n}_r*.json"))]
            m[n] = (statistics.median([j["atom_steps_per_s"] for j in js]), statistics.median([j["rebuild_ms_each"] for j in js]),
                    {k: round(statistics.median([j["time_split_ms_per_step"].get(k, 0) for j in js]), 4) for k in keys}, [round(j["atom_steps_per_s"] / 1e9, 4) for j in js])
        print(f"{prec} {v}: 1 GPU {m[1][0]:.4g} {m[1][3]} rebuild {m[1][1]:.3f} {m[1][2]} | 4 GPUs {m[4][0]:.4g} {m[4][3]} rebuild {m[4][1]:.3f} {m[4][2]} | eff {100*m[4][0]/4/m[1][0]:.1f}%")
for f in glob.glob(f"{out}/seq_*.json"):
    j = json.load(open(f)); print(f.split('/')[-1], f"{j['atom_steps_per_s']:.4g}", j["rebuild_ms_each"], j["time_split_ms_per_step"])
PY
for f in $OUT/kt_n1_0.txt $OUT/kt_n4_0.txt; do echo "--- $f"; head -22 $f 2>/dev/null; done
cd $OUT && tar czf call1.tgz ab_* seq_* kt_* test_*.log && rm -f ab_* seq_* kt_* test_*.log

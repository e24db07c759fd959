# Session 24, call 3 (nvidia-h100-x4): the tiled scans with the tiles' offsets in one team and
# the migration's marking pass without local memory, against the session-23 build (base), weak
# 4M atoms per GPU, 600 steps, 3 interleaved rounds; the GPU tests; whether the atom order's
# decay costs the decomposed force kernel (periodic re-sorts, 200-step runs); the kernel timer.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
mkdir -p .base && tar -C .base -xJf .carry/base.tar.xz && cp .base/bin/mdremap $B/mdremap-base
nvidia-smi --query-gpu=name,temperature.gpu,clocks.sm --format=csv,noheader
M="timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x KOKKOS_TOOLS_LIBS -x KP_TIMER_OUT"
cells() { case $1 in 1) echo "[100,100,100]";; 2) echo "[200,100,100]";; 4) echo "[200,200,100]";; esac; }
$B/test_neighbor > $OUT/test_neighbor.log 2>&1 && echo "PASS test_neighbor $(grep -c '^\[       OK' $OUT/test_neighbor.log) ok" || { echo "FAIL test_neighbor"; grep -E "FAILED|Failure" $OUT/test_neighbor.log | head; }
for c in "thermo 2" "thermo 4" "migration 4" "migration 2" "exchange1"; do
  timeout 200 bash tests/mpi/test_mpi.sh $B/mdremap $PWD $c > $OUT/test_${c// /_}.log 2>&1 && echo "PASS $c" || { echo "FAIL $c"; tail -8 $OUT/test_${c// /_}.log; }
done
w() {  # w TAG BIN NP PREC STEPS ROUND [--set ...]
  local tag=$1 bin=$2 n=$3 prec=$4 steps=$5 r=$6; shift 6
  $M -np $n $bin md inputs/lj_large.yaml --precision $prec --steps $steps --quiet \
    --set "system.lattice.cells=$(cells $n)" "$@" --summary $OUT/w_${tag}_${prec}_n${n}_r$r.json > $OUT/w_${tag}_${prec}_n${n}_r$r.log 2>&1 || echo "FAIL $tag $prec n=$n r=$r"
}
for r in 1 2 3; do
  for prec in single double; do
    for n in 1 4; do
      w base $B/mdremap-base $n $prec 600 $r
      w new $B/mdremap $n $prec 600 $r
    done
  done
  for n in 1 4; do
    w sort100 $B/mdremap $n single 600 $r --set neighbor.sort_every=100
    w s200 $B/mdremap $n single 200 $r
  done
  echo "round $r done $(date +%T)"
done
python3 - $OUT <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
def runs(v, prec, n):
    return [json.load(open(f)) for f in sorted(glob.glob(f"{out}/w_{v}_{prec}_n{n}_r*.json"))]
keys = ("force", "neighbor", "exchange", "exchange_rebuild", "exchange_migrate", "exchange_overlapped", "integrate")
def show(v, prec, ref1=None):
    one = runs(v, prec, 1)
    if not one: return
    base = statistics.median([j["atom_steps_per_s"] for j in one])
    t1 = {k: statistics.median([j["time_split_ms_per_step"].get(k, 0) for j in one]) for k in keys}
    rounds1 = " ".join("%.4g" % j["atom_steps_per_s"] for j in one)
    rb1 = statistics.median([j["rebuild_ms_each"] for j in one])
    print(f"{prec} {v}: 1 GPU {base:.4g} (rounds {rounds1}) rebuild {rb1:.3f} ms | " + " ".join(f"{k}={x:.3f}" for k, x in t1.items() if x))
    js = runs(v, prec, 4)
    a = statistics.median([j["atom_steps_per_s"] for j in js])
    t = {k: statistics.median([j["time_split_ms_per_step"].get(k, 0) for j in js]) for k in keys}
    rounds4 = " ".join("%.1f" % (j["atom_steps_per_s"] / 4 / base * 100) for j in js)
    rb4 = statistics.median([j["rebuild_ms_each"] for j in js])
    extra = f" | vs new's 1 GPU {100*a/4/ref1:.1f}%" if ref1 else ""
    print(f"   4 GPUs {a:.4g} per GPU {a/4:.4g} eff {100*a/4/base:.1f}% (rounds {rounds4}) rebuild {rb4:.3f} ms | " + " ".join(f"{k}={x:.3f}" for k, x in t.items()) + extra)
    return base
for prec in ("single", "double"):
    show("base", prec)
    b = show("new", prec)
    if prec == "single":
        show("sort100", prec, b)
        show("s200", prec)
PY
export KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so
export KP_TIMER_OUT=$OUT/timer_new_n4_%r.txt
$M -np 4 $B/mdremap md inputs/lj_large.yaml --precision single --steps 300 --quiet \
  --set "system.lattice.cells=$(cells 4)" > $OUT/t_new_n4.log 2>&1 || echo "FAIL timer"
export KP_TIMER_OUT=$OUT/timer_new_n1_%r.txt
$M -np 1 $B/mdremap md inputs/lj_large.yaml --precision single --steps 300 --quiet \
  --set "system.lattice.cells=$(cells 1)" > $OUT/t_new_n1.log 2>&1 || echo "FAIL timer1"
unset KOKKOS_TOOLS_LIBS
grep -E "scan|Scan|migrate_|border_|near_faces|Remap::gather|Ghost|kick" $OUT/timer_new_n4_2.txt | head -30
echo ---; grep -E "scan|Scan|Ghost|Remap::gather" $OUT/timer_new_n1_0.txt | head
cd $OUT && tar czf call3.tgz *.log *.json *.txt && rm -f *.log *.json timer_*.txt

# Session 24, call 2 (nvidia-h100-x4): the tiled scans (include/neighbor/tile_scan.hpp: the
# migration's split, the border selection, the near-face split, the periodic ghosts' offsets)
# against the session-23 build (base), weak 4M atoms per GPU, 600 steps, 3 interleaved rounds;
# the new build's tests on the GPUs; a 4-GPU run without overlap; the kernel timer on 4 GPUs.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
mkdir -p .base && tar -C .base -xJf .carry/base.tar.xz && cp .base/bin/mdremap $B/mdremap-base
nvidia-smi --query-gpu=name,temperature.gpu,clocks.sm --format=csv,noheader
M="timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x KOKKOS_TOOLS_LIBS -x KP_TIMER_OUT"
cells() { case $1 in 1) echo "[100,100,100]";; 2) echo "[200,100,100]";; 4) echo "[200,200,100]";; esac; }
$B/test_neighbor > $OUT/test_neighbor.log 2>&1 && echo "PASS test_neighbor $(grep -c '^\[       OK' $OUT/test_neighbor.log) ok" || { echo "FAIL test_neighbor"; grep -E "FAILED|Failure" $OUT/test_neighbor.log | head; }
for c in "thermo 2" "thermo 4" "migration 4" "exchange1"; do
  timeout 200 bash tests/mpi/test_mpi.sh $B/mdremap $PWD $c > $OUT/test_${c// /_}.log 2>&1 && echo "PASS $c" || { echo "FAIL $c"; tail -8 $OUT/test_${c// /_}.log; }
done
for r in 1 2 3; do
  for prec in single double; do
    for run in "base 1" "new 1" "base 4" "new 4"; do
      set -- $run; v=$1; n=$2; bin=$B/mdremap; [[ $v == base ]] && bin=$B/mdremap-base
      $M -np $n $bin md inputs/lj_large.yaml --precision $prec --steps 600 --quiet \
        --set "system.lattice.cells=$(cells $n)" --summary $OUT/w_${v}_${prec}_n${n}_r$r.json > $OUT/w_${v}_${prec}_n${n}_r$r.log 2>&1 || echo "FAIL $v $prec n=$n r=$r"
    done
  done
  echo "round $r done $(date +%T)"
done
$M -np 4 $B/mdremap md inputs/lj_large.yaml --precision single --steps 600 --quiet --set parallel.overlap=off \
  --set "system.lattice.cells=$(cells 4)" --summary $OUT/w_seq_single_n4_r1.json > $OUT/w_seq_single_n4_r1.log 2>&1 || echo "FAIL seq"
python3 - $OUT <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
def runs(v, prec, n):
    return [json.load(open(f)) for f in sorted(glob.glob(f"{out}/w_{v}_{prec}_n{n}_r*.json"))]
keys = ("force", "neighbor", "exchange", "exchange_rebuild", "exchange_migrate", "exchange_overlapped", "integrate")
for prec in ("single", "double"):
    for v in ("base", "new"):
        one = runs(v, prec, 1)
        if not one: continue
        base = statistics.median([j["atom_steps_per_s"] for j in one])
        t1 = {k: statistics.median([j["time_split_ms_per_step"].get(k, 0) for j in one]) for k in keys}
        rounds1 = " ".join("%.4g" % j["atom_steps_per_s"] for j in one)
        rb1 = statistics.median([j["rebuild_ms_each"] for j in one])
        print(f"{prec} {v}: 1 GPU {base:.4g} (rounds {rounds1}) rebuild {rb1:.3f} ms | " + " ".join(f"{k}={x:.3f}" for k, x in t1.items() if x))
        js = runs(v, prec, 4)
        if not js: continue
        a = statistics.median([j["atom_steps_per_s"] for j in js])
        t = {k: statistics.median([j["time_split_ms_per_step"].get(k, 0) for j in js]) for k in keys}
        rounds4 = " ".join("%.1f" % (j["atom_steps_per_s"] / 4 / base * 100) for j in js)
        rb4 = statistics.median([j["rebuild_ms_each"] for j in js])
        print(f"   4 GPUs {a:.4g} per GPU {a/4:.4g} eff {100*a/4/base:.1f}% (rounds {rounds4}) rebuild {rb4:.3f} ms | " + " ".join(f"{k}={x:.3f}" for k, x in t.items()))
for j in runs("seq", "single", 4):
    print("seq single 4 GPUs", f"{j['atom_steps_per_s']:.4g}", {k: round(v, 4) for k, v in j["time_split_ms_per_step"].items()})
PY
# Four independent 1-GPU jobs at once (one per GPU, no MPI between them) against one alone:
# what running four GPUs at once costs a GPU by itself (clocks, power), with SM and memory
# clocks sampled during each.
for r in 1 2; do
  nvidia-smi --query-gpu=index,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader -lms 200 > $OUT/clocks_alone_r$r.txt & SMI=$!
  CUDA_VISIBLE_DEVICES=0 $B/mdremap md inputs/lj_large.yaml --precision single --steps 600 --quiet --summary $OUT/alone_r$r.json > /dev/null 2>&1
  kill $SMI
  nvidia-smi --query-gpu=index,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader -lms 200 > $OUT/clocks_four_r$r.txt & SMI=$!
  pids=()
  for g in 0 1 2 3; do CUDA_VISIBLE_DEVICES=$g $B/mdremap md inputs/lj_large.yaml --precision single --steps 600 --quiet --summary $OUT/four_g${g}_r$r.json > /dev/null 2>&1 & pids+=($!); done
  wait "${pids[@]}"; kill $SMI 2>/dev/null
done
python3 - $OUT <<'PY'
import glob, json, sys
out = sys.argv[1]
for f in sorted(glob.glob(out + "/alone_r*.json")) + sorted(glob.glob(out + "/four_g*_r*.json")):
    d = json.load(open(f))
    print(f.split("/")[-1], "%.4g" % d["atom_steps_per_s"], {k: round(v, 4) for k, v in d["time_split_ms_per_step"].items() if v})
for f in sorted(glob.glob(out + "/clocks_*.txt")):
    rows = [l.split(",") for l in open(f) if l.strip()]
    busy = [r for r in rows if float(r[3].split()[0]) > 150]
    if busy:
        sm = sorted(float(r[1].split()[0]) for r in busy); mem = sorted(float(r[2].split()[0]) for r in busy); pw = sorted(float(r[3].split()[0]) for r in busy)
        print(f.split("/")[-1], "samples above 150 W:", len(busy), "SM MHz median", sm[len(sm)//2], "min", sm[0], "mem MHz", mem[len(mem)//2], "power W median", pw[len(pw)//2], "max", pw[-1])
PY
export KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so
export KP_TIMER_OUT=$OUT/timer_new_n4_%r.txt
$M -np 4 $B/mdremap md inputs/lj_large.yaml --precision single --steps 300 --quiet \
  --set "system.lattice.cells=$(cells 4)" > $OUT/t_new_n4.log 2>&1 || echo "FAIL timer"
export KP_TIMER_OUT=$OUT/timer_new_n1_%r.txt
$M -np 1 $B/mdremap md inputs/lj_large.yaml --precision single --steps 300 --quiet \
  --set "system.lattice.cells=$(cells 1)" > $OUT/t_new_n1.log 2>&1 || echo "FAIL timer1"
unset KOKKOS_TOOLS_LIBS
grep -E "scan|Scan|migrate|border|near_faces|region|Remap::gather|Ghost" $OUT/timer_new_n4_0.txt | head -40
echo ---; grep -E "scan|Scan|Ghost|Remap::gather" $OUT/timer_new_n1_0.txt | head
cd $OUT && tar czf call2.tgz *.log *.json *.txt && rm -f *.log *.json timer_*.txt

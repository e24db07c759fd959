# Session 16, call 2 (nvidia-h100-x4): migration straight into the partner's GPU memory (peer
# windows) and compacted once after every axis, against session 15's final binary (mdremap-s15);
# weak scaling 4M atoms per GPU, 600 steps, 2 interleaved rounds; thermo 4 GPUs vs 1; MPI tests.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=name --format=csv,noheader | head -4
M="timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH"
cells() { case $1 in 1) echo "[100,100,100]";; 2) echo "[200,100,100]";; 4) echo "[200,200,100]";; esac; }
for c in "thermo 2" "thermo 4" "migration 4" "exchange1"; do
  timeout 200 bash tests/mpi/test_mpi.sh $B/mdremap $PWD $c > $OUT/test_${c// /_}.log 2>&1 && echo "PASS $c" || { echo "FAIL $c"; tail -8 $OUT/test_${c// /_}.log; }
done
for r in 1 2; do
  for prec in double single; do
    for run in "new 1" "new 2" "s15 4" "new 4"; do
      set -- $run; v=$1; n=$2; bin=$B/mdremap; [[ $v == s15 ]] && bin=$B/mdremap-s15
      $M -np $n $bin md inputs/lj_large.yaml --precision $prec --steps 600 --quiet \
        --set "system.lattice.cells=$(cells $n)" --summary $OUT/w_${v}_${prec}_n${n}_r$r.json > $OUT/w_${v}_${prec}_n${n}_r$r.log 2>&1 || echo "FAIL $v $prec n=$n r=$r"
    done
  done
  echo "round $r done $(date +%T)"
done
python3 - $OUT <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
def med(v, prec, n):
    js = [json.load(open(f)) for f in glob.glob(f"{out}/w_{v}_{prec}_n{n}_r*.json")]
    return (statistics.median([j["atom_steps_per_s"] for j in js]) if js else float("nan")), js
keys = ("force", "neighbor", "exchange", "exchange_rebuild", "exchange_migrate", "exchange_overlapped", "integrate")
for prec in ("double", "single"):
    base, js1 = med("new", prec, 1)
    print(f"{prec}: 1 GPU {base:.4g}")
    for n, v in ((2, "new"), (4, "s15"), (4, "new")):
        a, js = med(v, prec, n)
        if not js: continue
        t = {k: statistics.median([j["time_split_ms_per_step"].get(k, 0) for j in js]) for k in keys}
        m = js[0]["mpi"]
        print(f"  n={n} {v:4s} {a:.4g} per GPU {a/n:.4g} eff {100*a/n/base:.1f}% migr {m.get('migrations')} via_mpi {m.get('migrations_through_mpi')} | " + " ".join(f"{k}={x:.3f}" for k, x in t.items()))
PY
ordered=(--steps 1000 --set run.thermo=100 --set neighbor.row_order=id --precision double -q)
$M -np 1 $B/mdremap md inputs/lj_large.yaml "${ordered[@]}" --thermo-csv $OUT/ref.csv > /dev/null 2>&1
$M -np 4 $B/mdremap md inputs/lj_large.yaml "${ordered[@]}" --set "system.lattice.cells=[100,100,100]" --thermo-csv $OUT/np4.csv --summary $OUT/np4.json > /dev/null 2>&1
python3 tests/mpi/compare_thermo.py $OUT/ref.csv $OUT/np4.csv --step0 1e-12 --rest 1e-9 --label "4M atoms, 1,000 steps, 4 GPUs vs 1:"
python3 -c "import json; m=json.load(open('$OUT/np4.json'))['mpi']; print('np4 1000 steps: migrations', m['migrations'], 'through MPI', m['migrations_through_mpi'])"
cd $OUT && tar czf call2.tgz *.log *.json *.csv && rm -f *.log *.json *.csv

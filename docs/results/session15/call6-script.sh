# Session 15, call 6 (nvidia-h100-x4): the migration slots the atoms near a face between ranks
# last (no reorder copy at builds). Weak scaling 4M atoms per GPU, 600 steps, 2 interleaved
# rounds, overlap (auto) against seq (parallel.overlap=off); thermo 4 GPUs vs 1; MPI test cases.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
M="timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH"
cells() { case $1 in 1) echo "[100,100,100]";; 2) echo "[200,100,100]";; 4) echo "[200,200,100]";; esac; }
for r in 1 2; do
  for n in 1 2 4; do
    for prec in double single; do
      vs="auto"; ((n > 1)) && vs="auto seq"
      for v in $vs; do
        extra=(); [[ $v == seq ]] && extra=(--set parallel.overlap=off)
        $M -np $n $B/mdremap md inputs/lj_large.yaml --precision $prec --steps 600 --quiet \
          --set "system.lattice.cells=$(cells $n)" "${extra[@]}" --summary $OUT/w_${v}_${prec}_n${n}_r$r.json > $OUT/w_${v}_${prec}_n${n}_r$r.log 2>&1 || echo "FAIL $v $prec n=$n r=$r"
      done
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
    base, js1 = med("auto", prec, 1)
    print(f"{prec}: 1 GPU {base:.4g}")
    for n in (2, 4):
        for v in ("auto", "seq"):
            a, js = med(v, prec, n)
            t = {k: statistics.median([j["time_split_ms_per_step"].get(k, 0) for j in js]) for k in keys}
            print(f"  n={n} {v:4s} {a:.4g} per GPU {a/n:.4g} eff {100*a/n/base:.1f}% near {js[0]['mpi'].get('near_face_atoms')} reorders {js[0]['mpi'].get('near_face_reorders')} | " + " ".join(f"{k}={x:.3f}" for k, x in t.items()))
PY
ordered=(--steps 1000 --set run.thermo=100 --set neighbor.row_order=id --precision double -q)
$M -np 1 $B/mdremap md inputs/lj_large.yaml "${ordered[@]}" --thermo-csv $OUT/ref.csv > /dev/null 2>&1
$M -np 4 $B/mdremap md inputs/lj_large.yaml "${ordered[@]}" --set "system.lattice.cells=[100,100,100]" --thermo-csv $OUT/np4.csv > /dev/null 2>&1
python3 tests/mpi/compare_thermo.py $OUT/ref.csv $OUT/np4.csv --step0 1e-12 --rest 1e-9 --label "4M atoms, 1,000 steps, 4 GPUs vs 1:"
for c in "thermo 2" "thermo 4" "migration 4" "exchange1"; do
  timeout 200 bash tests/mpi/test_mpi.sh $B/mdremap $PWD $c > $OUT/test_${c// /_}.log 2>&1 && echo "PASS $c" || { echo "FAIL $c"; tail -8 $OUT/test_${c// /_}.log; }
done
cd $OUT && tar czf call6.tgz *.log *.json *.csv && rm -f *.log *.json *.csv

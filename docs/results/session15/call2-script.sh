# Session 15, call 2 (nvidia-h100-x4): the ghost update beside the forces (parallel.overlap).
# GPU tests of the changed units, the MPI cases, then weak scaling 4M atoms per GPU, 600 steps,
# 2 interleaved rounds: before (HEAD 8fad4d2), after (overlap auto = on), after with overlap off.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
xz -dc .carry/mdremap-before.xz > $B/mdremap-before && chmod +x $B/mdremap-before
nvidia-smi --query-gpu=name --format=csv,noheader | head -4
k=0
for t in test_md_physics test_remap_md test_remap_strategies test_restart; do
  ( CUDA_VISIBLE_DEVICES=$((k % 4)) timeout 240 $B/$t > $OUT/$t.log 2>&1; echo "$t rc $? $(grep -E '^\[  PASSED  \]|^\[  FAILED  \]' $OUT/$t.log | tr '\n' ' ')" ) &
  k=$((k + 1))
done
wait
for c in "thermo 2" "thermo 4" "migration 4" "exchange1"; do
  timeout 200 bash tests/mpi/test_mpi.sh $B/mdremap $PWD $c > $OUT/test_${c// /_}.log 2>&1 && echo "PASS $c" || { echo "FAIL $c"; tail -8 $OUT/test_${c// /_}.log; }
done
grep -h "overlap" $OUT/test_thermo_4.log
M="timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH"
cells() { case $1 in 1) echo "[100,100,100]";; 2) echo "[200,100,100]";; 4) echo "[200,200,100]";; esac; }
for r in 1 2; do
  for n in 1 2 4; do
    for prec in double single; do
      vs="after before"; ((n > 1)) && vs="before after off"
      for v in $vs; do
        b=$B/mdremap; extra=()
        [[ $v == before ]] && b=$B/mdremap-before
        [[ $v == off ]] && extra=(--set parallel.overlap=off)
        $M -np $n $b md inputs/lj_large.yaml --precision $prec --steps 600 --quiet \
          --set "system.lattice.cells=$(cells $n)" "${extra[@]}" --summary $OUT/w_${v}_${prec}_n${n}_r$r.json > $OUT/w_${v}_${prec}_n${n}_r$r.log 2>&1 || echo "FAIL $v $prec n=$n r=$r"
      done
    done
  done
  # One GPU, the ranks' exchange path (self swaps only): what splitting the forces costs
  for v in exon exoff; do
    $M -np 1 $B/mdremap md inputs/lj_large.yaml --precision double --steps 600 --quiet \
      --set "system.lattice.cells=$(cells 1)" --set parallel.ghosts=exchange --set parallel.overlap=${v#ex} \
      --summary $OUT/w_${v}_double_n1_r$r.json > $OUT/w_${v}_double_n1_r$r.log 2>&1 || echo "FAIL $v r=$r"
  done
  echo "round $r done $(date +%T)"
done
python3 - $OUT <<'PY'
import glob, json, os, statistics, sys
out = sys.argv[1]
def med(v, prec, n, key="atom_steps_per_s"):
    js = [json.load(open(f)) for f in glob.glob(f"{out}/w_{v}_{prec}_n{n}_r*.json")]
    return (statistics.median([j[key] for j in js]) if js else float("nan")), js
for prec in ("double", "single"):
    base, _ = med("after", prec, 1)
    bb, _ = med("before", prec, 1)
    print(f"{prec}: 1 GPU after {base:.4g}, before {bb:.4g}")
    for n in (2, 4):
        for v in ("before", "after", "off"):
            a, js = med(v, prec, n)
            ref = bb if v == "before" else base
            t = {k: statistics.median([j["time_split_ms_per_step"].get(k, 0) for j in js]) for k in ("force", "neighbor", "exchange", "exchange_rebuild", "exchange_overlapped", "integrate")} if js else {}
            near = [j["mpi"].get("near_face_atoms", -1) for j in js]
            print(f"  n={n} {v:6s} {a:.4g} per GPU {a/n:.4g} eff {100*a/n/ref:.1f}%  near {near[:1]}  split " + " ".join(f"{k}={x:.3f}" for k, x in t.items()))
for v in ("exon", "exoff"):
    a, js = med(v, "double", 1)
    t = {k: statistics.median([j["time_split_ms_per_step"].get(k, 0) for j in js]) for k in ("force", "neighbor", "exchange", "exchange_overlapped")} if js else {}
    print(f"1 GPU, exchange path, overlap {v[2:]}: {a:.4g}  split " + " ".join(f"{k}={x:.3f}" for k, x in t.items()))
PY
cd $OUT && tar czf call2.tgz *.log *.json && rm -f *.log *.json

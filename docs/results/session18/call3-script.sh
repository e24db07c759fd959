# Session 18, call 3 (nvidia-h100-x1): with the warm-up on (default), auto's changes (the best
# kernel runs untimed once every kernel is measured; the layer's decision makes no vectors when it
# profiles nothing; one cuSPARSE handle for the process, made by the warm-up): each kernel and
# auto on the four stand-ins, natural and permuted, 2 interleaved rounds. Whole solve = SpMV
# set-up (with the wait for the warm-up) + the whole first solve.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for t in test_cg_solver test_cg_spmv; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $OUT/$t.log | head -5
done
D=/tmp/diag; mkdir -p $D
for round in 1 2; do for m in offshore parabolic_fem apache2 ecology2; do for perm in false true; do
  for v in cusparse csr-warp csr-thread auto; do
    if [[ $v == auto ]]; then f="--remap auto"; else f="--remap gather --spmv $v"; fi
    s=$D/$m.$perm.$v.true.r$round.json
    timeout 60 $B/mdremap cg inputs/cg_$m.yaml $f \
      --set matrix.permute=$perm --set spmv.transactions=false --set spmv.timing_repeats=10 --summary $s > $D/$m.$perm.$v.r$round.log 2>&1 || echo "FAIL $s"
  done; done; done; done
python3 - "$D" <<'PY'
import json, sys, glob, os, collections, statistics
rows = collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    m, perm, v, warm, r = os.path.basename(f)[:-5].split(".")
    d = json.load(open(f))
    su = d["setup"]["spmv_setup_seconds"] * 1e3
    rows[(m, perm, v)].append((su, d["warm_up"]["waited_seconds"] * 1e3, d["first_spmv_seconds_each"][0] * 1e3, d["first_solve_seconds"] * 1e3,
                                     d["first_solve_total_seconds"] * 1e3, d["iterations"], d["time_per_iteration_ms"], d["setup"]["matrix_seconds"] * 1e3))
print("case perm variant | setup_ms(incl wait) wait_ms first_spmv_ms loop_ms total_ms WHOLE(setup+total) iters ms/it matrix_ms  (per round)")
for k in sorted(rows):
    print(" ".join(k), "|", "; ".join(f"{a:.2f} {w:.2f} {b:.2f} {c:.2f} {d:.2f} {a+d:.2f} {e} {g:.4f} {mm:.0f}" for a, w, b, c, d, e, g, mm in rows[k]))
print("\ncase perm | best fixed (median whole ms) | auto | auto vs best")
cells = collections.defaultdict(dict)
for (m, perm, v), rs in rows.items():
    cells[(m, perm)][v] = statistics.median([a + d for a, w, b, c, d, e, g, mm in rs])
for c in sorted(cells):
    fixed = {v: t for v, t in cells[c].items() if v != "auto"}
    bv = min(fixed, key=fixed.get)
    print(*c, "|", f"{bv} {fixed[bv]:.2f}", "|", f"{cells[c]['auto']:.2f}", "|", f"{100 * (cells[c]['auto'] / fixed[bv] - 1):+.1f}%")
PY
for f in $D/*.auto.true.r1.json; do echo "== $f"; python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['remap']['decision'][:900])" $f; done
grep -h "^# spmv" $D/offshore.false.cusparse.r1.log
(cd $D && tar czf $OUT/call3-summaries.tgz *.json *.log)

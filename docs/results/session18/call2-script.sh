# Session 18, call 2 (nvidia-h100-x1): spmv.warm_up (the kernels launched on small matrices on a
# host thread while the matrix is generated) on and off, each kernel and auto, offshore and
# apache2 natural and permuted, 2 interleaved rounds; the whole solve = SpMV set-up (with the wait
# for the warm-up) + the whole first solve (its first SpMV and the iterations).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for t in test_cg_solver test_cg_spmv; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $OUT/$t.log | head -5
done
D=/tmp/diag; mkdir -p $D
for round in 1 2; do for warm in true false; do for m in offshore apache2; do for perm in false true; do
  for v in cusparse csr-warp csr-thread auto; do
    if [[ $v == auto ]]; then f="--remap auto"; else f="--remap gather --spmv $v"; fi
    s=$D/$m.$perm.$v.$warm.r$round.json
    timeout 60 $B/mdremap cg inputs/cg_$m.yaml $f --set spmv.warm_up=$warm \
      --set matrix.permute=$perm --set spmv.transactions=false --set spmv.timing_repeats=10 --summary $s > $D/$m.$perm.$v.$warm.r$round.log 2>&1 || echo "FAIL $s"
  done; done; done; done; done
python3 - "$D" <<'PY'
import json, sys, glob, os, collections
rows = collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    m, perm, v, warm, r = os.path.basename(f)[:-5].split(".")
    d = json.load(open(f))
    su = d["setup"]["spmv_setup_seconds"] * 1e3
    rows[(m, perm, warm, v)].append((su, d["warm_up"]["waited_seconds"] * 1e3, d["first_spmv_seconds_each"][0] * 1e3, d["first_solve_seconds"] * 1e3,
                                     d["first_solve_total_seconds"] * 1e3, d["iterations"], d["time_per_iteration_ms"], d["setup"]["matrix_seconds"] * 1e3))
print("case perm warm_up variant | setup_ms(incl wait) wait_ms first_spmv_ms loop_ms total_ms WHOLE(setup+total) iters ms/it matrix_ms  (per round)")
for k in sorted(rows):
    print(" ".join(k), "|", "; ".join(f"{a:.2f} {w:.2f} {b:.2f} {c:.2f} {d:.2f} {a+d:.2f} {e} {g:.4f} {mm:.0f}" for a, w, b, c, d, e, g, mm in rows[k]))
PY
for f in $D/*.auto.true.r1.json; do echo "== $f"; python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['remap']['decision']); print(d['warm_up']['note'])" $f; done
grep -h "warm-up" $D/offshore.false.cusparse.true.r1.log $D/offshore.false.auto.true.r1.log
(cd $D && tar czf $OUT/call2-summaries.tgz *.json *.log)

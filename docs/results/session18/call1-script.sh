# Session 18, call 1 (nvidia-h100-x1): GPU check of 19fe0de's re-read (accessors' path_element,
# the 16-bit encoder's reducers, cuSPARSE's dots through cg_dots) and a diagnosis of auto's
# whole-solve cost: each kernel's first SpMV (before the iterations) and the whole solve, with the
# CUDA runtime's default lazy module loading and with CUDA_MODULE_LOADING=EAGER (diagnosis only).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for t in test_remap_md test_remap_strategies test_cg_solver test_cg_spmv; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $OUT/$t.log | head -5
done
mkdir -p $OUT/diag
for round in 1 2; do for load in LAZY EAGER; do for m in offshore apache2; do for perm in false true; do
  for v in cusparse csr-warp csr-thread auto; do
    if [[ $v == auto ]]; then f="--remap auto"; else f="--remap gather --spmv $v"; fi
    s=$OUT/diag/$m.$perm.$v.$load.r$round.json
    CUDA_MODULE_LOADING=$load timeout 60 $B/mdremap cg inputs/cg_$m.yaml --quiet $f \
      --set matrix.permute=$perm --set spmv.transactions=false --set spmv.timing_repeats=10 --summary $s > /dev/null 2>&1 || echo "FAIL $s"
  done; done; done; done; done
python3 - "$OUT/diag" <<'PY'
import json, sys, glob, os, collections
rows = collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    m, perm, v, load, r = os.path.basename(f)[:-5].split(".")
    d = json.load(open(f))
    su = d["setup"]["spmv_setup_seconds"] * 1e3
    rows[(m, perm, load, v)].append((su, d["first_spmv_seconds_each"][0] * 1e3, d["first_solve_seconds"] * 1e3,
                                     d["first_solve_total_seconds"] * 1e3, d["iterations"], d["time_per_iteration_ms"]))
print("case perm loading variant | setup_ms first_spmv_ms loop_ms total_ms whole(setup+total) iters ms/it  (per round)")
for k in sorted(rows):
    print(" ".join(k), "|", "; ".join(f"{a:.2f} {b:.2f} {c:.2f} {d:.2f} {a+d:.2f} {e} {g:.4f}" for a, b, c, d, e, g in rows[k]))
PY
for f in $OUT/diag/*.auto.LAZY.r1.json; do echo "== $f"; python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['remap']['decision'].split(chr(10))[0])" $f; done

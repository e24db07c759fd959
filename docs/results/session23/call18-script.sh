# Session 23, call 18 (nvidia-h100-x1): sell's fused SpMV + dots with u's own entry from the row's
# diagonal (final build) against call 16's build (base): GPU tests; the CG iteration on the large
# case natural (3 interleaved rounds) and the stand-ins natural (3 rounds), CuPy's cg on the large
# natural system in the same call.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
rm -rf .base && mkdir -p .base && python3 -c "import tarfile; tarfile.open('.carry/base.tar.xz').extractall('.base')"
w=$(mktemp -d); mkdir -p $w/diag
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_solver test_cg_spmv; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
run() {  # case build round
  local bin=$B/mdremap lib=$PWD/.bundle/lib
  [[ $2 == base ]] && { bin=$PWD/.base/bin/mdremap; lib=$PWD/.base/lib; }
  LD_LIBRARY_PATH=$lib:/usr/local/cuda/lib64 timeout 120 $bin cg inputs/cg_$1.yaml --quiet --set solver.repeats=2 --spmv sell \
    --set spmv.timing_repeats=20 --set spmv.transactions=false --set matrix.permute=false \
    --summary $w/diag/$1.$2.r$3.json >/dev/null 2>&1 || echo "$1 $2 rc=$?"
}
for r in 1 2 3; do for m in large offshore parabolic_fem apache2 ecology2; do for b in base diag; do run $m $b $r; done; done; done
timeout 120 $B/mdremap cg inputs/cg_large.yaml --quiet --set matrix.permute=false --spmv sell \
  --set solver.max_iterations=1 --write-npy /tmp/large_sys >/dev/null 2>&1
timeout 200 python3 tools/cg_cupy.py --npy /tmp/large_sys --tol 1e-8 --spmv-reps 20 --json $w/diag/cupy.json >/dev/null 2>&1 || echo "cupy rc=$?"
python3 - $w/diag <<'PY' | tee $w/diag/summary.txt
import json,glob,sys,statistics,collections
d=collections.defaultdict(dict); e={}
for f in glob.glob(sys.argv[1]+'/*.r*.json'):
    m,b,r,_=f.split('/')[-1].split('.')
    s=json.load(open(f)); d[(m,b)][r]=s['time_per_iteration_ms']; e[(m,b)]=(s['iterations'], s['relative_error'])
cupy=json.load(open(sys.argv[1]+'/cupy.json'))['time_per_iteration_ms']
for m in ['large','offshore','parabolic_fem','apache2','ecology2']:
    a=statistics.median(d[(m,'base')].values()); b=statistics.median(d[(m,'diag')].values())
    print('%-14s CG iteration ms, medians of 3: base %.4f, diagonal %.4f (%+.1f%%)  rounds %s / %s  iterations/error %s %s'%(m,a,b,100*(b/a-1),
          ' '.join('%.4f'%v for _,v in sorted(d[(m,'base')].items())),' '.join('%.4f'%v for _,v in sorted(d[(m,'diag')].items())), e[(m,'base')], e[(m,'diag')]))
    if m=='large': print('large natural: CuPy cg %.4f ms an iteration: %.2fx (base), %.2fx (diagonal)'%(cupy,cupy/a,cupy/b))
PY
tar czf $OUT/call18.tgz -C $w diag test_cg_solver.log test_cg_spmv.log test_cg_cli.log

# Session 23, call 2 (nvidia-h100-x1): auto measuring its kernels in the lagged loop (marks in the
# stream) within the exploration budget, the not-chosen kernels kept, the scatter check warmed.
# GPU tests of the new build; then whole solves (set-up + reorder check + first solve) of sell and
# auto, the session-22 build (base, a85a188) and this one (new), 4 interleaved rounds, the four
# stand-ins natural and permuted.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
rm -rf .base && mkdir -p .base && python3 -c "import tarfile; tarfile.open('.carry/base.tar.xz').extractall('.base')"
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_solver test_cg_spmv; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/diag
for r in 1 2 3 4; do for m in offshore parabolic_fem apache2 ecology2; do for perm in false true; do
  for build in base new; do for v in sell auto; do
    a=(--remap auto); [[ $v == sell ]] && a=(--spmv sell)
    if [[ $build == base ]]; then bin=$PWD/.base/bin/mdremap; lib=$PWD/.base/lib; else bin=$B/mdremap; lib=$PWD/.bundle/lib; fi
    LD_LIBRARY_PATH=$lib:/usr/local/cuda/lib64 timeout 60 $bin cg inputs/cg_$m.yaml --quiet --set solver.repeats=1 \
      --set spmv.timing_repeats=5 --set spmv.transactions=false --set matrix.permute=$perm \
      --summary $w/diag/$m.$perm.$build.$v.r$r.json "${a[@]}" >/dev/null 2>&1 || echo "$m $perm $build $v rc=$?"
  done; done
done; done; done
python3 - $w/diag <<'PY' | tee $w/diag/summary.txt
import json,glob,sys,statistics,collections
d=collections.defaultdict(list)
for f in glob.glob(sys.argv[1]+'/*.json'):
    m,perm,build,v,r,_=f.split('/')[-1].split('.')
    s=json.load(open(f)); su=s['setup']
    whole=su['spmv_setup_seconds']+su['reorder_seconds']+s['first_solve_total_seconds']
    d[(m,perm,build,v)].append((whole*1e3, su['spmv_setup_seconds']*1e3, su['reorder_seconds']*1e3, (s['first_solve_total_seconds']-s['solve_seconds'])*1e3, s['solve_seconds']*1e3, s.get('remap',{}).get('strategy','-'), s['solver']['lagged_from']))
med={}
for k in sorted(d):
    v=d[k]; md=lambda i: statistics.median(x[i] for x in v); med[k]=md(0)
    print('%-14s %-5s %-4s %-4s whole %7.2f setup %.2f reorder %.2f pre %.2f solve %7.2f lag %s %s'%(k+(md(0),md(1),md(2),md(3),md(4),[x[6] for x in v],[x[5] for x in v])))
print()
for m in ['offshore','parabolic_fem','apache2','ecology2']:
  for perm in ['false','true']:
    for b in ['base','new']:
      s=med.get((m,perm,b,'sell')); a=med.get((m,perm,b,'auto'))
      if s and a: print('%-14s permuted=%-5s %s: auto %.2f ms vs sell %.2f ms: %+.1f%%'%(m,perm,b,a,s,100*(a/s-1)))
PY
tar czf $OUT/call2.tgz -C $w diag test_cg_solver.log test_cg_spmv.log test_cg_cli.log

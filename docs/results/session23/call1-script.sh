# Session 23, call 1 (nvidia-h100-x1): the GPU tests of fd1e1f5 (lagged-loop clean-up, not run on
# a GPU in session 22), then where auto's whole-solve overhead goes on the natural stand-ins:
# sell and auto, 3 interleaved rounds, with the CUDA runtime's lazy module loading (default) and
# with CUDA_MODULE_LOADING=EAGER (every module loaded at start-up, outside the timed set-up).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_solver test_cg_spmv; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/diag
for r in 1 2 3; do for m in offshore apache2 parabolic_fem; do for load in LAZY EAGER; do for v in sell auto; do
  a=(--remap auto); [[ $v == sell ]] && a=(--spmv sell)
  CUDA_MODULE_LOADING=$load timeout 60 $B/mdremap cg inputs/cg_$m.yaml --quiet --set solver.repeats=1 \
    --set spmv.timing_repeats=5 --set spmv.transactions=false --summary $w/diag/$m.$load.$v.r$r.json "${a[@]}" >/dev/null 2>&1 || echo "$m $load $v rc=$?"
done; done; done; done
python3 - $w/diag <<'PY'
import json,glob,sys,statistics,collections
d=collections.defaultdict(list)
for f in glob.glob(sys.argv[1]+'/*.json'):
    m,load,v,r,_=f.split('/')[-1].split('.')
    s=json.load(open(f)); su=s['setup']
    whole=su['spmv_setup_seconds']+su['reorder_seconds']+s['first_solve_total_seconds']
    d[(m,load,v)].append((whole*1e3, su['spmv_setup_seconds']*1e3, su['reorder_seconds']*1e3, (s['first_solve_total_seconds']-s['solve_seconds'])*1e3, s['solve_seconds']*1e3, s.get('remap',{}).get('strategy','-')))
for k in sorted(d):
    v=d[k]; med=lambda i: statistics.median(x[i] for x in v)
    print(k, 'whole %.2f setup %.2f reorder %.2f pre %.2f solve %.2f'%(med(0),med(1),med(2),med(3),med(4)), [x[5] for x in v])
PY
tar czf $OUT/call1.tgz -C $w diag test_cg_solver.log test_cg_spmv.log test_cg_cli.log

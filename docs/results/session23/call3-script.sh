# Session 23, call 3 (nvidia-h100-x1): auto's exploration counted without the solve's own first
# SpMV (the first kernel's set-up and opening span). GPU tests; then whole solves (set-up +
# reorder check + first solve) of sell, sell with the dots after, cuSPARSE and auto, 4
# interleaved rounds, the four stand-ins natural and permuted; then the large case (16.8M rows)
# natural (sell, auto) and permuted (sell with labelprop before the solve, auto), 1 round.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_solver test_cg_spmv; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/diag
run() {  # case perm variant round
  local a=()
  case $3 in
    sell) a=(--spmv sell) ;; sell-after) a=(--spmv sell --set spmv.sell_fused_dots=false) ;;
    cusparse) a=(--spmv cusparse) ;; auto) a=(--remap auto) ;;
    sell+labelprop) a=(--spmv sell --reorder labelprop) ;;
  esac
  timeout 120 $B/mdremap cg inputs/cg_$1.yaml --quiet --set solver.repeats=1 \
    --set spmv.timing_repeats=5 --set spmv.transactions=false --set matrix.permute=$2 \
    --summary $w/diag/$1.$2.$3.r$4.json "${a[@]}" >/dev/null 2>&1 || echo "$1 $2 $3 rc=$?"
}
for r in 1 2 3 4; do for m in offshore parabolic_fem apache2 ecology2; do for perm in false true; do
  for v in sell sell-after cusparse auto; do run $m $perm $v $r; done
done; done; done
for v in sell auto; do run large false $v 1; done
for v in sell+labelprop auto; do run large true $v 1; done
python3 - $w/diag <<'PY' | tee $w/diag/summary.txt
import json,glob,sys,statistics,collections
d=collections.defaultdict(list)
for f in glob.glob(sys.argv[1]+'/*.json'):
    m,perm,v,r,_=f.split('/')[-1].split('.')
    s=json.load(open(f)); su=s['setup']
    whole=su['spmv_setup_seconds']+su['reorder_seconds']+s['first_solve_total_seconds']
    d[(m,perm,v)].append((whole*1e3, s['time_per_iteration_ms'], s['iterations'], s.get('remap',{}).get('strategy','-'), s['solver']['lagged_from']))
med={}
for k in sorted(d):
    v=d[k]; md=lambda i: statistics.median(x[i] for x in v); med[k]=md(0)
    print('%-14s %-5s %-14s whole %8.2f ms  it %.4f ms x %d  %s'%(k+(md(0),md(1),v[0][2],[x[3] for x in v])))
print()
for m in ['offshore','parabolic_fem','apache2','ecology2','large']:
  for perm in ['false','true']:
    a=med.get((m,perm,'auto'))
    others=[(w,v) for (mm,pp,v),w in med.items() if mm==m and pp==perm and v!='auto']
    if a and others:
      w,v=min(others); print('%-14s permuted=%-5s auto %.2f ms vs best %s %.2f ms: %+.1f%% (medians of %d rounds)'%(m,perm,a,v,w,100*(a/w-1),len(d[(m,perm,'auto')])))
PY
for f in $w/diag/offshore.false.auto.r1.json $w/diag/ecology2.true.auto.r1.json $w/diag/large.true.auto.r1.json; do
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[1].split('/')[-1]); print(d['remap']['decision'][:1500])" $f
done
tar czf $OUT/call3.tgz -C $w diag test_cg_solver.log test_cg_spmv.log test_cg_cli.log

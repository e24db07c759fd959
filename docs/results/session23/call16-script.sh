# Session 23, call 16 (nvidia-h100-x1): the final build (the remap layer's auto leaves a
# candidate the budget cannot afford before screening it: call 15's offshore decision spent
# 0.34 ms screening dup, which it could not afford anyway) against call 15's build (base). GPU tests (the remap
# strategies' too); then whole solves of sell, auto (base) and auto (final), the stand-ins
# natural and permuted, 4 interleaved rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
rm -rf .base && mkdir -p .base && python3 -c "import tarfile; tarfile.open('.carry/base.tar.xz').extractall('.base')"
w=$(mktemp -d); mkdir -p $w/diag
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_solver test_cg_spmv test_remap_strategies; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
run() {  # case perm variant round
  local a=() bin=$B/mdremap lib=$PWD/.bundle/lib
  case $3 in
    sell) a=(--spmv sell) ;; sell+labelprop) a=(--spmv sell --reorder labelprop) ;;
    auto) a=(--remap auto) ;; auto-base) a=(--remap auto); bin=$PWD/.base/bin/mdremap; lib=$PWD/.base/lib ;;
  esac
  LD_LIBRARY_PATH=$lib:/usr/local/cuda/lib64 timeout 60 $bin cg inputs/cg_$1.yaml --quiet --set solver.repeats=1 \
    --set spmv.timing_repeats=5 --set spmv.transactions=false --set matrix.permute=$2 \
    --summary $w/diag/$1.$2.$3.r$4.json "${a[@]}" >/dev/null 2>&1 || echo "$1 $2 $3 rc=$?"
}
for r in 1 2 3 4; do for m in offshore parabolic_fem apache2 ecology2; do for perm in false true; do
  for v in sell auto-base auto; do run $m $perm $v $r; done
done; done; done
python3 - $w/diag <<'PY' | tee $w/diag/summary.txt
import json,glob,sys,statistics,collections
d=collections.defaultdict(list)
for f in glob.glob(sys.argv[1]+'/*.json'):
    m,perm,v,r,_=f.split('/')[-1].split('.')
    s=json.load(open(f)); su=s['setup']
    d[(m,perm,v)].append(1e3*(su['spmv_setup_seconds']+su['reorder_seconds']+s['first_solve_total_seconds']))
for m in ['offshore','parabolic_fem','apache2','ecology2']:
  for perm in ['false','true']:
    med={v:statistics.median(d[(m,perm,v)]) for v in ['sell','auto-base','auto'] if d[(m,perm,v)]}
    best=min((w,v) for v,w in med.items() if not v.startswith('auto'))
    print('%-14s permuted=%-5s '%(m,perm)+', '.join('%s %.2f'%(v,w) for v,w in med.items())+'  | auto vs best %s: base %+.1f%%, final %+.1f%%'%(best[1],100*(med['auto-base']/best[0]-1),100*(med['auto']/best[0]-1)))
PY
tar czf $OUT/call16.tgz -C $w diag test_cg_solver.log test_cg_spmv.log test_remap_strategies.log test_cg_cli.log

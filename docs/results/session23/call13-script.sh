# Session 23, call 13 (nvidia-h100-x1): sell's plain SpMV with two threads a row (even and odd
# columns, summed by a shuffle; MDREMAP_SELL_LANES=2, an experiment's switch) against one,
# and cuSPARSE: SpMV ms over 200 back-to-back calls, the stand-ins natural and permuted and the
# large case natural, 3 interleaved rounds. test_cg_spmv with two threads a row first.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d); mkdir -p $w/diag
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
MDREMAP_SELL_LANES=2 timeout 200 $B/test_cg_spmv > $w/test_cg_spmv-lanes2.log 2>&1; echo "test_cg_spmv (2 lanes) rc=$?"; grep -E "PASSED|FAILED" $w/test_cg_spmv-lanes2.log | head -5
run() {  # case perm variant round
  local a=(--spmv sell) lanes=1
  case $3 in lanes2) lanes=2 ;; cusparse) a=(--spmv cusparse) ;; esac
  MDREMAP_SELL_LANES=$lanes timeout 120 $B/mdremap cg inputs/cg_$1.yaml --quiet --set solver.max_iterations=3 \
    --set spmv.timing_repeats=200 --set spmv.transactions=false --set matrix.permute=$2 \
    --summary $w/diag/$1.$2.$3.r$4.json "${a[@]}" >/dev/null 2>&1
}
for r in 1 2 3; do for m in offshore parabolic_fem apache2 ecology2; do for perm in false true; do
  for v in lanes1 lanes2 cusparse; do run $m $perm $v $r; done
done; done; done
for r in 1 2 3; do for v in lanes1 lanes2 cusparse; do run large false $v $r; done; done
python3 - $w/diag <<'PY' | tee $w/diag/summary.txt
import json,glob,sys,statistics,collections
d=collections.defaultdict(list)
for f in glob.glob(sys.argv[1]+'/*.json'):
    m,perm,v,r,_=f.split('/')[-1].split('.')
    d[(m,perm,v)].append(json.load(open(f))['spmv']['time_ms'])
for (m,perm) in sorted({(k[0],k[1]) for k in d}):
    md={v:statistics.median(d[(m,perm,v)]) for v in ['lanes1','lanes2','cusparse'] if d[(m,perm,v)]}
    c=md['cusparse']
    print('%-14s permuted=%-5s SpMV ms: cuSPARSE %.4f, sell %.4f (%.3fx), sell 2 lanes %.4f (%.3fx)'%(m,perm,c,md['lanes1'],c/md['lanes1'],md['lanes2'],c/md['lanes2']))
PY
tar czf $OUT/call13.tgz -C $w diag test_cg_spmv-lanes2.log

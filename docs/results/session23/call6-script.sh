# Session 23, call 6 (nvidia-h100-x1): sell's fused SpMV + dots kernel (slot_reduce) with a grid of
# at most the blocks the GPU holds at once, each thread looping over slots (MDREMAP_SLOT_WAVES
# resident grids: 1, 2, 4; 0 = a block per 256 slots, as before), against the 70% of DRAM
# bandwidth Nsight Compute measured for the block-per-256-slots kernel in call 5 (sell alone: 85%).
# GPU tests first; then the CG iteration on the large case natural and the stand-ins natural,
# interleaved rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d); mkdir -p $w/diag
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_solver test_cg_spmv; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
run() {  # case waves round [extra]
  MDREMAP_SLOT_WAVES=$2 timeout 120 $B/mdremap cg inputs/cg_$1.yaml --quiet --set solver.repeats=2 --spmv sell \
    --set spmv.timing_repeats=20 --set spmv.transactions=false --set matrix.permute=false \
    --summary $w/diag/$1.w$2.r$3.json "${@:4}" >/dev/null 2>&1 || echo "$1 $2 rc=$?"
}
for r in 1 2 3; do for m in offshore parabolic_fem apache2 ecology2; do for wv in 0 1 2 4; do run $m $wv $r; done; done; done
for r in 1 2 3; do for wv in 0 1 2; do run large $wv $r; done; done
run large 0 1 --set spmv.sell_fused_dots=false; mv $w/diag/large.w0.r1.json $w/diag/large.after.r1.json 2>/dev/null; run large 0 1
# CuPy's cg on the same large natural system, in the same call (tools/cg_cupy.py)
MDREMAP_SLOT_WAVES=1 timeout 120 $B/mdremap cg inputs/cg_large.yaml --quiet --set matrix.permute=false --spmv sell \
  --set solver.max_iterations=1 --write-npy /tmp/large_sys >/dev/null 2>&1
timeout 200 python3 tools/cg_cupy.py --npy /tmp/large_sys --tol 1e-8 --spmv-reps 20 --json $w/diag/cupy.json >/dev/null 2>&1 || echo "cupy rc=$?"
python3 -c "import json; d=json.load(open('$w/diag/cupy.json')); print('CuPy large natural: %d iterations, %.4f ms an iteration' % (d['iterations'], d['time_per_iteration_ms']))"
python3 - $w/diag <<'PY' | tee $w/diag/summary.txt
import json,glob,sys,statistics,collections
d=collections.defaultdict(list)
for f in glob.glob(sys.argv[1]+'/*.r*.json'):
    m,wv,r,_=f.split('/')[-1].split('.')
    s=json.load(open(f)); d[(m,wv)].append(s['time_per_iteration_ms'])
for m in ['offshore','parabolic_fem','apache2','ecology2','large']:
    print('%-14s CG iteration ms (median of rounds): '%m + ', '.join('%s %.4f'%(wv, statistics.median(d[(m,wv)])) for wv in ['w0','w1','w2','w4','after'] if (m,wv) in d))
PY
tar czf $OUT/call6.tgz -C $w diag test_cg_solver.log test_cg_spmv.log

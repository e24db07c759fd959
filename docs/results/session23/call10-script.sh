# Session 23, call 10 (nvidia-h100-x1): sell's fused kernel in blocks of 128 (as Kokkos launches
# sell's plain SpMV) against blocks of 256 (call 9's build), CG iteration, interleaved rounds: the stand-ins natural (3 rounds) and the large
# case natural (3 rounds), CuPy's cg on the large natural system in the same call; GPU tests.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
rm -rf .base && mkdir -p .base && python3 -c "import tarfile; tarfile.open('.carry/base.tar.xz').extractall('.base')"
w=$(mktemp -d); mkdir -p $w/diag
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_spmv; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
run() {  # case build round
  local bin=$B/mdremap lib=$PWD/.bundle/lib
  [[ $2 == b256 ]] && { bin=$PWD/.base/bin/mdremap; lib=$PWD/.base/lib; }
  LD_LIBRARY_PATH=$lib:/usr/local/cuda/lib64 timeout 120 $bin cg inputs/cg_$1.yaml --quiet --set solver.repeats=2 --spmv sell \
    --set spmv.timing_repeats=20 --set spmv.transactions=false --set matrix.permute=false \
    --summary $w/diag/$1.$2.r$3.json >/dev/null 2>&1 || echo "$1 $2 rc=$?"
}
for r in 1 2 3; do for m in offshore parabolic_fem apache2 ecology2 large; do for b in b256 b128; do run $m $b $r; done; done; done
timeout 120 $B/mdremap cg inputs/cg_large.yaml --quiet --set matrix.permute=false --spmv sell \
  --set solver.max_iterations=1 --write-npy /tmp/large_sys >/dev/null 2>&1
timeout 200 python3 tools/cg_cupy.py --npy /tmp/large_sys --tol 1e-8 --spmv-reps 20 --json $w/diag/cupy.json >/dev/null 2>&1 || echo "cupy rc=$?"
python3 - $w/diag <<'PY' | tee $w/diag/summary.txt
import json,glob,sys,statistics,collections
d=collections.defaultdict(dict)
for f in glob.glob(sys.argv[1]+'/*.r*.json'):
    m,b,r,_=f.split('/')[-1].split('.')
    d[(m,b)][r]=json.load(open(f))['time_per_iteration_ms']
cupy=json.load(open(sys.argv[1]+'/cupy.json'))['time_per_iteration_ms']
for m in ['offshore','parabolic_fem','apache2','ecology2','large']:
    a=statistics.median(d[(m,'b256')].values()); b=statistics.median(d[(m,'b128')].values())
    print('%-14s CG iteration ms, medians of 3: blocks of 256 %.4f, blocks of 128 %.4f (%+.1f%%)   rounds %s / %s'%(m,a,b,100*(b/a-1),
          ' '.join('%.4f'%v for _,v in sorted(d[(m,'b256')].items())),' '.join('%.4f'%v for _,v in sorted(d[(m,'b128')].items()))))
    if m=='large': print('large natural: CuPy cg %.4f ms an iteration: %.2fx (256), %.2fx (128)'%(cupy,cupy/a,cupy/b))
PY
tar czf $OUT/call10.tgz -C $w diag test_cg_spmv.log
timeout 200 ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats --kernel-name-base demangled -k 'regex:slot_reduce' --launch-skip 20 --launch-count 1 \
  $B/mdremap cg inputs/cg_large.yaml --set matrix.permute=false --spmv sell --set solver.max_iterations=30 --set spmv.timing_repeats=3 \
  --set spmv.transactions=false --set spmv.warm_up=false --quiet > $OUT/ncu-b128.txt 2>&1
grep -E "^    (Duration|DRAM Throughput|Registers Per|Achieved Occupancy|Block Size|Grid Size)" $OUT/ncu-b128.txt
